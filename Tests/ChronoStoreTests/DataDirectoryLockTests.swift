import ChronoCore
@testable import ChronoStore
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// One owner of a data directory: the lock refuses a second holder and names it, the kernel frees it
/// the moment its holder dies (SIGKILL included), and a zombie writer counts as gone.
@Suite struct DataDirectoryLockTests {
    @Test func aSecondHolderIsRefusedWithTheHoldersPidAndCommand() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let location = StoreLocation(directory: directory.path)
        let first = try DataDirectoryLock.acquire(in: location, command: "chronoception run --board desktop")
        defer { first.release() }
        #expect(DataDirectoryLock.isHeldByThisProcess(directory: directory.path))
        do {
            _ = try DataDirectoryLock.acquire(in: location, command: "chronoception challenge", attempts: 2)
            Issue.record("a second lock on the same directory was granted")
        } catch {
            guard case .held(let held, let holder) = error else { Issue.record("wrong refusal: \(error)"); return }
            #expect(held == directory.path)
            #expect(holder == DataDirectoryLock.Holder(pid: getpid(), command: "chronoception run --board desktop"))
            #expect(holder.isDaemon)
            #expect(error.description.contains("pid \(getpid())"))
            #expect(error.description.contains("chronoception start"))
        }
        var info = stat()
        #expect(stat(directory.path + "/" + DataDirectoryLock.fileName, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    @Test func releasedLockCanBeTakenAgain() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let location = StoreLocation(directory: directory.path)
        try DataDirectoryLock.acquire(in: location, command: "chronoception passive").release()
        #expect(!DataDirectoryLock.isHeldByThisProcess(directory: directory.path))
        let again = try DataDirectoryLock.acquire(in: location, command: "chronoception passive", attempts: 1)
        again.release()
    }

    /// A child holds the lock (flock(1), the same flock(2)); SIGKILL, and the lock is free at once.
    @Test func theLockIsFreeTheMomentItsHolderIsKilled() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let location = StoreLocation(directory: directory.path)
        let lockPath = directory.path + "/" + DataDirectoryLock.fileName
        let child = try spawn(["/usr/bin/flock", "--exclusive", "--no-fork", lockPath, "/bin/sleep", "60"])
        defer { kill(child, SIGKILL); var status: Int32 = 0; waitpid(child, &status, 0) }
        // Wait until the child holds it.
        var heldByChild = false
        for _ in 0..<400 {
            do {
                try DataDirectoryLock.acquire(in: location, command: "probe", attempts: 1).release()
                usleep(5000)
            } catch {
                heldByChild = true
                break
            }
        }
        #expect(heldByChild)
        // --no-fork: flock(1) becomes sleep, the one holder.
        kill(child, SIGKILL)
        var status: Int32 = 0
        waitpid(child, &status, 0)
        let start = ContinuousClock.now
        let lock = try DataDirectoryLock.acquire(in: location, command: "chronoception run", attempts: 40)
        lock.release()
        #expect(ContinuousClock.now - start < .milliseconds(200))
    }

    /// A killed child its parent has not reaped yet is a zombie: /proc/PID/stat is still there with
    /// the same start time, but it writes nothing more.
    @Test func aZombieWriterIsGone() throws {
        let child = try spawn(["/bin/sleep", "60"])
        var reaped = false
        defer { if !reaped { kill(child, SIGKILL); var status: Int32 = 0; waitpid(child, &status, 0) } }
        let ticks = try #require(ProcessIdentity.startTicks(of: child))
        let writer = ProcessIdentity(bootID: ProcessIdentity.currentBootID, pid: child, startTicks: ticks)
        #expect(ProcessIdentity.isAlive(writer))
        #expect(ProcessIdentity.isRunning(pid: child))
        kill(child, SIGKILL)
        // Until the kernel has made it a zombie.
        for _ in 0..<200 where ProcessIdentity.status(of: child)?.ended != true { usleep(5000) }
        #expect(ProcessIdentity.status(of: child)?.ended == true)
        #expect(ProcessIdentity.startTicks(of: child) == ticks)  // still there, same start time
        #expect(!ProcessIdentity.isAlive(writer))
        #expect(!ProcessIdentity.isRunning(pid: child))
        var status: Int32 = 0
        waitpid(child, &status, 0)
        reaped = true
    }

    /// A process that holds the lock takes every `running` row of another writer as interrupted,
    /// even one whose pid still runs (it cannot be writing here).
    @Test func theLockHolderMarksEveryOtherWritersRunningRow() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let location = StoreLocation(directory: directory.path)
        let store = try ChronoStore.open(location)
        let parent = ProcessIdentity(bootID: ProcessIdentity.currentBootID, pid: getppid(),
                                     startTicks: ProcessIdentity.startTicks(of: getppid()) ?? 0)
        #expect(store.writerIsAlive(parent))
        let lock = try DataDirectoryLock.acquire(in: location, command: "chronoception run")
        defer { lock.release() }
        #expect(!store.writerIsAlive(parent))
        #expect(store.writerIsAlive(.current))
    }

    @Test func theHolderTextIsReadAsHostileInput() {
        #expect(DataDirectoryLock.parseHolder("pid 12\ncommand chronoception run\n") == .init(pid: 12, command: "chronoception run"))
        #expect(DataDirectoryLock.parseHolder("pid -4\n").pid == nil)
        #expect(DataDirectoryLock.parseHolder("pid 99999999999999\n").pid == nil)
        #expect(DataDirectoryLock.parseHolder("").pid == nil)
        #expect(DataDirectoryLock.parseHolder("command " + String(repeating: "x", count: 5000)).command?.count == 300)
    }

    private func spawn(_ argv: [String]) throws -> pid_t {
        var pid: pid_t = 0
        var arguments = argv.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        let result = posix_spawn(&pid, argv[0], nil, nil, &arguments, environ)
        try #require(result == 0, "posix_spawn \(argv[0]): \(result)")
        return pid
    }
}
