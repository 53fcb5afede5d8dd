import CLinuxSystem
#if canImport(Glibc)
import Glibc
#endif

/// Puts the calling thread (the loop) on `SCHED_FIFO` and locks the process's memory, when permitted.
///
/// Why: with both cores busy, only a real-time thread with no page faults kept its wake-up p99 near
/// cyclictest's (issue 3). Why it may be refused: an unprivileged user needs `RLIMIT_RTPRIO` (or
/// CAP_SYS_NICE) for the policy and `RLIMIT_MEMLOCK` (or CAP_IPC_LOCK) for the lock. Either refusal is
/// reported once, in one line that says how to grant it, and the loop carries on without.
public enum RealtimeScheduling {
    /// The priority of the loop thread: above the kernel's threaded interrupt handlers (50) on a
    /// PREEMPT_RT kernel is not a concern for a thread that sleeps almost all the time, and 80 is what
    /// the benchmark gives cyclictest too, so the two are compared under the same policy.
    public static let defaultPriority: Int32 = 80

    /// What was granted.
    public struct Outcome: Sendable, Equatable {
        public var fifo: Bool
        public var memoryLocked: Bool
        public var priority: Int32
        /// Why a part was refused (empty when everything was granted).
        public var refusals: [String]

        /// One line for the console: what runs how, and how to grant what was refused.
        public var line: String {
            if refusals.isEmpty {
                return "Real-time: SCHED_FIFO priority \(priority), memory locked."
            }
            var parts: [String] = []
            parts.append(fifo ? "SCHED_FIFO priority \(priority)" : "normal scheduling")
            parts.append(memoryLocked ? "memory locked" : "memory not locked")
            return "Real-time: running with \(parts.joined(separator: ", ")) (\(refusals.joined(separator: "; "))). "
                + "Timing may slip under load; to grant it run as the chronoception service (LimitRTPRIO=80, LimitMEMLOCK=infinity) "
                + "or add '@chronoception - rtprio 80' and '@chronoception - memlock unlimited' to /etc/security/limits.d/chronoception.conf."
        }
    }

    /// Tries both; `lockMemory` false skips `mlockall` (for tests that run many loops in one process).
    public static func apply(priority: Int32 = defaultPriority, lockMemory: Bool = true) -> Outcome {
        var refusals: [String] = []
        var parameters = sched_param()
        parameters.sched_priority = priority
        let fifoResult = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
        if fifoResult != 0 {
            refusals.append("SCHED_FIFO refused: \(String(cString: strerror(fifoResult)))")
        }
        var locked = false
        if lockMemory {
            // MCL_ONFAULT: lock each page once touched instead of faulting in every mapping up front, so
            // what stays locked is the loop's working set, not the whole static Foundation and ICU data
            // (issue 10: 295 MB locked before, on a 512 MB Zero 2 W). Before it, the executable's code
            // and read-only data touched only to start (argument parsing, migrations, the board file,
            // the servers' setup) leave the page tables; they stay in the page cache, so whatever runs
            // again comes back with a minor fault, and only that is locked.
            _ = chrono_unmap_executable_readonly_pages()
            if mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT) == 0 {
                locked = true
            } else {
                refusals.append("mlockall refused: \(String(cString: strerror(errno)))")
            }
        }
        return Outcome(fifo: fifoResult == 0, memoryLocked: locked, priority: priority, refusals: refusals)
    }

    /// Back to normal scheduling (after the session, before slow clean-up work on the same thread).
    public static func leave() {
        var parameters = sched_param()
        parameters.sched_priority = 0
        _ = pthread_setschedparam(pthread_self(), SCHED_OTHER, &parameters)
    }
}
