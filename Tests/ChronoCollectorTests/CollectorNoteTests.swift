import ChronoCollector
import ChronoCore
import ChronoStore
import ChronoSync
import Foundation
import Testing

/// A person's note (issue 22) on a collector: stored as sent, NULL from older devices; a session sent
/// again by its own device with another note updates the note and nothing else; a refused note
/// refuses the batch with the rule session_note; the collector's CSV ends with it.
@Suite("Collector keeps a session's note")
struct CollectorNoteTests {
    typealias F = CollectorFixtures

    @Test(arguments: StoreKind.available)
    func noteIsStoredAndAnEditUpdatesOnlyIt(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await F.enrol(store)
            var noted = F.challenge()
            noted.note = "after coffee"
            let older = F.passive()
            let first = try await store.ingest(try IngestPlan.validate(F.batch([noted, older])), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            #expect(first.accepted == 2 && first.duplicates == 0)
            var stored = try await store.sessions(CollectorSessionQuery(device: F.deviceID))
            #expect(stored.first { $0.session.id == noted.id }?.session == noted)
            #expect(stored.first { $0.session.id == older.id }?.session.note == nil)

            // The device edits the note and re-sends the session; a forged change to any other field
            // in the same re-send is ignored: the stored measurements stay as first received.
            var edited = noted
            edited.note = "tired, after coffee"
            edited.board = "another-board"
            edited.healthDecision = "skip"
            edited.healthSkipReason = "forged"
            var noteForOlder = older
            noteForOlder.note = "=1+2"
            let again = try await store.ingest(try IngestPlan.validate(F.batch([edited, noteForOlder], after: 2)), deviceID: F.deviceID,
                                               nowUnixNanoseconds: F.now + 1)
            #expect(again.accepted == 0 && again.duplicates == 2)
            stored = try await store.sessions(CollectorSessionQuery(device: F.deviceID))
            var expected = noted
            expected.note = "tired, after coffee"
            #expect(stored.first { $0.session.id == noted.id }?.session == expected)
            #expect(stored.first { $0.session.id == noted.id }?.receivedUnixNanoseconds == F.now)
            #expect(stored.first { $0.session.id == older.id }?.session.note == "=1+2")

            // Cleared on the device: sent without a note, the collector's note goes too.
            var cleared = noted
            cleared.note = nil
            _ = try await store.ingest(try IngestPlan.validate(F.batch([cleared], after: 4)), deviceID: F.deviceID, nowUnixNanoseconds: F.now + 2)
            #expect(try await store.sessions(CollectorSessionQuery(device: F.deviceID)).first { $0.session.id == noted.id }?.session == noted.withNote(nil))

            // The same session id from another device (imported on two devices) never changes the note.
            _ = try await F.enrol(store, name: "P002", participant: "P002", device: F.otherDeviceID)
            let copy = noted.withNote("the other device's words")
            let fromOther = try await store.ingest(try IngestPlan.validate(F.batch([copy], device: F.otherDeviceID)), deviceID: F.otherDeviceID,
                                                   nowUnixNanoseconds: F.now + 3)
            #expect(fromOther.accepted == 0 && fromOther.duplicates == 1)
            #expect(try await store.sessions(CollectorSessionQuery()).first { $0.session.id == noted.id }?.session.note == nil)

            // The device's progress report lists it with its session, as the device's own does.
            let progress = CollectorProgress.report(try await store.sessions(CollectorSessionQuery(device: F.deviceID)), nowUnixNanoseconds: F.now,
                                                    utcOffsetSeconds: 0)
            #expect(progress.recentSessions.first { $0.sessionID == older.id }?.note == "=1+2")

            // The note, then the columns added since; a formula is neutralised.
            var csv = ""
            CollectorCSV.write(try await store.sessions(CollectorSessionQuery()), to: { csv += $0 })
            let lines = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(lines[0].hasSuffix(",timing_late_ms,note,presented_start_mono_ns,presented_end_mono_ns,feedback_withheld,results_withheld,reason"))
            #expect(lines[0] == CollectorCSV.columns.joined(separator: ","))
            let olderRows = lines.filter { $0.contains(older.id) }
            #expect(olderRows.count == 3 && olderRows.allSatisfy { $0.hasSuffix(",,\"'=1+2\",,,,,") })
        }
    }

    @Test(arguments: StoreKind.available)
    func aRefusedNoteRefusesTheBatch(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await F.enrol(store)
            for (note, problem) in [
                (String(repeating: "x", count: 201), "The note is 201 characters long; a note holds at most 200. Shorten it."),
                ("two\nlines", "The note holds a line break; write it on one line with ordinary characters."),
                (" padded", "the note has surrounding whitespace or is empty; send it trimmed, or leave it out for no note"),
                ("", "the note has surrounding whitespace or is empty; send it trimmed, or leave it out for no note"),
            ] {
                let session = F.challenge().withNote(note)
                do {
                    _ = try IngestPlan.validate(F.batch([session]))
                    Issue.record("note \(note.debugDescription) was accepted")
                } catch let error as CollectorError {
                    guard case .invalidBatch(let message) = error else { Issue.record("\(error)"); continue }
                    #expect(message == "session \(session.id) breaks rule session_note: \(problem)")
                }
            }
            #expect(try await store.sessions(CollectorSessionQuery()).isEmpty)
        }
    }

    @Test func schemaVersionThreeAddsTheNote() {
        // Later versions append after it (4: the study tag's columns).
        #expect(CollectorSchema.version >= 3)
        #expect(CollectorSchema.sessionColumns.map(\.name).firstIndex(of: "note") == 31)
        #expect(CollectorSchema.migrations[2].sqlite == ["ALTER TABLE session ADD COLUMN note TEXT"])
        #expect(CollectorSchema.migrations[2].postgres == ["ALTER TABLE session ADD COLUMN note TEXT"])
        #expect(CollectorCSV.columns.suffix(6).first == "note")
    }
}

extension SyncedSession {
    func withNote(_ note: String?) -> SyncedSession {
        var copy = self
        copy.note = note
        return copy
    }
}
