import ChronoCore
import ChronoStore
import ChronoSync
import ChronoTesting
import Foundation
import Testing
@testable import ChronoDevice

/// A note travels with its session, and an edit on the device reaches the collector (issue 22).
@Suite("Sync: a session's note and its edits")
struct SyncNoteTests {
    @Test("a note set before the push arrives; an edit after it is sent again and replaces it; a clear clears it")
    func noteAndEdit() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        try fixture.addSessions(3)
        let collector = FakeCollector()
        let enrolment = try await fixture.enrol(collector)
        let ids = try fixture.store.syncOutboxBatch().sessions.map(\.id)
        try fixture.store.setNote(sessionID: ids[0], note: "after coffee")
        let first = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
        #expect(first.line == "sent 3 sessions (3 new, 0 already there); 0 pending")
        #expect(collector.with { $0.sessions[ids[0]]?.note } == "after coffee")
        #expect(collector.with { $0.sessions[ids[1]]?.note } == nil)

        try fixture.store.setNote(sessionID: ids[1], note: "tired")
        try fixture.store.setNote(sessionID: ids[0], note: "after two coffees")
        #expect(try fixture.store.syncState().pending == 2)
        let edit = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
        #expect(edit.line == "sent 2 sessions (0 new, 2 already there); 0 pending")
        #expect(collector.with { $0.sessions[ids[0]]?.note } == "after two coffees")
        #expect(collector.with { $0.sessions[ids[1]]?.note } == "tired")

        try fixture.store.setNote(sessionID: ids[0], note: nil)
        _ = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
        #expect(collector.with { $0.sessions[ids[0]]?.note } == nil)
        #expect(collector.with { $0.sessions.count } == 3)
    }
}

/// The daemon's pusher does not hold an edited note for its 15-minute idle poll: the store watcher's
/// change, with the session pending again, starts a push at once; its own writes never wake it.
@Suite("Sync: the pusher sends an edited note at once")
struct SyncPusherNoteTests {
    @Test("caught up, a note edit and the watcher's change push the session again; a change with nothing new pending does not")
    func editWakesThePusher() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        try fixture.addSessions(2)
        let collector = FakeCollector()
        _ = try await fixture.enrol(collector)
        let lines = RecordingLines()
        let pusher = SyncPusher(store: fixture.store, report: { lines.writeLine($0) },
                                transport: { _ in InProcessTransport(collector: collector) })
        pusher.start()
        defer { pusher.stop() }
        #expect(await eventually { lines.all.contains("sent 2 sessions (2 new, 0 already there); 0 pending") })

        // A store change with nothing new pending (the pusher's own writes, a setting) sends nothing.
        try await Task.sleep(nanoseconds: 100_000_000)
        pusher.storeChanged()
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(lines.all.count == 1)

        let id = try #require(collector.with { $0.sessions.keys.sorted().first })
        try fixture.store.setNote(sessionID: id, note: "after coffee")
        pusher.storeChanged()
        #expect(await eventually(limit: 5) { lines.all.contains("sent 1 session (0 new, 1 already there); 0 pending") })
        #expect(collector.with { $0.sessions[id]?.note } == "after coffee")
    }
}
