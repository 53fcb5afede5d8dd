import ChronoHardware
import Synchronization

/// A `SoundOutput` that records what it was asked to do and can be told to be silent or to lose
/// the device mid-session, so the Fear Mode paths (warning, `fear_sound_effective = false`) are testable.
/// Safe to use from several threads (the runtime calls it from its loop and its sound thread).
public final class RecordingSound: SoundOutput, Sendable {
    /// One thing that happened to the sound output.
    public enum Event: Sendable, Equatable {
        case checked(SoundAudibility, atMonotonicNanoseconds: Int64)
        case prepared(atMonotonicNanoseconds: Int64)
        /// A play that reached the speaker (or would have).
        case played(atMonotonicNanoseconds: Int64)
        /// A play that threw, with the error's text.
        case playFailed(reason: String, atMonotonicNanoseconds: Int64)
        case closed(atMonotonicNanoseconds: Int64)
    }

    private struct State {
        var audibility: SoundAudibility
        var lostReason: String?
        /// Successful plays left before `pendingLossReason` takes effect.
        var playsBeforeLoss: Int?
        var pendingLossReason: String?
        var events: [Event] = []
    }

    private let state: Mutex<State>
    private let now: @Sendable () -> Int64
    private let playDurationNanoseconds: Int64

    /// - Parameters:
    ///   - audibility: what `checkAudibility()` reports until the sound is lost.
    ///   - playDurationNanoseconds: how long `playAversiveSound()` blocks, like a real device would
    ///     (0 returns at once; only honoured with the real clock).
    ///   - now: where instants come from; CLOCK_MONOTONIC unless a test supplies a virtual clock.
    public init(audibility: SoundAudibility = .audible(description: "recording sound (mock)"),
                playDurationNanoseconds: Int64 = 0,
                now: @escaping @Sendable () -> Int64 = HardwareClock.monotonicNanoseconds) {
        state = Mutex(State(audibility: audibility))
        self.playDurationNanoseconds = playDurationNanoseconds
        self.now = now
    }

    /// From now on the device is gone: checks report inaudible and plays throw.
    public func loseSound(reason: String) {
        state.withLock { $0.lostReason = reason }
    }

    /// The sound is lost after `count` more successful plays (0: the next play fails).
    public func loseSound(afterPlays count: Int, reason: String) {
        state.withLock { state in
            if count <= 0 {
                state.lostReason = reason
            } else {
                state.playsBeforeLoss = count
                state.pendingLossReason = reason
            }
        }
    }

    public func checkAudibility() -> SoundAudibility {
        let instant = now()
        return state.withLock { state in
            let result = state.lostReason.map { SoundAudibility.inaudible(reason: $0) } ?? state.audibility
            state.events.append(.checked(result, atMonotonicNanoseconds: instant))
            return result
        }
    }

    public func prepare() throws {
        let instant = now()
        try state.withLock { state in
            if let reason = state.lostReason ?? state.audibility.inaudibleReason { throw MockDriverError(reason) }
            state.events.append(.prepared(atMonotonicNanoseconds: instant))
        }
    }

    public func playAversiveSound() throws {
        let instant = now()
        try state.withLock { state in
            if let reason = state.lostReason {
                state.events.append(.playFailed(reason: reason, atMonotonicNanoseconds: instant))
                throw MockDriverError(reason)
            }
            state.events.append(.played(atMonotonicNanoseconds: instant))
            if let remaining = state.playsBeforeLoss {
                if remaining <= 1 {
                    state.lostReason = state.pendingLossReason
                    state.playsBeforeLoss = nil
                } else {
                    state.playsBeforeLoss = remaining - 1
                }
            }
        }
        if playDurationNanoseconds > 0 {
            HardwareClock.sleep(untilMonotonicNanoseconds: HardwareClock.monotonicNanoseconds() + playDurationNanoseconds)
        }
    }

    public func close() {
        let instant = now()
        state.withLock { $0.events.append(.closed(atMonotonicNanoseconds: instant)) }
    }

    /// Everything recorded so far, oldest first.
    public var events: [Event] { state.withLock { $0.events } }

    /// Instants of the plays that succeeded.
    public var playInstants: [Int64] {
        events.compactMap { if case let .played(instant) = $0 { return instant } else { return nil } }
    }
}

extension SoundAudibility {
    /// The reason when inaudible, nil when audible.
    public var inaudibleReason: String? {
        if case let .inaudible(reason) = self { return reason }
        return nil
    }
}
