import ChronoTesting
import ChronoCore
@testable import ChronoStore
import Foundation
import Testing

/// Each mode's record as it lands in the health log, checked key by key against SPEC §4.
@Suite("Health log records, key by key")
struct HealthRecordShapeTests {
    let commonKeys = ["chronoception_version", "chronoception_mode", "target_interval_seconds"]
    let syncKeys = ["HKMetadataKeySyncIdentifier", "HKMetadataKeySyncVersion"]
    let challengeKeys = ["attempt_count", "mean_abs_error_seconds", "mean_signed_error_seconds", "std_dev_error_seconds",
                         "mean_abs_percent_error", "time_acuity_score"]

    func loggedRecord(_ outcome: SessionOutcome, id: String) throws -> (record: [String: Any], metadataOrder: [String]) {
        let (record, order, _) = try loggedLine(outcome, id: id)
        return (record, order)
    }

    func loggedLine(_ outcome: SessionOutcome, id: String) throws -> (record: [String: Any], metadataOrder: [String], line: String) {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        let result = try store.recordSessionFinished(Sample.finish(id, outcome), nowUnixNanoseconds: Sample.now)
        #expect(result.health == .written)
        let lines = try healthLogLines(store)
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        // Key order as written (JSONSerialization loses it): the metadata object's keys in sequence.
        let metadataText = String(line[line.firstRange(of: "\"metadata\":{")!.upperBound...])
        let order = metadataText.split(separator: ",").compactMap { part -> String? in
            guard let quote = part.firstIndex(of: "\""), let colon = part.firstRange(of: "\":") else { return nil }
            return String(part[part.index(after: quote)..<colon.lowerBound])
        }
        return (try jsonObject(line), order, line)
    }

    func checkEnvelope(_ record: [String: Any], start: String, end: String) {
        #expect(record["type"] as? String == "HKCategoryTypeIdentifierMindfulSession")
        #expect(record["sourceName"] as? String == "Chronoception")
        #expect(record["device"] as? String == "pi4b")
        #expect(record["startDate"] as? String == start)
        #expect(record["endDate"] as? String == end)
    }

    @Test("challenge: common keys, the six metrics with their types, sync keys")
    func challenge() throws {
        let (record, order) = try loggedRecord(Sample.attempts(.challenge, [63, 57.5, 60.25]), id: sid("C-1"))
        // First start 2 s after the anchor; last tap at 2 + 63 + 5 + 57.5 + 5 + 60.25 s.
        checkEnvelope(record, start: Sample.anchor.wallTime(at: Sample.seconds(2)).iso8601,
                      end: Sample.anchor.wallTime(at: Sample.seconds(192.75)).iso8601)
        #expect((record["startDate"] as? String)?.hasSuffix(".000+01:00") == true)
        let metadata = try #require(record["metadata"] as? [String: Any])
        #expect(order == commonKeys + challengeKeys + syncKeys)
        #expect(metadata["chronoception_version"] as? Int == 1)
        #expect(metadata["chronoception_mode"] as? String == "challenge")
        #expect(metadata["target_interval_seconds"] as? Int == 60)
        #expect(metadata["attempt_count"] as? Int == 3)
        #expect(abs((metadata["mean_abs_error_seconds"] as? Double ?? -1) - (3 + 2.5 + 0.25) / 3) < 1e-9)
        #expect(abs((metadata["mean_signed_error_seconds"] as? Double ?? -1) - (3 - 2.5 + 0.25) / 3) < 1e-9)
        #expect((metadata["std_dev_error_seconds"] as? Double ?? -1) > 0)
        #expect(abs((metadata["mean_abs_percent_error"] as? Double ?? -1) - (5.75 / 3) / 60) < 1e-12)
        #expect(metadata["time_acuity_score"] as? Int == 94)
        #expect(metadata["HKMetadataKeySyncIdentifier"] as? String == sid("C-1"))
        #expect(metadata["HKMetadataKeySyncVersion"] as? Int == 1)
    }

    @Test("fear: the challenge keys plus threshold (float) and sound effective (bool)")
    func fear() throws {
        let (record, order, line) = try loggedLine(Sample.attempts(.fear, [66], soundEffective: false), id: sid("F-1"))
        #expect(line.contains("\"fear_sound_effective\":false"))
        #expect(line.contains("\"fear_threshold_percent\":0.1,"))
        let metadata = try #require(record["metadata"] as? [String: Any])
        #expect(order == commonKeys + challengeKeys + ["fear_threshold_percent", "fear_sound_effective"] + syncKeys)
        #expect(metadata["chronoception_mode"] as? String == "fear")
        #expect(metadata["fear_threshold_percent"] as? Double == 0.1)
        #expect(metadata["fear_sound_effective"] as? Bool == false)
        #expect(metadata["std_dev_error_seconds"] as? Double == 0)
        #expect(metadata["time_acuity_score"] as? Int == 80)
    }

    @Test("passive: repetitions done and total duration as integers, no error keys")
    func passive() throws {
        let (record, order) = try loggedRecord(Sample.passive(planned: 3, done: 3), id: sid("P-1"))
        checkEnvelope(record, start: Sample.anchor.wallTime(at: Sample.seconds(0)).iso8601,
                      end: Sample.anchor.wallTime(at: Sample.seconds(180)).iso8601)
        let metadata = try #require(record["metadata"] as? [String: Any])
        #expect(order == commonKeys + ["repetition_count", "total_duration_seconds"] + syncKeys)
        #expect(metadata["chronoception_mode"] as? String == "passive")
        #expect(metadata["repetition_count"] as? Int == 3)
        #expect(metadata["total_duration_seconds"] as? Int == 180)
    }

    @Test("aborted, interrupted and too-short Passive sessions get no record, only a ledger line")
    func notLogged() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        let cases: [(String, SessionOutcome)] = [
            (sid("A"), Sample.attempts(.challenge, [61], status: .aborted)),
            (sid("I"), Sample.attempts(.fear, [61], status: .interrupted)),
            (sid("P"), Sample.passive(planned: 6, done: 1, end: 70)),
        ]
        for (id, outcome) in cases {
            let result = try store.recordSessionFinished(Sample.finish(id, outcome), nowUnixNanoseconds: Sample.now)
            guard case .skipped = result.health else { Issue.record("\(id) was \(result.health)"); continue }
            #expect(try store.session(id: id).healthLedger?.state == .skipped)
        }
        #expect(try healthLogLines(store).isEmpty)
    }
}
