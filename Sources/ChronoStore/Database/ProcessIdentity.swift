import Glibc

/// Who wrote a `running` session row: the boot, the process id and the process's start time. A running
/// row is turned into `interrupted` only when its writer is gone — another boot, or no live process with
/// that id and start time — so `chronoception progress` run beside the daemon never cuts off the
/// daemon's own session. The start time guards against a recycled process id.
public struct ProcessIdentity: Hashable, Sendable {
    public var bootID: String
    public var pid: Int32
    /// Field 22 of `/proc/PID/stat`: clock ticks after boot when the process started.
    public var startTicks: Int64

    public init(bootID: String, pid: Int32, startTicks: Int64) {
        self.bootID = bootID
        self.pid = pid
        self.startTicks = startTicks
    }

    /// This process, read from /proc once (the store touches it as it opens): a session's start and
    /// finish then open no file for it, so a peer holding the descriptors (docs/API.md, the threat
    /// model) cannot make a row's writer `unknown-boot` with start ticks 0.
    public static let current: ProcessIdentity = {
        let pid = getpid()
        return ProcessIdentity(bootID: currentBootID, pid: pid, startTicks: startTicks(of: pid) ?? 0)
    }()

    /// This boot's id, read once.
    public static let currentBootID: String = (readSmallFile("/proc/sys/kernel/random/boot_id") ?? "unknown-boot").trimmingNewlines

    /// Whether the process that wrote a row is still running. A zombie (killed, not yet reaped by
    /// its parent) still has a `/proc/PID/stat` with the same start time, but it writes nothing more:
    /// it counts as gone. (A process that holds the data directory's lock needs no pid at all:
    /// `ChronoStore.writerIsAlive`.)
    public static func isAlive(_ writer: ProcessIdentity) -> Bool {
        guard writer.bootID == currentBootID else { return false }
        guard let process = status(of: writer.pid), !process.ended else { return false }
        return process.startTicks == writer.startTicks
    }

    /// Whether a process with this id exists and has not ended (a zombie has ended): what a reader
    /// of a file stamped with a pid (the state file) asks.
    public static func isRunning(pid: Int32) -> Bool {
        guard pid > 0, let process = status(of: pid) else { return false }
        return !process.ended
    }

    static func startTicks(of pid: Int32) -> Int64? { status(of: pid)?.startTicks }

    /// Fields 3 (state) and 22 (start time) of `/proc/PID/stat`.
    static func status(of pid: Int32) -> (ended: Bool, startTicks: Int64)? {
        guard pid > 0, let stat = readSmallFile("/proc/\(pid)/stat") else { return nil }
        // The command name (field 2) is in parentheses and may contain spaces: count after the last ')'.
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After ')' come field 3 (state) onwards, so field 22 is at offset 19.
        guard fields.count > 19, let ticks = Int64(fields[19]) else { return nil }
        // Z: a zombie; X: dead (seen for an instant while it is reaped).
        return (fields[0] == "Z" || fields[0] == "X", ticks)
    }

    static func readSmallFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 4096) }
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count), as: UTF8.self)
    }
}

extension String {
    var trimmingNewlines: String {
        var text = Substring(self)
        while let last = text.last, last == "\n" || last == "\r" || last == " " { text.removeLast() }
        return String(text)
    }
}
