/// Which requests from outside the button (the companion, the control verbs: start, end, discard)
/// apply to the device's session now, as a pure decision the daemon asks before it acts.
///
/// A session that ends by itself (or a Passive session ended by a long press) is saved as completed
/// at that instant; the device then shows its summary for a moment (`SessionPhase.sessionSummary`,
/// the feedback duration) before it is idle again. In that window nothing runs any more: there is
/// nothing to end or discard (the session stays saved as completed, and saying "discarded" would be
/// false), and a new session cannot start yet — not because one is running, but because the device
/// is finishing the one that just ended. Each verdict names which of these holds so the words can.
public enum SessionRequestRule {
    /// What is asked.
    public enum Request: Hashable, Sendable {
        case start
        case endPassive
        case discard
    }

    /// The answer.
    public enum Verdict: Hashable, Sendable {
        /// Do it.
        case proceed
        /// Start refused: a session is running.
        case sessionRunning
        /// Start refused for a moment: the session that just ended is saved and its summary shows.
        case summaryShowing
        /// End or discard refused: the session already ended and is saved as completed.
        case alreadySaved
        /// End or discard refused: no session at all.
        case nothingRunning
        /// End refused: only a Passive session has an end (the others are discarded).
        case notPassive(SessionMode)
    }

    /// The verdict for `request` given the device's session: nil when there is none, else its mode
    /// and phase.
    public static func decide(_ request: Request, session: (mode: SessionMode, phase: SessionPhase)?) -> Verdict {
        guard let session else { return request == .start ? .proceed : .nothingRunning }
        let ended: Bool
        switch session.phase {
        case .sessionSummary, .completed, .aborted, .interrupted: ended = true
        default: ended = false
        }
        switch request {
        case .start:
            return ended ? .summaryShowing : .sessionRunning
        case .endPassive:
            if ended { return .alreadySaved }
            return session.mode == .passive ? .proceed : .notPassive(session.mode)
        case .discard:
            return ended ? .alreadySaved : .proceed
        }
    }
}
