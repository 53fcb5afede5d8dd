/// The Challenge, Fear, Passive and Reproduction state machines (SPEC §2, §10) as one pure value.
///
/// Every input is a `SessionEvent` carrying its own instant; every output is a list of
/// `SessionEffect`s. The engine never reads a clock, sleeps or touches a device: the runtime waits
/// for `nextDeadline` or a button edge and feeds what happened; `replay` and `simulate` do the same on
/// a virtual clock. Rules, in the words of the spec:
/// - a tap (press and release before the long-press threshold) marks at its press edge; the first
///   tap after an attempt starts is its tap mark, presses before the next attempt are ignored;
/// - a long press asks to discard; a second long press before the window ends discards; a tap meanwhile
///   withdraws the request (the tap is consumed by the answer); attempt timing goes on throughout;
/// - Fear plays the aversive sound after an attempt with `abs_percent_error >= threshold`, when sound
///   is audible; `fear_sound_effective` is false if it was not audible at the start or was lost;
/// - Passive boundary k is due at `start + k × interval` exactly; a long press ends the session.
/// - Reproduction: each attempt begins with its presentation — `presentationDelay` after the session
///   start (attempt 1) or after the previous attempt's feedback ends, a mark at that absolute deadline
///   and a second exactly one interval later; presses until the second mark are ignored and counted.
///   Then the person's press starts the reproduction (the start mark) and the next ends it (the tap
///   mark), with the taps, feedback and discard rules of Challenge. Auto-start does not apply: the
///   presentation always follows by itself. Each mark's onset is kept (`cueBegan`, else the instant
///   it was commanded); one later than `CueTiming.tolerance` past its deadline sets `timingLateness`.
/// - A cue that marks time keeps the instant it really began, as the loop reports it (`cueBegan`): a
///   Passive boundary's firing, an auto-started attempt's start mark. Deadlines stay absolute; a cue
///   later than `CueTiming.tolerance` sets the outcome's `timingLateness`.
/// - With feedback withheld (`FeedbackPolicy.withheld`) each press that marks an attempt is confirmed by
///   the neutral `recorded` cue; no feedback cue, `attemptMeasured` effect or Fear sound is given, and
///   `fear_sound_effective` is false. The outcome keeps every mark as always.
public struct SessionEngine: Hashable, Sendable {
    public let configuration: SessionConfiguration
    public let startedAt: MonotonicInstant
    public private(set) var phase: SessionPhase
    public private(set) var attempts: [AttemptMeasurement] = []
    public private(set) var boundaries: [PassiveBoundary] = []
    /// When each boundary's pattern really began, by position beside `boundaries` (nil: not reported).
    public private(set) var boundariesFired: [MonotonicInstant?] = []
    /// Reproduction: presses made during a presentation, ignored (`SessionOutcome`'s count).
    public private(set) var pressesIgnoredDuringPresentation = 0
    /// The timing flag so far (`SessionOutcome.timingLateness`).
    public private(set) var timingLateness: TimeSpan?
    public private(set) var fearSoundEffective: Bool
    public private(set) var outcome: SessionOutcome?
    /// When a discard request is open, the instant it lapses.
    public private(set) var abortPendingUntil: MonotonicInstant?

    private var gestures: GestureRecognizer
    private var soundAudible: Bool
    private var motorFreeAt: MonotonicInstant
    private var began = false
    /// The instant each boundary's pattern was asked for (its `.motor` effect), by position: how a
    /// reported beginning is matched to its boundary.
    private var boundaryCueDue: [MonotonicInstant] = []
    /// An auto-started attempt whose start cue has not been reported yet.
    private var startCueAwaited: AwaitedStartCue?
    /// Beginnings reported before the engine reached their step (the loop starts a predicted cue
    /// early by the motor's onset latency, or at the same wake-up before feeding the deadline): the
    /// latest per label, taken when the step asks for that cue.
    private var reportedEarly: [VibrationLabel: ReportedBeginning] = [:]

    /// Reproduction: the presented interval of the attempt being presented or reproduced.
    private var presentation: Presentation?

    /// One attempt's presented interval: its two deadlines, the instants its marks were commanded
    /// (later than the deadline only when another vibration was still playing) and when the loop
    /// reported they really began.
    private struct Presentation: Hashable, Sendable {
        var attempt: Int
        var startDue: MonotonicInstant
        var endDue: MonotonicInstant
        var startCue: MonotonicInstant?
        var endCue: MonotonicInstant?
        var startBegan: MonotonicInstant?
        var endBegan: MonotonicInstant?

        /// The next mark's deadline; nil once both were played.
        var nextDue: MonotonicInstant? { startCue == nil ? startDue : (endCue == nil ? endDue : nil) }
        var startOnset: MonotonicInstant? { startBegan ?? startCue }
        var endOnset: MonotonicInstant? { endBegan ?? endCue }
    }

    private struct AwaitedStartCue: Hashable, Sendable {
        var attempt: Int
        var cueDue: MonotonicInstant
    }

    private struct ReportedBeginning: Hashable, Sendable {
        var due: MonotonicInstant
        var began: MonotonicInstant
    }

    /// The pause the engine keeps between two vibrations so that they are felt as two.
    public static let patternSeparation = TimeSpan.milliseconds(150)

    /// Reproduction: from an attempt's start (the session start, or the end of the previous attempt's
    /// feedback) to its presented interval's first mark. Two seconds: the longest cue before it (a red
    /// feedback, 990 ms) is over and the person has settled, yet the wait is not itself an interval.
    public static let presentationDelay = TimeSpan.seconds(2)

    public init(configuration: SessionConfiguration, startedAt: MonotonicInstant, soundAudible: Bool) {
        self.configuration = configuration
        self.startedAt = startedAt
        self.soundAudible = soundAudible
        // Withheld feedback has no Fear sound: the session did not have the fear signal in effect.
        fearSoundEffective = configuration.mode == .fear && configuration.feedback.isShown ? soundAudible : false
        gestures = GestureRecognizer(settings: configuration.gestures)
        motorFreeAt = startedAt
        switch configuration.mode {
        case .challenge, .fear:
            phase = .waitingForStart(attempt: 1)
        case .passive:
            phase = .passiveRunning(boundariesDone: 0, nextBoundary: startedAt + configuration.interval.span)
        case .reproduction:
            let planned = Self.presentation(attempt: 1, startingAt: startedAt, interval: configuration.interval)
            presentation = planned
            phase = .presenting(attempt: 1, endDue: planned.endDue)
        }
    }

    private static func presentation(attempt: Int, startingAt start: MonotonicInstant, interval: TrainingInterval) -> Presentation {
        let startDue = start + presentationDelay
        return Presentation(attempt: attempt, startDue: startDue, endDue: startDue + interval.span)
    }

    /// The instant at which the engine next needs a `.deadline` event, if any.
    public var nextDeadline: MonotonicInstant? {
        var candidates: [MonotonicInstant] = []
        switch phase {
        case .feedbackFlash(_, let until), .sessionSummary(let until): candidates.append(until)
        case .passiveRunning(_, let next): candidates.append(next)
        case .presenting: if let due = presentation?.nextDue { candidates.append(due) }
        default: break
        }
        if outcome == nil {
            if let abortPendingUntil { candidates.append(abortPendingUntil) }
            if let gestureDeadline = gestures.nextDeadline { candidates.append(gestureDeadline) }
        }
        return candidates.min()
    }

    /// Starts the session: the ready cue (Challenge, Fear) or the start cue (Passive).
    public mutating func begin() -> [SessionEffect] {
        guard !began else { return [] }
        began = true
        var effects: [SessionEffect] = [.phaseChanged(phase, at: startedAt)]
        if configuration.mode == .fear && configuration.feedback.isShown && !soundAudible {
            effects.append(.notice("Sound is disabled. Fear Mode will behave like Challenge Mode.", at: startedAt))
        }
        effects.append(vibrate(configuration.mode.usesAttempts ? .ready : .start, at: startedAt))
        return effects
    }

    /// Feeds one event; returns what to do.
    public mutating func handle(_ event: SessionEvent) -> [SessionEffect] {
        var effects = began ? [] : begin()
        effects += advance(to: event.instant)
        guard outcome == nil else { return effects }
        let now = event.instant
        switch event {
        case .button(let edge):
            for gesture in gestures.handle(edge) { effects += handle(gesture, at: now) }
        case .deadline:
            break
        case .soundLost(let at):
            soundAudible = false
            if configuration.mode == .fear && fearSoundEffective {
                fearSoundEffective = false
                effects.append(.notice("Sound was lost. Fear Mode continues like Challenge Mode; this session records fear_sound_effective = false.", at: at))
            }
        case .soundRestored:
            soundAudible = true
        case .endRequested(let at):
            effects += configuration.mode == .passive
                ? endPassive(at: at)
                : finish(.interrupted, endedAt: at, reason: "The session was stopped before its last attempt.", at: at)
        }
        return effects
    }

    /// The program is stopping with the session unfinished (signal, shutdown, end of a replay):
    /// the session becomes interrupted, which is never logged.
    public mutating func interrupt(at now: MonotonicInstant, reason: String) -> [SessionEffect] {
        guard outcome == nil else { return [] }
        return finish(.interrupted, endedAt: now, reason: reason, at: now)
    }

    /// The device ends the session itself before its plan because it cannot go on (the battery cannot
    /// cover it, `BatteryMonitor`): a Passive session with boundaries is saved as completed, its
    /// boundaries so far kept, with `reason` recorded; any other session is interrupted with `reason`.
    public mutating func endEarly(at now: MonotonicInstant, reason: String) -> [SessionEffect] {
        guard outcome == nil else { return [] }
        if configuration.mode == .passive, !boundaries.isEmpty {
            return finish(.completed, endedAt: now, reason: reason, at: now)
        }
        return finish(.interrupted, endedAt: now, reason: reason, at: now)
    }

    /// The session is discarded from outside the button (the companion): it ends aborted, which is
    /// never logged, with the discarded cue — as two long presses would.
    public mutating func discard(at now: MonotonicInstant, reason: String) -> [SessionEffect] {
        var effects = began ? [] : begin()
        effects += advance(to: now)
        guard outcome == nil else { return effects }
        return effects + [vibrate(.discarded, at: now)] + finish(.aborted, endedAt: now, reason: reason, at: now)
    }

    /// The loop reports that a vibration it was asked for really began at `began` (`due` is the instant
    /// of its `.motor` effect). For the cues that mark time the engine keeps that instant: a Passive
    /// boundary's firing; the start mark of an attempt that started by itself (the person counts from
    /// the cue they feel, so a cue delayed by a stall must not lengthen their attempt). Either, later
    /// than `CueTiming.tolerance` past the instant it was asked for, sets `timingLateness`. Other
    /// cues are ignored, as is anything reported after the session finished.
    public mutating func cueBegan(_ label: VibrationLabel, due: MonotonicInstant, at began: MonotonicInstant) {
        guard outcome == nil else { return }
        if label == .passiveBoundary, configuration.mode == .passive {
            if let position = boundaryCueDue.lastIndex(of: due), boundariesFired[position] == nil {
                recordBoundary(at: position, began: began)
            } else {
                reportedEarly[label] = ReportedBeginning(due: due, began: began)
            }
        } else if label == .cue(.start), configuration.mode.usesAttempts, configuration.timing.autoStartNextAttempt {
            if let awaited = startCueAwaited, awaited.cueDue == due,
               case .attemptRunning(let attempt, let mark) = phase, attempt == awaited.attempt {
                startCueAwaited = nil
                phase = .attemptRunning(attempt: attempt, startMark: max(mark, began))
                flag(due: awaited.cueDue, began: began)
            } else {
                reportedEarly[label] = ReportedBeginning(due: due, began: began)
            }
        } else if label == .presentedStart || label == .presentedEnd, configuration.mode == .reproduction {
            guard var current = presentation,
                  label == .presentedStart ? current.startCue == due : current.endCue == due else {
                reportedEarly[label] = ReportedBeginning(due: due, began: began)
                return
            }
            if label == .presentedStart {
                current.startBegan = began
                flag(due: current.startDue, began: began)
            } else {
                current.endBegan = began
                flag(due: current.endDue, began: began)
            }
            presentation = current
            // Reported after the person already finished this attempt: its measurement follows.
            if let position = attempts.lastIndex(where: { $0.index == current.attempt }) {
                attempts[position] = attempts[position].presenting(start: current.startOnset, end: current.endOnset)
            }
        }
    }

    /// The beginning reported early for the cue `label` asked for at `due`, if any (taken once).
    private mutating func takeReportedEarly(_ label: VibrationLabel, due: MonotonicInstant) -> MonotonicInstant? {
        guard let reported = reportedEarly[label], reported.due == due else { return nil }
        reportedEarly[label] = nil
        return reported.began
    }

    private mutating func recordBoundary(at position: Int, began: MonotonicInstant) {
        boundariesFired[position] = began
        flag(due: boundaryCueDue[position], began: began)
    }

    /// Late is measured from the instant the cue was asked for (a boundary's deadline, the end of
    /// feedback, or later when the engine itself queued the cue behind another): what a stall adds.
    private mutating func flag(due: MonotonicInstant, began: MonotonicInstant) {
        timingLateness = CueTiming.worse(timingLateness, CueTiming.lateness(due: due, began: began))
    }

    /// Handles every deadline at or before `now`, each at its own instant, in time order.
    private mutating func advance(to now: MonotonicInstant) -> [SessionEffect] {
        var effects: [SessionEffect] = []
        while let deadline = nextDeadline, deadline <= now {
            let before = self
            effects += handleDeadline(at: deadline)
            if before == self { break }  // nothing was due after all; never spin
        }
        return effects
    }

    /// One deadline instant. The session's own steps due then (a boundary, the end of feedback) come
    /// before the user's gestures recognised at the same instant, so a boundary due exactly when a long
    /// press ends a Passive session still counts.
    private mutating func handleDeadline(at now: MonotonicInstant) -> [SessionEffect] {
        var effects: [SessionEffect] = []
        switch phase {
        case .feedbackFlash(let attempt, let until) where until <= now:
            if configuration.mode == .reproduction {
                let planned = Self.presentation(attempt: attempt + 1, startingAt: until, interval: configuration.interval)
                presentation = planned
                phase = .presenting(attempt: attempt + 1, endDue: planned.endDue)
                effects.append(.phaseChanged(phase, at: until))
            } else if configuration.timing.autoStartNextAttempt {
                effects += startAttempt(attempt + 1, mark: until, at: until, markedByCue: true)
            } else {
                phase = .waitingForStart(attempt: attempt + 1)
                acceptPressesFrom = until
                effects.append(.phaseChanged(phase, at: until))
            }
        case .passiveRunning(let done, let due) where due <= now:
            effects += reachBoundary(done + 1, due: due)
        case .presenting(let attempt, _):
            if let due = presentation?.nextDue, due <= now { effects += presentMark(of: attempt) }
        case .sessionSummary(let until) where until <= now:
            phase = .completed
            effects.append(.phaseChanged(phase, at: until))
        default:
            break
        }
        if outcome == nil {
            for gesture in gestures.advance(to: now) { effects += handle(gesture, at: now) }
            if let until = abortPendingUntil, until <= now, outcome == nil {
                abortPendingUntil = nil
                effects.append(.abortWithdrawn(reason: "No second long press: the session goes on.", at: until))
            }
        }
        return effects
    }

    /// Presses before this instant belong to an earlier step and are ignored.
    private var acceptPressesFrom = MonotonicInstant(nanoseconds: Int64.min)

    private mutating func handle(_ gesture: Gesture, at now: MonotonicInstant) -> [SessionEffect] {
        guard outcome == nil else { return [] }
        switch gesture {
        case .tap(let pressedAt, _):
            return handleTap(pressedAt: pressedAt, at: now)
        case .longPress(_, let recognizedAt):
            return handleLongPress(at: recognizedAt)
        }
    }

    private mutating func handleTap(pressedAt: MonotonicInstant, at now: MonotonicInstant) -> [SessionEffect] {
        if abortPendingUntil != nil {
            abortPendingUntil = nil
            return [.abortWithdrawn(reason: "A tap answered the discard request: the session goes on.", at: now)]
        }
        switch phase {
        case .presenting:
            pressesIgnoredDuringPresentation += 1
            return [.pressIgnored(pressedAt: pressedAt, reason: "pressed during the presentation", at: now)]
        case .waitingForStart(let attempt):
            guard pressedAt >= acceptPressesFrom else {
                if configuration.mode == .reproduction {
                    pressesIgnoredDuringPresentation += 1
                    return [.pressIgnored(pressedAt: pressedAt, reason: "pressed during the presentation", at: now)]
                }
                return [.pressIgnored(pressedAt: pressedAt, reason: "pressed while feedback was showing", at: now)]
            }
            return startAttempt(attempt, mark: pressedAt, at: now)
        case .attemptRunning(let attempt, let startMark):
            guard pressedAt >= startMark else {
                return [.pressIgnored(pressedAt: pressedAt, reason: "pressed before the attempt started", at: now)]
            }
            return measure(attempt, startMark: startMark, tapMark: pressedAt, at: now)
        case .feedbackFlash:
            return [.pressIgnored(pressedAt: pressedAt, reason: "only the first tap of an attempt counts", at: now)]
        case .passiveRunning:
            return [.pressIgnored(pressedAt: pressedAt, reason: "Passive takes no taps; hold to end", at: now)]
        case .sessionSummary, .completed, .aborted, .interrupted:
            return []
        }
    }

    private mutating func handleLongPress(at now: MonotonicInstant) -> [SessionEffect] {
        if configuration.mode == .passive { return endPassive(at: now) }
        if let until = abortPendingUntil, now < until {
            abortPendingUntil = nil
            return [vibrate(.discarded, at: now)]
                + finish(.aborted, endedAt: now, reason: "Discarded by the user with two long presses.", at: now)
        }
        let until = now + configuration.timing.abortConfirmWindow
        abortPendingUntil = until
        return [.abortRequested(until: until, at: now), vibrate(.abortConfirm, at: now)]
    }

    /// - Parameter markedByCue: the attempt starts by itself at a deadline (`mark`): its start cue
    ///   is what the person counts from, so the mark becomes the instant that cue really began once
    ///   the loop reports it (never earlier than the deadline).
    private mutating func startAttempt(_ attempt: Int, mark: MonotonicInstant, at now: MonotonicInstant,
                                       markedByCue: Bool = false) -> [SessionEffect] {
        // A press that starts an attempt is confirmed; without feedback by the one neutral cue.
        let cue = vibrate(markedByCue || configuration.feedback.isShown ? .start : .recorded, at: now)
        var mark = mark
        if markedByCue, case .motor(_, _, let cueDue) = cue {
            if let began = takeReportedEarly(.cue(.start), due: cueDue) {
                flag(due: cueDue, began: began)
                mark = max(mark, began)
            } else {
                startCueAwaited = AwaitedStartCue(attempt: attempt, cueDue: cueDue)
            }
        }
        phase = .attemptRunning(attempt: attempt, startMark: mark)
        return [
            .attemptStarted(attempt: attempt, startMark: mark, at: now),
            .phaseChanged(phase, at: now),
            cue,
        ]
    }

    private mutating func measure(
        _ attempt: Int, startMark: MonotonicInstant, tapMark: MonotonicInstant, at now: MonotonicInstant
    ) -> [SessionEffect] {
        let presented = configuration.mode == .reproduction ? presentation : nil
        let measurement = AttemptMeasurement(
            index: attempt, target: configuration.interval, startMark: startMark, tapMark: tapMark,
            presentedStart: presented?.startOnset, presentedEnd: presented?.endOnset)
        attempts.append(measurement)
        var effects: [SessionEffect]
        if configuration.feedback.isShown {
            effects = [
                .attemptMeasured(measurement, at: now),
                vibrate(.feedback(measurement.zone, measurement.direction), at: now),
            ]
        } else {
            effects = [.attemptRecorded(attempt: attempt, tapMark: tapMark, at: now), vibrate(.recorded, at: now)]
        }
        if configuration.mode == .fear, configuration.feedback.isShown, soundAudible,
           measurement.absPercentError >= configuration.fearThreshold {
            effects.append(.aversiveSound(attempt: attempt, at: now))
        }
        if attempt >= configuration.plannedCount {
            effects += finish(.completed, endedAt: tapMark, reason: nil, at: now)
        } else {
            phase = .feedbackFlash(attempt: attempt, until: now + configuration.timing.feedbackDuration)
            effects.append(.phaseChanged(phase, at: now))
        }
        return effects
    }

    /// Reproduction: the presented interval's next mark, at its absolute deadline (queued only when
    /// another vibration still plays, which flags the session like a stall). After the end mark the
    /// person may start their reproduction: presses from that mark's onset on count.
    private mutating func presentMark(of attempt: Int) -> [SessionEffect] {
        guard var current = presentation, let due = current.nextDue else { return [] }
        let isStart = current.startCue == nil
        let label: VibrationLabel = isStart ? .presentedStart : .presentedEnd
        let cue = vibrate(HapticCue.presentationMark.pattern, label: label, at: due)
        guard case .motor(_, _, let commanded) = cue else { return [] }
        flag(due: due, began: commanded)
        let early = takeReportedEarly(label, due: commanded)
        if let early { flag(due: due, began: early) }
        if isStart {
            current.startCue = commanded
            current.startBegan = early
            presentation = current
            return [cue]
        }
        current.endCue = commanded
        current.endBegan = early
        presentation = current
        phase = .waitingForStart(attempt: attempt)
        acceptPressesFrom = commanded
        return [cue, .phaseChanged(phase, at: due)]
    }

    private mutating func reachBoundary(_ index: Int, due: MonotonicInstant) -> [SessionEffect] {
        let boundary = PassiveBoundary(index: index, due: due)
        boundaries.append(boundary)
        let cue = vibrate(configuration.intervalPattern, label: .passiveBoundary, at: due)
        if case .motor(_, _, let cueDue) = cue {
            boundaryCueDue.append(cueDue)
            boundariesFired.append(nil)
            if let began = takeReportedEarly(.passiveBoundary, due: cueDue) { recordBoundary(at: boundaries.count - 1, began: began) }
        }
        var effects: [SessionEffect] = [.boundaryReached(boundary), cue]
        if index >= configuration.plannedCount {
            effects += finish(.completed, endedAt: due, reason: nil, at: due)
        } else {
            // Absolute: k × interval from the start, never "previous boundary + interval".
            let next = startedAt + configuration.interval.span * Int64(index + 1)
            phase = .passiveRunning(boundariesDone: index, nextBoundary: next)
            effects.append(.phaseChanged(phase, at: due))
        }
        return effects
    }

    private mutating func endPassive(at now: MonotonicInstant) -> [SessionEffect] {
        if boundaries.isEmpty {
            return [vibrate(.discarded, at: now)]
                + finish(.aborted, endedAt: now, reason: "Ended before the first boundary.", at: now)
        }
        return finish(.completed, endedAt: now, reason: nil, at: now)
    }

    private mutating func finish(
        _ status: SessionStatus, endedAt: MonotonicInstant, reason: String?, at now: MonotonicInstant
    ) -> [SessionEffect] {
        var effects: [SessionEffect] = []
        let beforeFirstPress = awaitsFirstPress
        switch status {
        case .completed:
            effects.append(vibrate(.sessionDone, at: now))
            phase = .sessionSummary(until: now + configuration.timing.feedbackDuration)
        case .aborted:
            phase = .aborted
        case .interrupted:
            phase = .interrupted
        }
        abortPendingUntil = nil
        let finished = SessionOutcome(
            status: status, configuration: configuration, startedAt: startedAt, endedAt: endedAt,
            attempts: attempts, boundaries: boundaries,
            fearSoundEffective: configuration.mode == .fear && fearSoundEffective, reason: reason.map(SessionValidation.keepableReason),
            timingLateness: timingLateness, pressesIgnoredDuringPresentation: pressesIgnoredDuringPresentation,
            endedBeforeFirstPress: beforeFirstPress)
        outcome = finished
        effects.append(.phaseChanged(phase, at: now))
        effects.append(.finished(finished))
        return effects
    }

    /// Whether the person has not pressed yet: the first attempt still waits for its start (or, in
    /// Reproduction, is still being presented), and nothing was measured.
    private var awaitsFirstPress: Bool {
        guard attempts.isEmpty, boundaries.isEmpty, pressesIgnoredDuringPresentation == 0 else { return false }
        switch phase {
        case .waitingForStart(let attempt): return attempt == 1
        case .presenting(let attempt, _): return attempt == 1
        default: return false
        }
    }

    private mutating func vibrate(_ cue: HapticCue, at instant: MonotonicInstant) -> SessionEffect {
        vibrate(cue.pattern, label: .cue(cue), at: instant)
    }

    /// Queues a vibration: it starts at `instant` or, if another is still playing, right after it.
    private mutating func vibrate(_ pattern: HapticPattern, label: VibrationLabel, at instant: MonotonicInstant) -> SessionEffect {
        let start = max(instant, motorFreeAt)
        motorFreeAt = start + pattern.duration + Self.patternSeparation
        return .motor(pattern, label: label, at: start)
    }
}
