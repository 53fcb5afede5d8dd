import Synchronization

/// A `MotorOutput` that records every command with the CLOCK_MONOTONIC instant it was given.
///
/// It enforces nothing (no safe maximum, no use-after-close check): tests assert on the recording, so
/// a runtime that forgets to switch the motor off is caught by the test, not hidden by the mock.
/// Safe to use from several threads. `bench timing` uses it too, to time the loop without a device.
public final class RecordingMotor: MotorOutput, Sendable {
    /// One thing that happened to the motor.
    public enum Event: Sendable, Equatable {
        /// `set(on:)` was called at that instant.
        case set(on: Bool, atMonotonicNanoseconds: Int64)
        /// `close()` was called at that instant.
        case closed(atMonotonicNanoseconds: Int64)
    }

    private struct State {
        var events: [Event] = []
        var failure: (any Error & Sendable)?
    }

    private let state = Mutex(State())
    private let now: @Sendable () -> Int64

    /// - Parameter now: where instants come from; CLOCK_MONOTONIC unless a test supplies a virtual clock.
    public init(now: @escaping @Sendable () -> Int64 = HardwareClock.monotonicNanoseconds) {
        self.now = now
    }

    public func set(on: Bool) throws {
        let instant = now()
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            state.events.append(.set(on: on, atMonotonicNanoseconds: instant))
        }
    }

    public func close() {
        let instant = now()
        state.withLock { $0.events.append(.closed(atMonotonicNanoseconds: instant)) }
    }

    /// Makes every later `set(on:)` throw, as a motor whose line was lost would (tests pass a
    /// `MockDriverError` from ChronoTesting).
    public func failFromNowOn(_ error: any Error & Sendable) {
        state.withLock { $0.failure = error }
    }

    /// Everything recorded so far, oldest first.
    public var events: [Event] { state.withLock { $0.events } }

    /// Only the `set(on:)` commands, as (on, instant) pairs.
    public var commands: [(on: Bool, atMonotonicNanoseconds: Int64)] {
        events.compactMap { event in
            if case let .set(on, instant) = event { return (on, instant) }
            return nil
        }
    }

    /// Whether the last command left the motor on (`close()` counts as off).
    public var isOn: Bool {
        switch events.last {
        case .set(let on, _)?: return on
        default: return false
        }
    }

    /// How many times `close()` was called.
    public var closeCount: Int {
        events.filter { if case .closed = $0 { return true } else { return false } }.count
    }

    /// The spans during which the motor was on, as (start, end) instants; a span still open at the end
    /// of the recording ends at `nil`.
    public var onSpans: [(start: Int64, end: Int64?)] {
        var spans: [(start: Int64, end: Int64?)] = []
        var onSince: Int64?
        for event in events {
            switch event {
            case let .set(true, instant) where onSince == nil:
                onSince = instant
            case let .set(false, instant), let .closed(instant):
                if let start = onSince { spans.append((start, instant)); onSince = nil }
            default:
                break
            }
        }
        if let start = onSince { spans.append((start, nil)) }
        return spans
    }
}
