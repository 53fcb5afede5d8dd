import Foundation

extension ChronoStore {
    /// Whether the process that wrote a `running` row (or owes its health record) may still finish
    /// it. This process is. When this process holds the data directory's lock (`DataDirectoryLock`:
    /// every process that writes sessions live takes it), nobody else writes sessions here, so every
    /// other writer is gone, zombie or not: the restart after a `kill -9` marks the row at once.
    /// Otherwise the writer's boot, pid and start time decide (`ProcessIdentity.isAlive`, a zombie
    /// counting as gone).
    func writerIsAlive(_ writer: ProcessIdentity) -> Bool {
        if writer.pid == getpid(), writer == ProcessIdentity.current { return true }
        if DataDirectoryLock.isHeldByThisProcess(directory: location.directory) { return false }
        return ProcessIdentity.isAlive(writer)
    }
}
