import Testing
@testable import ChronoCore

@Suite("Health records (SPEC §4)")
struct HealthRecordTests {
    let at = SessionScript.at
    /// 2026-11-23T08:00:00+01:00 at monotonic 0.
    let anchor = WallClockAnchor(unixNanoseconds: 1_795_417_200_000_000_000, monotonic: .zero, utcOffsetSeconds: 3600)

    // 0.05 and 0.1 average to 0.07500000000000001 in binary floating point; stored values keep full precision.
    @Test("a Challenge record, exactly")
    func challengeRecord() throws {
        var script = SessionScript()
        script.tap(2); script.tap(65)        // +3 s
        script.tap(70); script.tap(124)      // −6 s
        var engine = SessionEngine(configuration: configuration(.challenge, seconds: 60, count: 2), startedAt: .zero, soundAudible: true)
        _ = drive(&engine, script.events)
        let outcome = try #require(engine.outcome)
        let record = try #require(HealthRecordBuilder.decide(for: outcome, sessionID: "6F1C9A4E-0000-4000-8000-000000000001", device: "raspberry-pi-4b", anchor: anchor).record)
        #expect(record.jsonLine == """
        {"type":"HKCategoryTypeIdentifierMindfulSession","sourceName":"Chronoception","device":"raspberry-pi-4b","startDate":"2026-11-23T08:00:02.000+01:00","endDate":"2026-11-23T08:02:04.000+01:00","metadata":{"chronoception_version":1,"chronoception_mode":"challenge","target_interval_seconds":60,"attempt_count":2,"mean_abs_error_seconds":4.5,"mean_signed_error_seconds":-1.5,"std_dev_error_seconds":6.363961030678928,"mean_abs_percent_error":0.07500000000000001,"time_acuity_score":85,"HKMetadataKeySyncIdentifier":"6F1C9A4E-0000-4000-8000-000000000001","HKMetadataKeySyncVersion":1}}
        """)
    }

    @Test("a Fear record adds the threshold and the sound flag")
    func fearRecord() throws {
        var script = SessionScript()
        script.tap(1); script.tap(61)
        var engine = SessionEngine(configuration: configuration(.fear, seconds: 60), startedAt: .zero, soundAudible: false)
        _ = drive(&engine, script.events)
        let outcome = try #require(engine.outcome)
        let record = try #require(HealthRecordBuilder.decide(for: outcome, sessionID: "ID", device: "desktop", anchor: anchor).record)
        #expect(record.metadata.map(\.key) == [
            "chronoception_version", "chronoception_mode", "target_interval_seconds", "attempt_count",
            "mean_abs_error_seconds", "mean_signed_error_seconds", "std_dev_error_seconds", "mean_abs_percent_error",
            "time_acuity_score", "fear_threshold_percent", "fear_sound_effective",
            "HKMetadataKeySyncIdentifier", "HKMetadataKeySyncVersion",
        ])
        #expect(record.metadataValue("chronoception_mode") == .string("fear"))
        #expect(record.metadataValue("fear_sound_effective") == .bool(false))
    }

    @Test("a Passive record: session start to last boundary")
    func passiveRecord() throws {
        var engine = SessionEngine(configuration: configuration(.passive, seconds: 300, count: 3), startedAt: .zero, soundAudible: true)
        _ = drive(&engine, [])
        let outcome = try #require(engine.outcome)
        let record = try #require(HealthRecordBuilder.decide(for: outcome, sessionID: "ID", device: "desktop", anchor: anchor).record)
        #expect(record.startDate.iso8601 == "2026-11-23T08:00:00.000+01:00")
        #expect(record.endDate.iso8601 == "2026-11-23T08:15:00.000+01:00")
        #expect(record.metadata.map(\.key) == [
            "chronoception_version", "chronoception_mode", "target_interval_seconds", "repetition_count",
            "total_duration_seconds", "HKMetadataKeySyncIdentifier", "HKMetadataKeySyncVersion",
        ])
        #expect(record.metadataValue("total_duration_seconds") == .int(900))
        #expect(record.metadataValue("repetition_count") == .int(3))
    }

    @Test("the Apple Health export is well-formed and carries every metadata entry")
    func appleExport() throws {
        var engine = SessionEngine(configuration: configuration(.passive, seconds: 300, count: 1), startedAt: .zero, soundAudible: true)
        _ = drive(&engine, [])
        let outcome = try #require(engine.outcome)
        let record = try #require(HealthRecordBuilder.decide(for: outcome, sessionID: "ID", device: "pi & co", anchor: anchor).record)
        let xml = AppleHealthExport.document(records: [record], exportDate: record.endDate)
        #expect(xml.contains("<Record type=\"HKCategoryTypeIdentifierMindfulSession\" sourceName=\"Chronoception\" sourceVersion=\"1\" device=\"pi &amp; co\""))
        #expect(xml.contains("startDate=\"2026-11-23 08:00:00 +0100\" endDate=\"2026-11-23 08:05:00 +0100\""))
        #expect(xml.contains("<MetadataEntry key=\"total_duration_seconds\" value=\"300\"/>"))
        #expect(xml.hasSuffix("</HealthData>\n"))
    }

    @Test("JSON escapes control characters and quotes")
    func jsonEscaping() {
        #expect(JSONValue.string("a\"b\\c\n\u{1}").compactText == "\"a\\\"b\\\\c\\n\\u0001\"")
        #expect(JSONValue.object([("x", .double(0.1)), ("y", .double(3)), ("z", .array([]))]).compactText == "{\"x\":0.1,\"y\":3.0,\"z\":[]}")
    }
}
