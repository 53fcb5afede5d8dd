import ChronoHardware
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where lines for the person go: standard output, or the desktop terminal (which also shows the
/// motor's pulses and so must keep lines and pulses apart). Called on the writer thread.
public protocol LineOutput: AnyObject, Sendable {
    func writeLine(_ line: String)
}

/// Lines nobody reads: for loops that only measure (the timing benchmark, the loopback self-test),
/// whose report comes after the loop.
public final class DiscardedLines: LineOutput {
    public init() {}
    public func writeLine(_ line: String) {}
}

/// Lines to standard output, flushed one by one (a pipe or a journal sees each line as it happens).
/// A failed write never stops a session (Foundation's `FileHandle.write` would trap on a full disk);
/// the first failure is kept in `ConsoleWriteFailure` for the command to report when it ends.
public final class StandardOutputLines: LineOutput {
    public init() {}

    public func writeLine(_ line: String) {
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 {
                ConsoleWriteFailure.record(errno: written < 0 ? errno : EIO)
                return
            }
            offset += written
        }
    }
}

/// Where the loop hands what it does not do itself. All are used from the writer thread.
public struct LoopSinks: Sendable {
    public var console: LineOutput
    /// nil: no state file.
    public var stateFile: StateFile?
    /// nil: sessions are not kept.
    public var recorder: SessionRecorder?
    /// nil: no subscribers (state changes, feedback, finished sessions; see `DaemonHandle`).
    public var events: DeviceEventHub?

    public init(console: LineOutput, stateFile: StateFile?, recorder: SessionRecorder?, events: DeviceEventHub? = nil) {
        self.console = console
        self.stateFile = stateFile
        self.recorder = recorder
        self.events = events
    }
}
