import ChronoCore

/// The daemon's answers to actions from other threads (`DeviceAction`): start, end, discard, pair — decided on the loop.
extension DeviceDaemonController {
    /// The loop's answer to an action (nil: answered later — a pairing request, by a long press or its expiry).
    func decide(_ action: DeviceAction, reply: @escaping @Sendable (DeviceReply) -> Void,
                        at now: MonotonicInstant) -> ([LoopAction], DeviceReply?) {
        if stopped { return ([], .refused(.stopping)) }
        switch action {
        case .start(let request):
            // A waiting pairing request never blocks a start: it waits through the session.
            if let refusal = sessionRefusal(.start) { return ([], .refused(refusal)) }
            if let reason = batteryRefusal { return ([], .refused(.batteryLow(reason))) }
            if let reason = snapshot.updateRefusal { return ([], .refused(.updating(reason))) }
            let configuration: SessionConfiguration
            do {
                configuration = try requestedConfiguration(request)
            } catch {
                return ([], .refused(.invalidConfiguration(error.description)))
            }
            // Fear asked for by name without the opt-in is refused; what a tap would start (the last
            // configuration, a preset) runs as the tap runs it, as Challenge (`runnable`).
            if case .explicit = request, !fearPermission.allowsByName(configuration.mode) { return ([], .refused(.fearNotOptedIn)) }
            // `{}` meets the study's due session: it waits for consent, and nothing else starts in its place.
            if case .lastConfiguration = request, let waiting = studyAwaitingConsent(at: now) {
                return ([], .refused(.consentNeeded(protocolName: waiting)))
            }
            // `{}` starts what a tap starts: the study's session when one is due (with its tag).
            let study: StudyTag? = if case .lastConfiguration = request { dueStudySession(at: now)?.tag } else { nil }
            let actions = startSession(configuration, at: now, study: study)
            guard let runner else { return (actions, .refused(.stopping)) }
            return (actions, .started(sessionID: runner.sessionID, configuration: runner.configuration))
        case .endPassive:
            if let refusal = sessionRefusal(.endPassive) { return ([], .refused(refusal)) }
            guard let runner else { return ([], .refused(.nothingRunning)) }
            var actions = runner.handle(.endRequested(at: now))
            let status = runner.engine.outcome?.status ?? .completed
            if runner.isOver { actions += enterIdle(at: now, announce: false) }
            return (actions, .ended(sessionID: runner.sessionID, status: status))
        case .discard:
            if let refusal = sessionRefusal(.discard) { return ([], .refused(refusal)) }
            guard let runner else { return ([], .refused(.nothingRunning)) }
            var actions = runner.discard(at: now)
            if runner.isOver { actions += enterIdle(at: now, announce: false) }
            return (actions, .discarded(sessionID: runner.sessionID))
        case .approvePairing(let requester, let window):
            guard window > .zero else { return ([], .refused(.invalidConfiguration("The approval window must be longer than 0 s."))) }
            guard case .queued(let id, let shown) = pairings.add(requester, window: window, at: now) else {
                return ([], .refused(.pairingQueueFull))
            }
            pairingReplies[id] = reply
            var actions: [LoopAction] = []
            if shown {
                actions += showPairing(at: now)
            } else {
                actions.append(.console("Pairing request from \(Self.describe(requester)) waits behind \(pairings.entries.count - 1) other(s); it is shown when they are answered or expire."))
            }
            actions.append(.state(currentState()))
            return (actions, nil)
        }
    }

    /// Why a start, end or discard does not apply to the session now (nil: it does), as the core's
    /// `SessionRequestRule` decides: in the summary window after a session ended nothing runs, so
    /// nothing is ended or discarded, and a start waits for the summary to end.
    func sessionRefusal(_ request: SessionRequestRule.Request) -> DeviceRefusal? {
        let session = runner.map { (mode: $0.configuration.mode, phase: $0.engine.phase) }
        let id = runner?.sessionID ?? ""
        switch SessionRequestRule.decide(request, session: session) {
        case .proceed: return nil
        case .sessionRunning: return .sessionRunning(sessionID: id)
        case .summaryShowing: return .sessionJustEnded(sessionID: id)
        case .alreadySaved:
            return .sessionAlreadySaved(sessionID: id, status: runner?.engine.outcome?.status ?? .completed, discard: request == .discard)
        case .nothingRunning: return .nothingRunning
        case .notPassive(let mode): return .notPassive(mode)
        }
    }

    func requestedConfiguration(_ request: StartRequest) throws(ConfigurationError) -> SessionConfiguration {
        switch request {
        case .preset(let interval):
            // A preset by name is the default mode at that interval, with that mode's count from
            // the settings (`start --preset`'s promise), and the person's own, outside any study.
            return try snapshot.configuration(mode: snapshot.defaults.mode, interval: interval, count: nil)
        case .explicit(let mode, let interval, let count):
            return try snapshot.configuration(mode: mode, interval: interval, count: count)
        case .lastConfiguration:
            return dueStudySession(at: nil)?.configuration ?? ownConfiguration()
        }
    }
}
