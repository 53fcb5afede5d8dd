import ChronoCore
#if canImport(Glibc)
import Glibc
#endif

/// Measures what the loop costs while it waits: it asks for a single deadline `duration` after the
/// start and nothing else, and reads the process's CPU time (user + system, all threads) at the start
/// and at that deadline — both inside the loop, after real-time set-up and memory locking are done.
public final class IdleBenchController: LoopController {
    public let duration: TimeSpan
    private var deadline: MonotonicInstant?
    private var finished = false
    private var startCPU: Int64 = 0
    /// CPU nanoseconds used during the idle span, once finished.
    public private(set) var cpuNanoseconds: Int64 = 0
    /// The idle span actually measured.
    public private(set) var measured = TimeSpan.zero
    private var startedAt = MonotonicInstant.zero

    public init(duration: TimeSpan) {
        self.duration = duration
    }

    public func start(at now: MonotonicInstant) -> [LoopAction] {
        startedAt = now
        deadline = now + duration
        startCPU = Self.processCPUNanoseconds()
        return []
    }

    public var nextDeadline: MonotonicInstant? { finished ? nil : deadline }

    public func handle(_ event: SessionEvent) -> [LoopAction] {
        guard case .deadline(let now) = event else { return [] }
        cpuNanoseconds = Self.processCPUNanoseconds() - startCPU
        measured = now - startedAt
        finished = true
        return []
    }

    public func predictedVibrations() -> [PlannedVibration] { [] }
    public func vibrationStarted(_ vibration: PlannedVibration, firedAt: MonotonicInstant) {}

    public func stop(at now: MonotonicInstant, reason: String) -> [LoopAction] {
        finished = true
        return []
    }

    public var isFinished: Bool { finished }

    /// CLOCK_PROCESS_CPUTIME_ID: user + system time of every thread of the process.
    static func processCPUNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
