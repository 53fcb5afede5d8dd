import ChronoCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Writes the state file on the writer thread. A failure is said once on the console and then the
/// device carries on without the file: it is a convenience for displays, not the record.
final class StatePublisher: Sendable {
    private let file: StateFile
    private let console: LineOutput
    private let failedBefore = Mutex(false)

    init(file: StateFile, console: LineOutput) {
        self.file = file
        self.console = console
    }

    /// Writes `state`, stamped with when it is written.
    func publish(_ state: DeviceState) {
        let updated = MonotonicClock.wallClockAnchor().wallTime(at: MonotonicClock.now())
        do {
            try file.replace(with: state.published(at: updated).stateFileJSON(pid: getpid(), dataDirectory: file.dataDirectory).compactText)
        } catch {
            let first = failedBefore.withLock { failed in
                defer { failed = true }
                return !failed
            }
            if first {
                console.writeLine("The state file \(file.path) cannot be written (\(error)); going on without it.")
            }
        }
    }
}
