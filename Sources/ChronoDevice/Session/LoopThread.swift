import ChronoRuntime
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Runs a `SessionLoop` on its own thread — the loop thread, which may become SCHED_FIFO — and waits
/// for it. The main thread does nothing meanwhile; it only keeps the process alive.
enum LoopThread {
    static func run(_ loop: SessionLoop) throws -> SessionLoop.Report {
        let box = LoopBox(loop: loop)
        let result = Mutex<Result<SessionLoop.Report, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let outcome = Result { try box.loop.run() }
            result.withLock { $0 = outcome }
            done.signal()
        }
        thread.name = "chronoception loop"
        thread.stackSize = 1 << 20
        thread.start()
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// The exit status for how the loop ended: 0, or 128 + the signal like a shell expects.
    static func exitStatus(for ending: SessionLoop.Ending) -> Int32 {
        switch ending {
        case .finished, .stopped: return 0
        case .signal(let number): return 128 + number
        }
    }
}

/// The loop is handed to its thread once and used only there.
private struct LoopBox: @unchecked Sendable {
    let loop: SessionLoop
}
