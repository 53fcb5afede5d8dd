import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The desktop board's output: lines for the person and the motor's visible pulses on one terminal.
///
/// Pulses are drawn as `●` on the current line as they happen; a line written afterwards starts on a
/// fresh line, so feedback never ends up glued to a row of pulses. Writes from the loop thread (pulses)
/// and the writer thread (lines) are serialised by a lock held only for one `write(2)`; the loop thread
/// never waits for it.
public final class TerminalScreen: Sendable {
    private struct State {
        var midLine = false
    }

    private let descriptor: Int32
    private let state = Mutex(State())

    /// - Parameter descriptor: where to write; standard output by default.
    public init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
    }

    /// Writes a whole line (the terminal's output processing turns `\n` into CR LF, also in raw mode).
    public func writeLine(_ line: String) {
        state.withLock { state in
            let text = (state.midLine ? "\n" : "") + line + "\n"
            state.midLine = false
            writeAll(text)
        }
    }

    /// Ends a row of pulses, so whatever is written next (a shell prompt) starts on a fresh line.
    public func endLine() {
        state.withLock { state in
            guard state.midLine else { return }
            state.midLine = false
            writeAll("\n")
        }
    }

    /// Draws one motor pulse, with the terminal bell when asked. Called on the loop thread, so it never
    /// waits for the lock: if a line is being written at that very moment, this pulse is not drawn.
    public func pulse(bell: Bool) {
        _ = state.withLockIfAvailable { state in
            state.midLine = true
            writeAll(bell ? "●\u{7}" : "●")
        }
    }

    private func writeAll(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {  // a closed terminal or a full disk: nothing more to show
                if descriptor == STDOUT_FILENO { ConsoleWriteFailure.record(errno: written < 0 ? errno : 5) }
                return
            }
            offset += written
        }
    }
}
