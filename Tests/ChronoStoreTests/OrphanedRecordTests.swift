import ChronoTesting
import ChronoCore
import Foundation
@testable import ChronoStore
import Testing

/// A process that dies between a session's commit and its health-log append leaves the ledger line
/// `owed`/`pending`; the next session command or daemon writes it at its start, exactly once.
@Suite("Records owed by a process that died are written at the next start")
struct OrphanedRecordTests {
    static let dead = ProcessIdentity(bootID: "an-old-boot", pid: 1, startTicks: 1)

    /// A completed session saved by `writer`, then put back as a crash would have left it: ledger
    /// `pending`, and the log line removed unless `appended`.
    func crashedSession(_ store: ChronoStore, writer: ProcessIdentity, appended: Bool) throws {
        let outcome = Sample.attempts(.challenge, [60.5])
        try store.recordSessionStarted(SessionStartRecord(sessionID: sid("S1"), configuration: outcome.configuration, anchor: Sample.anchor,
                                                          board: "pi4b", soundAudible: true, wallClockSynchronised: true),
                                       writer: writer)
        try store.recordSessionFinished(Sample.finish(sid("S1"), outcome), writer: writer, nowUnixNanoseconds: Sample.now)
        #expect(try healthLogLines(store).count == 1)
        if !appended { try Data().write(to: URL(fileURLWithPath: try store.settings().healthLogPath)) }
        try store.write { db in try store.setLedger(db, sessionID: sid("S1"), state: .owed, code: "pending", reason: "Being written.", now: Sample.now) }
    }

    @Test("Died before the append: the record is written once")
    func beforeAppend() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try crashedSession(store, writer: Self.dead, appended: false)
        #expect(try healthLogLines(store).isEmpty)
        #expect(try store.deliverOrphanedRecords(nowUnixNanoseconds: Sample.now) == 1)
        #expect(try store.deliverOrphanedRecords(nowUnixNanoseconds: Sample.now) == 0)
        #expect(try healthLogLines(store).count == 1)
        #expect(try store.session(id: sid("S1")).healthLedger?.state == .written)
    }

    @Test("Died after the append, before the ledger: no duplicate, the ledger catches up")
    func afterAppend() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try crashedSession(store, writer: Self.dead, appended: true)
        #expect(try store.deliverOrphanedRecords(nowUnixNanoseconds: Sample.now) == 0)
        #expect(try healthLogLines(store).count == 1)
        #expect(try store.session(id: sid("S1")).healthLedger?.state == .written)
    }

    @Test("A record a live process is still writing is left to it")
    func liveWriter() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try crashedSession(store, writer: .current, appended: false)
        #expect(try store.deliverOrphanedRecords(nowUnixNanoseconds: Sample.now) == 0)
        #expect(try healthLogLines(store).isEmpty)
        #expect(try store.session(id: sid("S1")).healthLedger?.reasonCode == "pending")
    }
}
