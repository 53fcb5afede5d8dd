import ChronoCollector
import ChronoCore
import ChronoSync
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Protocols and assignments on both stores (docs/STUDIES.md), and the assignment in the sync reply.
@Suite("Collector studies")
struct CollectorStudyTests {
    typealias F = CollectorFixtures

    static func example() throws -> String {
        try String(contentsOfFile: StudyProtocolPath.example, encoding: .utf8)
    }

    /// The example under another version, its sessions unchanged.
    static func version(_ number: Int, of text: String) -> String {
        text.replacingOccurrences(of: "\"version\": 1,", with: "\"version\": \(number),")
    }

    static func load(_ store: any CollectorStore, _ text: String, at now: Int64 = F.now) async throws -> StudyProtocolLoad {
        let parsed = try StudyProtocol.parse(text)
        return try await store.loadStudyProtocol(name: parsed.name, version: parsed.version, document: text,
                                                 fingerprint: parsed.fingerprint, nowUnixNanoseconds: now)
    }

    static func assign(_ store: any CollectorStore, _ participant: String, _ name: String = "sleep-2026", version: Int? = nil,
                       seed: Int64 = 42, start: Int64 = F.now) async throws -> (record: StudyAssignmentRecord, change: StudyAssignChange) {
        try await store.assignStudy(StudyAssignRequest(participant: participant, protocolName: name, protocolVersion: version, seed: seed,
                                                       startUnixNanoseconds: start), nowUnixNanoseconds: F.now + 1)
    }

    static func refusal(_ body: () async throws -> Void) async -> String? {
        do { try await body(); return nil } catch let error as CollectorError {
            guard case .invalidValue(let message) = error else { return "other: \(error)" }
            return message
        } catch { return "other: \(error)" }
    }

    @Test(arguments: StoreKind.available)
    func aNameAndVersionKeepTheirFirstContent(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let text = try Self.example()
            #expect(try await Self.load(store, text) == .added)
            #expect(try await Self.load(store, text, at: F.now + 5) == .unchanged(loadedUnixNanoseconds: F.now))
            // Reformatted, same meaning: unchanged, and the first document is the one kept.
            let compact = try StudyProtocol.parse(text).canonicalJSON.prettyText
            #expect(try await Self.load(store, compact) == .unchanged(loadedUnixNanoseconds: F.now))
            // Other content under the same name and version: refused, nothing changes.
            let changed = text.replacingOccurrences(of: "\"minimum_gap_minutes\": 180", with: "\"minimum_gap_minutes\": 120")
            #expect(try await Self.load(store, changed, at: F.now + 6) == .conflict(loadedUnixNanoseconds: F.now))
            #expect(try await Self.load(store, Self.version(2, of: changed), at: F.now + 7) == .added)
            let held = try await store.studyProtocols()
            #expect(held.map { "\($0.name)@\($0.version)" } == ["sleep-2026@1", "sleep-2026@2"])
            let fingerprint = try StudyProtocol.parse(text).fingerprint
            #expect(held[0].document == text && held[0].loadedUnixNanoseconds == F.now && held[0].fingerprint == fingerprint)
            #expect(held[1].loadedUnixNanoseconds == F.now + 7 && held.map(\.activeAssignments) == [0, 0])
        }
    }

    @Test(arguments: StoreKind.available)
    func assignmentsIndexUnassignAndRestore(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let text = try Self.example()
            _ = try await Self.load(store, text)
            _ = try await Self.load(store, Self.version(2, of: text))
            // No version: the highest loaded. Each protocol numbers its own participants from 0.
            let first = try await Self.assign(store, "P001", seed: 7, start: F.now - 3_600_000_000_000)
            #expect(first.change == .assigned)
            #expect(first.record == StudyAssignmentRecord(participant: "P001", protocolName: "sleep-2026", protocolVersion: 2, participantIndex: 0,
                                                          seed: 7, startUnixNanoseconds: F.now - 3_600_000_000_000,
                                                          assignedUnixNanoseconds: F.now + 1, unassignedUnixNanoseconds: nil))
            #expect(try await Self.assign(store, "P002", version: 1).record.participantIndex == 0)
            #expect(try await Self.assign(store, "P003", version: 2).record.participantIndex == 1)
            // Again the same: unchanged. Another protocol while one is active: refused with the fix.
            let again = try await Self.assign(store, "P001", version: 2, seed: 99)
            #expect(again.change == .unchanged && again.record.seed == 7)
            #expect(await Self.refusal { _ = try await Self.assign(store, "P001", version: 1) }
                == "Participant 'P001' is assigned sleep-2026@2 already; a participant follows one protocol at a time. Unassign it first: `chronoception-collector protocol unassign --participant P001`.")
            #expect(await Self.refusal { _ = try await Self.assign(store, "P009", "sleep-2027") }
                == "No protocol sleep-2027 is loaded (loaded: sleep-2026@1, sleep-2026@2). Load it first: `chronoception-collector protocol load FILE`.")
            #expect(await Self.refusal { _ = try await Self.assign(store, "P009", version: 3) }
                == "No protocol sleep-2026@3 is loaded (loaded: sleep-2026@1, sleep-2026@2). Load it first: `chronoception-collector protocol load FILE`.")

            let ended = try await store.unassignStudy(participant: "P001", nowUnixNanoseconds: F.now + 10)
            #expect(ended.unassignedUnixNanoseconds == F.now + 10 && ended.participantIndex == 0)
            #expect(await Self.refusal { _ = try await store.unassignStudy(participant: "P001", nowUnixNanoseconds: F.now + 11) }
                == "Participant 'P001' has no protocol assigned (`chronoception-collector protocol status` lists the assignments).")
            // A new participant takes the next index (P001's is not reused); P001 back gets its own plan again.
            #expect(try await Self.assign(store, "P004", version: 2).record.participantIndex == 2)
            let restored = try await Self.assign(store, "P001", version: 2, seed: 1234, start: F.now)
            #expect(restored.change == .restored)
            #expect(restored.record == first.record)
            // Now P001 may move to version 1 only after unassigning, and gets that protocol's next index.
            _ = try await store.unassignStudy(participant: "P001", nowUnixNanoseconds: F.now + 12)
            #expect(try await Self.assign(store, "P001", version: 1).record.participantIndex == 1)
            #expect(try await store.studyProtocols().map(\.activeAssignments) == [2, 2])
        }
    }

    @Test(arguments: StoreKind.available)
    func studyTagsAreStoredAndTheStatusCountsThem(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await F.enrol(store)
            #expect(try await store.studyAssignment(deviceID: F.deviceID) == nil)
            let text = try Self.example()
            _ = try await Self.load(store, text)
            // Day 0 began 30 hours before `now`: day 1 is under way.
            let start = F.now - 30 * 3_600_000_000_000
            let record = try await Self.assign(store, "P001", seed: 42, start: start).record
            let wire = try #require(try await store.studyAssignment(deviceID: F.deviceID.uppercased()))
            #expect(wire == SyncedStudyAssignment(protocolName: "sleep-2026", protocolVersion: 1, document: text, participant: "P001",
                                                  participantIndex: 0, startUnixNanoseconds: start, seed: 42))
            let assignment = try wire.validated()
            let plan = assignment.plan
            // Positions 0 and 1 (day 0) done, with their tags.
            var sessions: [SyncedSession] = []
            for position in 0..<2 {
                var session = F.challenge(startedAgo: Int64(29 - position * 4) * 3_600_000_000_000)
                session.study = plan.tag(for: plan.sessions[position])
                sessions.append(session)
            }
            let untagged = F.challenge(startedAgo: 3_600_000_000_000)
            let receipt = try await store.ingest(try IngestPlan.validate(F.batch(sessions + [untagged])), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            #expect(receipt.accepted == 3)
            let stored = try await store.sessions(CollectorSessionQuery(device: F.deviceID))
            #expect(stored.first { $0.session.id == sessions[0].id }?.session == sessions[0])
            #expect(stored.first { $0.session.id == sessions[1].id }?.session.study == plan.tag(for: plan.sessions[1]))
            #expect(stored.first { $0.session.id == untagged.id }?.session.study == nil)

            let rows = try await store.studyStatus(nowUnixNanoseconds: F.now)
            #expect(rows.count == 1 && rows[0].assignment == record && rows[0].total == 28)
            let status = try #require(rows[0].status)
            #expect((status.done, status.missed, status.due, status.upcoming) == (2, 0, 2, 24))
            #expect(status.day == 1 && status.next == 2 && status.nextDueUnixNanoseconds == start + 86_400_000_000_000)
            // Unassigned: the reply carries no study any more; the sessions and their tags stay.
            _ = try await store.unassignStudy(participant: "P001", nowUnixNanoseconds: F.now + 1)
            #expect(try await store.studyAssignment(deviceID: F.deviceID) == nil)
            #expect(try await store.studyStatus(nowUnixNanoseconds: F.now).isEmpty)
            #expect(try await store.sessions(CollectorSessionQuery(device: F.deviceID)).compactMap(\.session.study).count == 2)
        }
    }

    @Test(arguments: StoreKind.available)
    func theSyncReplyCarriesTheParticipantsAssignment(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let code = try await SyncRouteTests.makeCode(store)
            try await SyncRouteTests.withClient(store) { client in
                let enrolled = try await SyncRouteTests.post(client, SyncProtocol.enrolPath, json: F.request(code: code))
                let key = try JSONDecoder().decode(EnrolmentGrant.self, from: Data(enrolled.text.utf8)).key
                // Nothing assigned: no "study" member at all.
                var answer = try await SyncRouteTests.post(client, SyncProtocol.batchesPath, json: F.batch([]), key: key)
                #expect(answer.status == .ok && answer.json["study"] == nil)

                let text = try Self.example()
                _ = try await Self.load(store, text)
                _ = try await Self.assign(store, "P001", seed: 42, start: F.now)
                var session = F.challenge()
                let plan = try StudyAssignment(studyProtocol: StudyProtocol.parse(text), participant: "P001", participantIndex: 0, seed: 42,
                                               startUnixNanoseconds: F.now).plan
                session.study = plan.tag(for: plan.sessions[0])
                answer = try await SyncRouteTests.post(client, SyncProtocol.batchesPath, json: F.batch([session]), key: key)
                #expect(answer.status == .ok)
                let study = try #require(answer.json["study"] as? [String: Any])
                #expect(study.keys.sorted() == ["document", "participant", "participant_index", "protocol_name", "protocol_version", "seed", "start_unix_ns"])
                #expect(study["document"] as? String == text && study["protocol_name"] as? String == "sleep-2026")
                #expect(study["start_unix_ns"] as? Int64 == F.now && study["seed"] as? Int == 42 && study["participant_index"] as? Int == 0)
                let receipt = try JSONDecoder().decode(SyncReceipt.self, from: Data(answer.text.utf8))
                #expect(receipt.accepted == 1 && receipt.study?.participant == "P001")
                #expect(try receipt.study?.validated().plan == plan)
                // The tag went over the wire as its own object and is stored.
                #expect(try await store.sessions(CollectorSessionQuery()).first?.session.study == plan.tag(for: plan.sessions[0]))

                _ = try await store.unassignStudy(participant: "P001", nowUnixNanoseconds: F.now + 1)
                answer = try await SyncRouteTests.post(client, SyncProtocol.batchesPath, json: F.batch([], after: 1), key: key)
                #expect(answer.status == .ok && answer.json["study"] == nil)
            }
        }
    }

    @Test("a batch with a study tag outside the core's bounds is refused naming rule session_study")
    func badTagRefusesTheBatch() throws {
        var session = F.challenge()
        session.study = StudyTag(protocolName: "sleep 2026", protocolVersion: 1, participant: "P001", blockIndex: 0,
                                                     blockName: "pre", planPosition: 0, condition: "c", feedbackShown: true)
        do {
            _ = try IngestPlan.validate(F.batch([session]))
            Issue.record("accepted")
        } catch {
            #expect(error.description.hasSuffix("breaks rule session_study: the study tag's protocol name 'sleep 2026' is not a name: use 1 to 64 letters, digits, '-', '_' or '.', e.g. sleep-2026"))
        }
    }

    @Test("schema version 4 appends the study tag's columns after the note, and the two study tables")
    func schemaVersionFour() {
        #expect(CollectorSchema.migrations.count >= 4)
        #expect(CollectorSchema.sessionColumns.map(\.name).suffix(from: 31).prefix(9) == [
            "note", "study_protocol", "study_protocol_version", "study_participant", "study_block_index", "study_block",
            "study_plan_position", "study_condition", "study_feedback_shown",
        ])
        #expect(CollectorSchema.migrations[3].sqlite.prefix(2) == [
            "ALTER TABLE session ADD COLUMN study_protocol TEXT", "ALTER TABLE session ADD COLUMN study_protocol_version INTEGER",
        ])
        #expect(CollectorSchema.migrations[3].postgres[1] == "ALTER TABLE session ADD COLUMN study_protocol_version BIGINT")
        #expect(CollectorSchema.migrations[3].postgres[7] == "ALTER TABLE session ADD COLUMN study_feedback_shown BOOLEAN")
        #expect(CollectorSchema.migrations[3].sqlite.count == 12 && CollectorSchema.migrations[3].postgres.count == 12)
    }

    @Test("day 1 starts at local midnight: of --start's date, or of today; the offset taken at that midnight")
    func startOfTheStudy() throws {
        // Berlin: summer time (UTC+2) from 2026-03-29 01:00 UTC to 2026-10-25 01:00 UTC, else UTC+1.
        let berlin: (Int64) -> Int = { (1_774_746_000..<1_792_890_000).contains($0) ? 7_200 : 3_600 }
        let midnight: Int64 = 1_795_737_600 * 1_000_000_000  // 2026-11-27 00:00 UTC
        #expect(try CollectorStudyText.start(date: "2026-11-27", nowUnixNanoseconds: 0, utcOffsetSeconds: berlin) == midnight - 3_600_000_000_000)
        #expect(try CollectorStudyText.start(date: "2026-07-01", nowUnixNanoseconds: 0, utcOffsetSeconds: berlin)
            == CalendarDay(parsing: "2026-07-01")!.unixNanoseconds() - 7_200_000_000_000)
        // 23:30 UTC on the 26th is already the 27th in Berlin.
        #expect(try CollectorStudyText.start(date: nil, nowUnixNanoseconds: midnight - 1_800_000_000_000, utcOffsetSeconds: berlin)
            == midnight - 3_600_000_000_000)
        #expect(try CollectorStudyText.start(date: nil, nowUnixNanoseconds: midnight + 5, utcOffsetSeconds: { _ in -18_000 })
            == midnight - 86_400_000_000_000 + 18_000_000_000_000)
        #expect(throws: CollectorError.invalidValue("--start takes a date as YYYY-MM-DD, e.g. 2026-11-27 (day 1 of the study begins at 00:00 there); got '27/11/2026'.")) {
            _ = try CollectorStudyText.start(date: "27/11/2026", nowUnixNanoseconds: 0, utcOffsetSeconds: { _ in 0 })
        }
        #expect(CollectorStudyText.utc(midnight + 9 * 3_600_000_000_000 + 5 * 60_000_000_000) == "2026-11-27 09:05 UTC")
    }

    @Test("an SQLite collector of schema version 3 opens with the current schema: its sessions kept, untagged")
    func versionThreeUpgrades() async throws {
        var template = Array("/tmp/chrono-collector-v3-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var store = try SQLiteCollectorStore.open(directory: directory)
        _ = try await F.enrol(store)
        let session = F.challenge()
        _ = try await store.ingest(try IngestPlan.validate(F.batch([session])), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
        await store.close()
        // The same rows in a database made by versions 1–3 only (as a collector of version 3 left it).
        let old = directory + "/old"
        try FileManager.default.createDirectory(atPath: old, withIntermediateDirectories: true)
        let statements = CollectorSchema.migrations.prefix(3).flatMap(\.sqlite)
            + ["CREATE TABLE schema_version (version INTEGER NOT NULL)", "INSERT INTO schema_version (version) VALUES (3)"]
        let sessionColumns = CollectorSchema.sessionColumns.prefix(32).map(\.name).joined(separator: ", ")
        let copies = ["collector_meta": "key, value",
                      "device": "id, name, participant, board, software_version, key_sha256, enrolled_ns, revoked_ns, last_seen_ns", "session": sessionColumns,
                      "attempt": "session_id, attempt_index, start_mono_ns, tap_mono_ns", "boundary": "*"]
        let program = """
            import sqlite3, sys, json
            new = sqlite3.connect(sys.argv[2])
            for statement in json.loads(sys.argv[3]): new.execute(statement)
            new.execute("ATTACH DATABASE ? AS src", (sys.argv[1],))
            for table, columns in json.loads(sys.argv[4]).items():
                names = columns if columns != "*" else "*"
                target = "" if columns == "*" else "(" + columns + ")"
                new.execute("INSERT INTO main.%s %s SELECT %s FROM src.%s" % (table, target, names, table))
            new.commit()
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", program, directory + "/" + SQLiteCollectorStore.fileName, old + "/" + SQLiteCollectorStore.fileName,
                            String(decoding: try JSONEncoder().encode(statements), as: UTF8.self),
                            String(decoding: try JSONEncoder().encode(copies), as: UTF8.self)]
        try python.run()
        python.waitUntilExit()
        #expect(python.terminationStatus == 0)
        store = try SQLiteCollectorStore.open(directory: old)
        let stored = try await store.sessions(CollectorSessionQuery())
        #expect(stored.map(\.session) == [session])
        #expect(try await Self.load(store, try Self.example()) == .added)
        await store.close()
    }

    @Test("NAME and NAME@VERSION as typed")
    func references() throws {
        #expect(try CollectorStudy.reference("sleep-2026") == ("sleep-2026", nil))
        #expect(try CollectorStudy.reference("sleep-2026@12") == ("sleep-2026", 12))
        #expect(throws: CollectorError.invalidValue("'two' is not a version: write a whole number from 1, e.g. sleep-2026@2.")) {
            _ = try CollectorStudy.reference("sleep-2026@two")
        }
        #expect(throws: CollectorError.invalidValue("'a b' is not a protocol: write NAME or NAME@VERSION, e.g. sleep-2026@2 (`chronoception-collector protocol list` shows them).")) {
            _ = try CollectorStudy.reference("a b")
        }
    }
}

/// Where the worked example lives, for the collector's tests.
enum StudyProtocolPath {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/protocols/sleep-2026.json").path
}
