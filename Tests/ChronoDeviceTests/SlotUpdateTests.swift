import ChronoCommandLine
import ChronoCore
import ChronoStore
import ChronoTesting
import Foundation
import GRDB
import Synchronization
import Testing
@testable import ChronoDevice

/// The steps of an update of the card against a stand-in for RAUC and systemd: what is recorded at
/// each step, what is refused before anything is written, and what a boot makes of it.
@Suite("An update of the card, step by step", .serialized)
struct SlotUpdateTests {
    /// RAUC and systemd as a test sets them up; every call is written down.
    final class StandInSystem: UpdateSystem, @unchecked Sendable {
        let calls = Mutex<[String]>([])
        var bundleJSON = #"{"compatible":"chronoception-raspi-arm64","version":"0.2.0","hooks":[],"images":[]}"#
        var describeFailure: String?
        var installFailure: String?
        var active = true
        func note(_ call: String) { calls.withLock { $0.append(call) } }
        func compatible() throws(CommandFailure) -> String { "chronoception-raspi-arm64" }
        func describe(_ bundle: String) throws(CommandFailure) -> String {
            note("describe")
            if let describeFailure { throw CommandFailure(message: describeFailure) }
            return bundleJSON
        }
        func install(_ bundle: String, progress: @escaping @Sendable (Int) -> Void) throws(CommandFailure) {
            note("install")
            for percent in [0, 2, 20, 40, 41, 80, 100] { progress(percent) }
            if let installFailure { throw CommandFailure(message: installFailure) }
        }
        func markGood() throws(CommandFailure) { note("mark-good") }
        func markOtherBad() throws(CommandFailure) { note("mark-bad other") }
        func reboot(tryboot: Bool) throws(CommandFailure) { note(tryboot ? "reboot tryboot" : "reboot") }
        func serviceIsActive() -> Bool { active }
        var recorded: [String] { calls.withLock { $0 } }
    }

    /// What the update said, line by line.
    final class Said: Sendable {
        let lines = Mutex<[String]>([])
        var last: String? { lines.withLock { $0.last } }
    }

    static let clock = WallTime(unixNanoseconds: 1_796_000_000_000_000_000, utcOffsetSeconds: 0)

    /// An update on a card booted from `booted`, running 0.1.0, whose device answers `device`, on a
    /// virtual clock that pauses advance and each question to the device takes `probeSeconds` of.
    static func update(_ system: StandInSystem, _ scratch: ScratchStore, booted: BootSlot? = .a, running: String = "0.1.0",
                       device: DeviceProbe? = nil, said: Said = Said(), probeSeconds: Double = 0,
                       uptime: UptimeBox = UptimeBox()) -> SlotUpdate {
        let shown = Mutex(device)
        let file = UpdateRecordFile(directory: scratch.directory)
        return SlotUpdate(
            system: system, store: StoreLocation(directory: scratch.directory), booted: booted, running: ReleaseVersion(running)!,
            now: { clock },
            probe: {
                // The device takes the record in as the daemon's watcher would.
                uptime.advance(probeSeconds)
                return shown.withLock { probe in
                    guard var probe else { return nil }
                    probe.updatePhase = file.read().record?.phase.rawValue
                    return probe
                }
            },
            say: { line in said.lines.withLock { $0.append(line) } }, pause: { uptime.advance($0) }, uptime: { uptime.now })
    }

    /// The virtual CLOCK_MONOTONIC of `update`, shared with the test that made it.
    final class UptimeBox: Sendable {
        let seconds = Mutex(0.0)
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
        var now: Double { seconds.withLock { $0 } }
    }

    /// What `GET /device` says of an idle device (the API's own name, `Idle`).
    static let idle = DeviceProbe(state: DeviceState.Name.idle.rawValue, sessionInProgress: false, updatePhase: nil)

    @Test("a good bundle: checked, written with its progress recorded, named for one trial boot, then the restart")
    func install() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let system = StandInSystem()
        let said = Said()
        try Self.update(system, scratch, device: Self.idle, said: said).install(bundle: "/data/b.raucb", allowDowngrade: false, restart: true)
        #expect(system.recorded == ["describe", "install", "reboot tryboot"])
        #expect(said.lines.withLock { $0 }.contains("Installing 0.2.0 into slot B (0.1.0 keeps running on slot A until the restart)…"))
        #expect(said.lines.withLock { $0 }.contains("Installed 0.2.0 into slot B."))
        let record = try #require(UpdateRecordFile(directory: scratch.directory).read().record)
        #expect(record == UpdateRecord(phase: .installed, fromVersion: ReleaseVersion("0.1.0")!, toVersion: ReleaseVersion("0.2.0")!, fromSlot: .a, started: Self.clock))
    }

    @Test("a bundle signed with another key, an older one and one for another card are refused before anything is written")
    func refusedBeforeWriting() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let foreign = StandInSystem()
        foreign.describeFailure = "rauc info exited with status 1: signature verification failed: certificate verify failed."
        #expect(throws: CommandFailure.self) { try Self.update(foreign, scratch).install(bundle: "/b", allowDowngrade: false, restart: true) }
        #expect(foreign.recorded == ["describe"])
        let older = StandInSystem()
        do {
            try Self.update(older, scratch, running: "0.3.0").install(bundle: "/b", allowDowngrade: false, restart: true)
            Issue.record("an older bundle was installed")
        } catch let failure as CommandFailure {
            #expect(failure.description == "The bundle holds 0.2.0, older than the running 0.3.0. To go back on purpose, add --allow-downgrade.")
        }
        let other = StandInSystem()
        other.bundleJSON = #"{"compatible":"someone-else","version":"0.2.0"}"#
        #expect(throws: CommandFailure.self) { try Self.update(other, scratch).install(bundle: "/b", allowDowngrade: true, restart: true) }
        #expect(older.recorded + other.recorded == ["describe", "describe"])
        #expect(UpdateRecordFile(directory: scratch.directory).read() == .none)
    }

    @Test("no install during a session, and none off a two-slot card")
    func notDuringASession() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let system = StandInSystem()
        let busy = DeviceProbe(state: "running", sessionInProgress: true, updatePhase: nil)
        #expect(throws: CommandFailure.self) { try Self.update(system, scratch, device: busy).install(bundle: "/b", allowDowngrade: false, restart: true) }
        #expect(throws: CommandFailure.self) { try Self.update(system, scratch, booted: nil).install(bundle: "/b", allowDowngrade: false, restart: true) }
        #expect(!system.recorded.contains("install"))
        #expect(UpdateRecordFile(directory: scratch.directory).read() == .none)
    }

    @Test("RAUC failing mid-install: recorded as failed in its words, no restart, sessions free again")
    func installFails() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let system = StandInSystem()
        system.installFailure = "rauc install exited with status 1: Failed writing slot: No space left on device."
        #expect(throws: CommandFailure.self) { try Self.update(system, scratch, device: Self.idle).install(bundle: "/b", allowDowngrade: false, restart: true) }
        #expect(system.recorded == ["describe", "install"])
        let record = try #require(UpdateRecordFile(directory: scratch.directory).read().record)
        #expect(record.phase == .failed)
        #expect(record.reason == "rauc install exited with status 1: Failed writing slot: No space left on device.")
        #expect(record.sessionRefusal == nil)
    }

    @Test("the trial boot keeps a copy of the store; once the device is idle the slot is marked good and the record says so")
    func trialAndConfirmation() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        try scratch.addSessions(2)
        let file = UpdateRecordFile(directory: scratch.directory)
        try file.write(UpdateRecord(phase: .installed, fromVersion: ReleaseVersion("0.1.0")!, toVersion: ReleaseVersion("0.2.0")!, fromSlot: .a, started: Self.clock))
        let system = StandInSystem()
        let onB = Self.update(system, scratch, booted: .b, running: "0.2.0", device: Self.idle)
        #expect(try onB.boot()?.phase == .trying)
        #expect(FileManager.default.fileExists(atPath: scratch.directory + "/" + StoreRollbackCopy.copyFileName))
        try onB.confirm(within: 30)
        #expect(system.recorded == ["mark-good"])
        #expect(file.read().record?.phase == .confirmed)
        #expect(file.read().record?.line(running: ReleaseVersion("0.2.0")!) == "Updated to 0.2.0.")
    }

    @Test("a new slot that never comes up is abandoned: a plain restart, so config.txt boots the old slot")
    func confirmationTimesOut() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let file = UpdateRecordFile(directory: scratch.directory)
        try file.write(UpdateRecord(phase: .trying, fromVersion: ReleaseVersion("0.1.0")!, toVersion: ReleaseVersion("0.2.0")!, fromSlot: .a, started: Self.clock))
        let system = StandInSystem()
        system.active = false
        try Self.update(system, scratch, booted: .b, running: "0.2.0", device: nil).confirm(within: 30)
        #expect(system.recorded == ["reboot"])
        #expect(file.read().record?.phase == .trying)
    }

    @Test("the bound is time on the monotonic clock, not a count of tries: tries of 4 s each still end at 30 s")
    func confirmationBoundIsTime() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let file = UpdateRecordFile(directory: scratch.directory)
        try file.write(UpdateRecord(phase: .trying, fromVersion: ReleaseVersion("0.1.0")!, toVersion: ReleaseVersion("0.2.0")!, fromSlot: .a, started: Self.clock))
        let system = StandInSystem()
        let starting = DeviceProbe(state: DeviceState.Name.configuring.rawValue, sessionInProgress: false, updatePhase: nil)
        let uptime = UptimeBox()
        uptime.advance(1_000)
        try Self.update(system, scratch, booted: .b, running: "0.2.0", device: starting, probeSeconds: 4, uptime: uptime).confirm(within: 30)
        #expect(system.recorded == ["reboot"])
        // Six tries of 4 s and their 1 s pauses: the seventh would begin past the bound.
        #expect(uptime.now == 1_030)
    }

    @Test("after a rollback the other slot is marked bad, and a store the new version migrated is put back, the changed one kept aside")
    func rollbackPutsTheStoreBack() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        try scratch.addSessions(3)
        let location = StoreLocation(directory: scratch.directory)
        try StoreRollbackCopy.take(location)
        // What 0.2.0 would have done: a migration 0.1.0 does not know.
        let queue = try DatabaseQueue(path: location.databasePath)
        try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
        try queue.close()
        let file = UpdateRecordFile(directory: scratch.directory)
        try file.write(UpdateRecord(phase: .trying, fromVersion: ReleaseVersion("0.1.0")!, toVersion: ReleaseVersion("0.2.0")!, fromSlot: .a, started: Self.clock))
        let system = StandInSystem()
        let said = Said()
        let back = try Self.update(system, scratch, booted: .a, said: said).boot()
        #expect(back?.phase == .rolledBack)
        #expect(system.recorded == ["mark-bad other"])
        #expect(FileManager.default.fileExists(atPath: scratch.directory + "/chronoception-from-0.2.0.sqlite"))
        #expect(try StoreRollbackCopy.restoreIfNewer(location, newVersion: "0.2.0") == nil)
        let reopened = try ChronoStore.open(location)
        #expect(try reopened.sessionPage(SessionQuery(limit: 10)).sessions.count == 3)
        #expect(said.last == "The update to 0.2.0 did not start and was rolled back; 0.1.0 is running.")
    }

    @Test("a rollback with a store the old version can open keeps that store as it is")
    func rollbackKeepsAnOpenableStore() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        try scratch.addSessions(1)
        let location = StoreLocation(directory: scratch.directory)
        try StoreRollbackCopy.take(location)
        try scratch.addSessions(1)
        #expect(try StoreRollbackCopy.restoreIfNewer(location, newVersion: "0.2.0") == nil)
        #expect(try scratch.store.sessionPage(SessionQuery(limit: 10)).sessions.count == 2)
    }
}
