import ChronoTesting
import ChronoCore
@testable import ChronoStore
import ChronoSync
import Foundation
import GRDB
import Testing

/// The device's sync tables: the outbox and its cursor, the enrolment, the preference stamps.
@Suite("Sync: the device's store")
struct SyncStoreTests {
    /// A completed Challenge session whose wall-clock start is `minutes` after the sample anchor.
    static func finish(_ id: String, minutes: Int64 = 0, status: SessionStatus = .completed) -> SessionFinishRecord {
        var record = Sample.finish(id, Sample.attempts(.challenge, [61.5, 58.25], status: status))
        record.anchor = WallClockAnchor(unixNanoseconds: Sample.anchor.unixNanoseconds + minutes * 60_000_000_000,
                                        monotonic: Sample.anchor.monotonic, utcOffsetSeconds: Sample.anchor.utcOffsetSeconds)
        return record
    }

    static let enrolment = SyncEnrolment(collectorURL: "http://127.0.0.1:9", deviceKey: "secret", collectorID: "c1",
                                         deviceName: "p1", enrolledUnixNanoseconds: Sample.now)

    @Test("the device's UUID is made once and survives reopening")
    func deviceID() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let first = try ChronoStore.openForTest(directory).syncDeviceID()
        #expect(UUID(uuidString: first) != nil)
        #expect(try ChronoStore.openForTest(directory).syncDeviceID() == first)
    }

    @Test("every finished session enters the outbox with its status and reason, saved, recovered or imported; a running one never does")
    func everyFinishedSession() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.recordSessionFinished(Self.finish(sid("A")), nowUnixNanoseconds: Sample.now)
        try store.recordSessionFinished(Self.finish(sid("B"), status: .aborted), nowUnixNanoseconds: Sample.now)
        try store.recordSessionFinished(Self.finish(sid("C"), status: .interrupted), nowUnixNanoseconds: Sample.now)
        // A session left running by a process that is gone becomes interrupted, and is numbered then.
        try store.recordSessionStarted(SessionStartRecord(sessionID: sid("D"), configuration: Sample.attempts(.challenge, [60]).configuration,
                                                          anchor: Sample.anchor, board: "pi4b", soundAudible: true),
                                       writer: ProcessIdentity(bootID: "gone", pid: 1, startTicks: 1))
        #expect(try store.syncOutboxBatch().sessions.map(\.id) == [sid("A"), sid("B"), sid("C")])
        _ = try store.recoverInterruptedSessions(nowUnixNanoseconds: Sample.now)
        try store.importFinishedSessions([Self.finish(sid("E"), minutes: 5), Self.finish(sid("F"), minutes: 6, status: .aborted)], nowUnixNanoseconds: Sample.now)
        // Saving the same session again numbers it once.
        try store.recordSessionFinished(Self.finish(sid("A")), nowUnixNanoseconds: Sample.now)
        let batch = try store.syncOutboxBatch()
        #expect(batch.sessions.map(\.id) == [sid("A"), sid("B"), sid("C"), sid("D"), sid("E"), sid("F")])
        #expect(batch.sessions.map(\.status) == ["completed", "aborted", "interrupted", "interrupted", "completed", "aborted"])
        #expect(batch.sessions.map(\.healthDecision) == ["record", "skip", "skip", "skip", "record", "skip"])
        #expect(batch.sessions[3].reason == "The program stopped before the session ended (crash, power loss or kill).")
        #expect(try store.syncState().pending == 6)
    }

    @Test("a store from before unfinished sessions synced numbers its aborted and interrupted ones after the rest, once")
    func unfinishedBackfill() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let store = try ChronoStore.openForTest(directory)
            try store.recordSessionFinished(Self.finish(sid("done"), minutes: 10), nowUnixNanoseconds: Sample.now)
            try store.recordSessionFinished(Self.finish(sid("abort"), minutes: 20, status: .aborted), nowUnixNanoseconds: Sample.now)
            try store.recordSessionFinished(Self.finish(sid("cut"), minutes: 5, status: .interrupted), nowUnixNanoseconds: Sample.now)
            // Back to the outbox as the previous version kept it: completed sessions only, one acknowledged.
            try store.write { db in
                try db.execute(sql: "DELETE FROM sync_outbox WHERE session_id IN (?, ?)", arguments: [sid("abort"), sid("cut")])
                try db.execute(sql: "UPDATE sync_device SET cursor = (SELECT MAX(position) FROM sync_outbox)")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [SyncUnfinishedSchema.migrationIdentifier])
            }
        }
        let store = try ChronoStore.openForTest(directory)
        #expect(try store.syncOutboxBatch().sessions.map(\.id) == [sid("cut"), sid("abort")])
        #expect(try store.syncState().pending == 2)
        #expect(try store.integrityCheck() == ["ok"])
    }

    @Test("a store from before sync gets its completed sessions backfilled in start order")
    func backfill() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let store = try ChronoStore.openForTest(directory)
            // Saved out of start order; one aborted.
            try store.recordSessionFinished(Self.finish(sid("late"), minutes: 30), nowUnixNanoseconds: Sample.now)
            try store.recordSessionFinished(Self.finish(sid("early"), minutes: 10), nowUnixNanoseconds: Sample.now)
            try store.recordSessionFinished(Self.finish(sid("abort"), minutes: 20, status: .aborted), nowUnixNanoseconds: Sample.now)
            try store.setSetting(.defaultAttempts, to: "7", nowUnixSeconds: 1)
            try store.setSetting(.healthLogFile, to: "/tmp/h.jsonl", nowUnixSeconds: 1)
            // Back to the schema before sync: its tables and its migration's record gone.
            try store.write { db in
                for table in ["sync_device", "sync_outbox", "sync_enrolment", "sync_status", "sync_preference"] {
                    try db.execute(sql: "DROP TABLE \(table)")
                }
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [SyncSchema.migrationIdentifier])
            }
        }
        let store = try ChronoStore.openForTest(directory)
        #expect(try store.syncOutboxBatch().sessions.map(\.id) == [sid("early"), sid("late")])
        // Settings changed before sync are the device's, at clock 1; local-only ones are never stamped.
        #expect(try store.syncPreferences() == [StampedPreference(key: "default-attempts", value: "7", clock: 1, origin: .device)])
        #expect(try store.integrityCheck() == ["ok"])
    }

    @Test("batches follow the cursor; an acknowledgement moves it forward only, never past the outbox")
    func cursor() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.importFinishedSessions((0..<5).map { Self.finish(sid("S\($0)"), minutes: Int64($0)) }, nowUnixNanoseconds: Sample.now)
        let first = try store.syncOutboxBatch(limit: 2)
        #expect(first.after == 0 && first.through == 2 && first.sessions.map(\.id) == [sid("S0"), sid("S1")])
        // Not acknowledged: the same batch again.
        #expect(try store.syncOutboxBatch(limit: 2) == first)
        try store.recordSyncSuccess(acknowledgedThrough: 2, preferences: [], nowUnixNanoseconds: Sample.now)
        let second = try store.syncOutboxBatch(limit: 2)
        #expect(second.after == 2 && second.through == 4 && second.sessions.map(\.id) == [sid("S2"), sid("S3")])
        // A late, older acknowledgement does not move it back; one past the outbox is clamped.
        try store.recordSyncSuccess(acknowledgedThrough: 1, preferences: [], nowUnixNanoseconds: Sample.now)
        #expect(try store.syncState().cursor == 2)
        try store.recordSyncSuccess(acknowledgedThrough: 99, preferences: [], nowUnixNanoseconds: Sample.now)
        #expect(try store.syncState().cursor == 5)
        #expect(try store.syncState().pending == 0)
        let empty = try store.syncOutboxBatch()
        #expect(empty.after == 5 && empty.through == 5 && empty.sessions.isEmpty)
    }

    @Test("the wire form carries the stored measurements and passes the collector's validation")
    func wireForm() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        let id = "0F2B6C1E-5D7A-4C3B-9E8F-1A2B3C4D5E6F"
        try store.recordSessionFinished(Self.finish(id), nowUnixNanoseconds: Sample.now)
        var passive = Sample.finish("1F2B6C1E-5D7A-4C3B-9E8F-1A2B3C4D5E6F", Sample.passive(planned: 3, done: 3))
        passive.soundAudibleAtStart = false
        try store.recordSessionFinished(passive, nowUnixNanoseconds: Sample.now)
        let sessions = try store.syncOutboxBatch().sessions
        #expect(sessions.count == 2)
        let challenge = try #require(sessions.first { $0.id == id })
        #expect(challenge.attempts.map(\.tapMonotonicNanoseconds) == Self.finish(id).outcome.attempts.map(\.tapMark.nanoseconds))
        #expect(try challenge.validatedOutcome().attempts == Self.finish(id).outcome.attempts)
        let boundaries = try #require(sessions.first { $0.mode == "passive" })
        #expect(boundaries.boundaries.map(\.firedMonotonicNanoseconds) == passive.boundariesFired.map(\.nanoseconds))
        #expect(!boundaries.soundAudibleAtStart)
    }

    @Test("delete-all empties the outbox and the stamps, keeps the device, enrolment, cursor and clock; new sessions number after")
    func deleteAll() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.saveSyncEnrolment(Self.enrolment)
        let device = try store.syncDeviceID()
        try store.importFinishedSessions((0..<3).map { Self.finish(sid("S\($0)"), minutes: Int64($0)) }, nowUnixNanoseconds: Sample.now)
        try store.recordSyncSuccess(acknowledgedThrough: 2, preferences: [], nowUnixNanoseconds: Sample.now)
        try store.setSetting(.defaultAttempts, to: "4", nowUnixSeconds: 1)
        try store.setSetting(.defaultAttempts, to: "5", nowUnixSeconds: 2)
        _ = try store.deleteAllLocalData()
        #expect(try store.syncState().pending == 0)
        #expect(try store.syncPreferences().isEmpty)
        #expect(try store.syncDeviceID() == device)
        #expect(try store.syncEnrolment() == Self.enrolment)
        #expect(try store.syncState().cursor == 2)
        try store.recordSessionFinished(Self.finish(sid("after")), nowUnixNanoseconds: Sample.now)
        let batch = try store.syncOutboxBatch()
        #expect(batch.after == 2 && batch.through == 4 && batch.sessions.map(\.id) == [sid("after")])
        // The Lamport clock does not go back: the next change is newer than anything sent before.
        try store.setSetting(.defaultAttempts, to: "6", nowUnixSeconds: 3)
        #expect(try store.syncPreferences().map(\.clock) == [3])
    }

    @Test("a local change stamps the next clock, origin device; local-only settings are not stamped")
    func stamping() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.setSetting(.defaultInterval, to: "90", nowUnixSeconds: 1)
        try store.setSetting(.healthLogFile, to: "/tmp/x.jsonl", nowUnixSeconds: 1)
        try store.setSetting(.fearMode, to: "on", nowUnixSeconds: 1)
        try store.setSetting(.defaultMode, to: "fear", nowUnixSeconds: 1)
        // Turning Fear Mode off also changes default-mode: both stamped by the same change.
        try store.setSetting(.fearMode, to: "off", nowUnixSeconds: 1)
        let stamps = try store.syncPreferences()
        #expect(stamps == [
            StampedPreference(key: "default-interval", value: try store.settings()[.defaultInterval], clock: 1, origin: .device),
            StampedPreference(key: "default-mode", value: "challenge", clock: 4, origin: .device),
            StampedPreference(key: "fear-mode", value: "off", clock: 4, origin: .device),
        ])
    }

    @Test("the collector's winners are applied through validation; losers and refused values are not")
    func applying() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.setSetting(.defaultAttempts, to: "4", nowUnixSeconds: 1)      // clock 1
        try store.setSetting(.defaultRepetitions, to: "6", nowUnixSeconds: 1)   // clock 2
        let result = try store.recordSyncSuccess(acknowledgedThrough: 0, preferences: [
            StampedPreference(key: "default-attempts", value: "9", clock: 1, origin: .collector),   // tie: collector wins
            StampedPreference(key: "default-repetitions", value: "3", clock: 1, origin: .collector), // older: loses
            StampedPreference(key: "long-press-ms", value: "50", clock: 5, origin: .collector),       // refused by validation
            StampedPreference(key: "default-mode", value: "fear", clock: 6, origin: .collector),      // needs fear-mode…
            StampedPreference(key: "fear-mode", value: "on", clock: 6, origin: .collector),           // …applied first
            StampedPreference(key: "health-log-file", value: "/elsewhere", clock: 9, origin: .collector), // local-only
        ], nowUnixNanoseconds: Sample.now)
        #expect(result.applied == ["fear-mode = on", "default-attempts = 9", "default-mode = fear"])
        #expect(result.refused.count == 1 && result.refused[0].contains("long-press-ms"))
        let settings = try store.settings()
        #expect(settings.session.defaultAttempts == 9)
        #expect(settings[.defaultRepetitions] == "6")
        #expect(settings[.longPressMilliseconds] == String(GestureSettings.defaultLongPress.milliseconds))
        #expect(settings[.healthLogFile] != "/elsewhere")
        #expect(try store.syncState().preferenceProblem?.contains("long-press-ms") == true)
        // Every clock received counts as seen: the next local change is above 6, so it wins.
        try store.setSetting(.defaultAttempts, to: "2", nowUnixSeconds: 2)
        #expect(try store.syncPreferences().first { $0.key == "default-attempts" } == StampedPreference(key: "default-attempts", value: "2", clock: 7, origin: .device))
    }

    @Test("one collector at a time; removing it resets the cursor so a new one gets everything")
    func enrolment() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.saveSyncEnrolment(Self.enrolment)
        #expect(throws: StoreError.self) { try store.saveSyncEnrolment(Self.enrolment) }
        try store.importFinishedSessions([Self.finish(sid("A"))], nowUnixNanoseconds: Sample.now)
        try store.recordSyncSuccess(acknowledgedThrough: 1, preferences: [], nowUnixNanoseconds: Sample.now)
        #expect(try store.syncState().pending == 0)
        try store.recordSyncFailure(code: "no_route", message: "x", nowUnixNanoseconds: Sample.now)
        try store.recordSyncFailure(code: "no_route", message: "y", nowUnixNanoseconds: Sample.now)
        #expect(try store.syncState().consecutiveFailures == 2)
        #expect(try store.removeSyncEnrolment() == Self.enrolment)
        #expect(try store.syncEnrolment() == nil)
        let state = try store.syncState()
        #expect(state.pending == 1 && state.consecutiveFailures == 0)
    }
}
