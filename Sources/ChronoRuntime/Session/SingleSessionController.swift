import ChronoCore
import Foundation

/// Runs exactly one session (the `challenge`, `fear` and `passive` commands), then finishes once its
/// summary has shown (or at once when it was discarded or interrupted).
public final class SingleSessionController: LoopController {
    private let configuration: SessionConfiguration
    private let context: SessionContext
    private let sessionID: String
    private var runner: SessionRunner?
    private var stopped = false

    public init(configuration: SessionConfiguration, context: SessionContext, sessionID: String = UUID().uuidString) {
        self.configuration = configuration
        self.context = context
        self.sessionID = sessionID
    }

    /// The outcome, once the session has one.
    public var outcome: SessionOutcome? { runner?.engine.outcome }

    public func start(at now: MonotonicInstant) -> [LoopAction] {
        let runner = SessionRunner(configuration: configuration, startedAt: now, anchor: MonotonicClock.wallClockAnchor(),
                                   sessionID: sessionID, context: context)
        self.runner = runner
        return runner.begin()
    }

    public var nextDeadline: MonotonicInstant? { stopped ? nil : runner?.nextDeadline }

    public func handle(_ event: SessionEvent) -> [LoopAction] {
        guard let runner, !stopped else { return [] }
        return runner.handle(event)
    }

    public func predictedVibrations() -> [PlannedVibration] {
        stopped ? [] : runner?.predictedVibrations() ?? []
    }

    public func vibrationStarted(_ vibration: PlannedVibration, firedAt: MonotonicInstant) {
        runner?.vibrationStarted(vibration, firedAt: firedAt)
    }

    public func stop(at now: MonotonicInstant, reason: String) -> [LoopAction] {
        guard !stopped else { return [] }
        stopped = true
        return runner?.interrupt(at: now, reason: reason) ?? []
    }

    public var isFinished: Bool { stopped || (runner?.isOver ?? false) }
}
