#if canImport(Glibc)
import Glibc
#endif

/// The process's open-file limit (`RLIMIT_NOFILE`), which every server program raises at start:
/// the soft limit a service inherits is usually 1,024, and once connections have used it, libdispatch
/// cannot open `/proc/self/task/*/stat` and traps, and the state file cannot be written (issue 34).
/// Raised to the hard limit, which costs nothing (the kernel allocates descriptor tables as they
/// grow); the connection caps (`ConnectionLimits`) are then derived from what it became. Nothing in
/// either program uses `select(2)`, the one reason to keep the soft limit at 1,024.
public enum DescriptorLimit {
    /// What a raise did: the soft limit before and after, the hard limit, and why it failed if it did.
    public struct Raise: Hashable, Sendable {
        public var before: UInt64
        public var after: UInt64
        public var hard: UInt64
        /// The `setrlimit` error's text; nil when the soft limit is the target.
        public var failure: String?

        /// The one line a server logs at start.
        public var line: String {
            if let failure {
                return "warning: open files: the soft limit stays \(before) (the hard limit is \(Self.text(hard))): \(failure). Raise LimitNOFILE= in the unit."
            }
            if before == after { return "Open files: at most \(after) (the hard limit)." }
            return "Open files: at most \(after) (the soft limit raised from \(before) to the hard limit)."
        }

        static func text(_ value: UInt64) -> String { value == DescriptorLimit.unlimited ? "unlimited" : "\(value)" }
    }

    /// `RLIM_INFINITY` (all bits set; Swift cannot import the C macro's cast).
    public static let unlimited = UInt64(rlim_t.max)

    /// 1,048,576: the kernel's default `fs.nr_open`, the most a soft limit can be when the hard one
    /// is unlimited (asking for "unlimited" itself is refused with EPERM).
    public static let unlimitedTarget: UInt64 = 1 << 20

    /// The soft limit to ask for: the hard limit, or `unlimitedTarget` when that is unlimited; never
    /// lower than `soft` (a limit is only ever raised here).
    public static func target(soft: UInt64, hard: UInt64) -> UInt64 {
        let wanted = hard == unlimited ? unlimitedTarget : hard
        return max(soft, wanted)
    }

    /// The current soft and hard limits; (1,024, 1,024) if they cannot be read.
    public static func current() -> (soft: UInt64, hard: UInt64) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (1024, 1024) }
        return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
    }

    /// Raises the soft limit to `target(soft:hard:)` (`setrlimit(RLIMIT_NOFILE)`).
    @discardableResult
    public static func raiseToHardLimit() -> Raise {
        let (soft, hard) = current()
        let wanted = target(soft: soft, hard: hard)
        guard wanted != soft else { return Raise(before: soft, after: soft, hard: hard, failure: nil) }
        var limit = rlimit(rlim_cur: rlim_t(wanted), rlim_max: rlim_t(hard))
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 {
            let reason = String(cString: strerror(errno))
            return Raise(before: soft, after: current().soft, hard: hard, failure: reason)
        }
        return Raise(before: soft, after: current().soft, hard: hard, failure: nil)
    }
}
