import ChronoCore

/// Pairing on the device: showing the oldest waiting request, approving it with a long press in idle, expiring it.
extension DeviceDaemonController {
    /// Names the shown request (console and state) and, in idle, plays its cue: from then on a long
    /// press begun in idle approves it. During a session it is only named; the cue waits for idle.
    func showPairing(at now: MonotonicInstant) -> [LoopAction] {
        guard let entry = pairings.current, let expires = entry.expiresAt else {
            announcedPairing = nil
            menu?.pairingWithdrawn()
            return []
        }
        let left = DurationText.format(magnitudeOf: expires - now)
        guard runner == nil, menu != nil else {
            return [.console("Pairing request from \(Self.describe(entry.requester)): it waits until this session ends (never approved during one); it expires in \(left).")]
        }
        announcedPairing = (entry.id, now)
        menu?.pairingAnnounced(at: now)
        let cue = HapticCue.pairingRequest
        let browsing = menu?.state != .idle
        return [
            .vibrate(PlannedVibration(pattern: cue.pattern, label: .cue(cue), due: now)),
            .console("Pairing request from \(Self.describe(entry.requester)): to approve, hold the button (\(pressHint)) for \(Self.holdText(snapshot.defaults.gestures.longPress))\(browsing ? " once the menu is back in idle" : "") within \(left) (while it waits, a long press in idle approves instead of browsing presets; a tap still starts a session). Do nothing to refuse."),
        ]
    }

    /// The long press in idle: approves the request shown, then shows the next (if any).
    func approveShownPairing(at now: MonotonicInstant) -> [LoopAction] {
        announcedPairing = nil
        guard let entry = pairings.approveCurrent(at: now) else { return [] }
        var actions: [LoopAction] = [.console("Pairing approved: \(Self.describe(entry.requester)).")]
        if let reply = pairingReplies.removeValue(forKey: entry.id) { actions.append(.offLoop { reply(.pairingApproved) }) }
        actions += showPairing(at: now)
        actions.append(.state(currentState()))
        return actions
    }

    /// Answers the requests whose window has passed at `now` and shows the next one.
    func expirePairings(at now: MonotonicInstant) -> [LoopAction] {
        let expired = pairings.expire(at: now)
        guard !expired.isEmpty else { return [] }
        var actions: [LoopAction] = []
        for entry in expired {
            actions.append(.console("Pairing request from \(Self.describe(entry.requester)) expired unapproved."))
            if let reply = pairingReplies.removeValue(forKey: entry.id) {
                actions.append(.offLoop { reply(.refused(.pairingRefused("no long press within the time given"))) })
            }
        }
        announcedPairing = nil
        actions += showPairing(at: now)
        actions.append(.state(currentState()))
        return actions
    }

    /// The long-press threshold in seconds with its fraction (`1.5s`): the whole-second display rule
    /// would round it to a hold that is not long enough.
    static func holdText(_ span: TimeSpan) -> String {
        let tenths = (span.nanoseconds + 99_999_999) / 100_000_000
        return tenths % 10 == 0 ? "\(tenths / 10)s" : "\(tenths / 10).\(tenths % 10)s"
    }

    /// `"NAME" at ADDRESS`, as every line about a request says it. Both came from the network: shown
    /// as text (a bidirectional override in a name must not reorder the line the person reads).
    static func describe(_ requester: PairingRequester) -> String {
        "\"\(TerminalSafeText.sanitized(requester.name, keepNewlines: false))\" at \(TerminalSafeText.sanitized(requester.address, keepNewlines: false))"
    }
}
