import Testing
import ChronoCore
@testable import ChronoSimulation

@Suite("Replay: edge files in, JSON out")
struct ReplayTests {
    let anchor = WallClockAnchor(unixNanoseconds: 1_795_417_200_000_000_000, monotonic: .zero, utcOffsetSeconds: 3600)

    func replay(_ text: String, _ configuration: SessionConfiguration, soundAudible: Bool = true) throws -> JSONValue {
        let script = try ReplayScript.parse(text)
        let transcript = VirtualClock.run(configuration: configuration, soundAudible: soundAudible, inputs: script.events)
        return ReplayReport.build(transcript: transcript, configuration: configuration, soundAudible: soundAudible,
                                  anchor: anchor, sessionID: "ID", device: "desktop")
    }

    @Test("parses every event kind, comments and blank lines")
    func parses() throws {
        let script = try ReplayScript.parse("""
        # a comment
        press 5

        release 10  # trailing comment
        sound-lost 20
        sound-restored 25
        end 30
        """)
        #expect(script.events == [
            .button(RawButtonEdge(pressed: true, at: MonotonicInstant(nanoseconds: 5))),
            .button(RawButtonEdge(pressed: false, at: MonotonicInstant(nanoseconds: 10))),
            .soundLost(at: MonotonicInstant(nanoseconds: 20)),
            .soundRestored(at: MonotonicInstant(nanoseconds: 25)),
            .endRequested(at: MonotonicInstant(nanoseconds: 30)),
        ])
    }

    @Test("refuses bad lines with the line number and the fix")
    func refuses() {
        #expect(throws: ReplayScriptError.malformed(source: "f", line: 2, text: "prss 5")) {
            try ReplayScript.parse("press 1\nprss 5", source: "f")
        }
        #expect(throws: ReplayScriptError.outOfOrder(source: "f", line: 2, value: 5, previous: 9)) {
            try ReplayScript.parse("press 9\nrelease 5", source: "f")
        }
        #expect(throws: ReplayScriptError.negative(source: "f", line: 1, value: -1)) {
            try ReplayScript.parse("press -1", source: "f")
        }
        #expect(ReplayScriptError.malformed(source: "f", line: 2, text: "x").description.hasPrefix("f line 2: 'x' is not an event."))
    }

    @Test("a completed Challenge: attempts, summary, record and timeline")
    func challenge() throws {
        let configuration = try SessionConfiguration(mode: .challenge, interval: TrainingInterval(seconds: 60))
        let report = try replay("""
        press 1000000000
        release 1003000000
        press 1006000000
        release 1150000000
        press 64000000000
        release 64100000000
        """, configuration)
        #expect(report["status"] == .string("completed"))
        guard case .array(let attempts) = report["attempts"] else { Issue.record("no attempts"); return }
        #expect(attempts.count == 1)
        #expect(attempts[0]["start_mark_ns"] == .int(1_000_000_000))
        #expect(attempts[0]["tap_mark_ns"] == .int(64_000_000_000))
        #expect(attempts[0]["signed_error_seconds"] == .double(3))
        #expect(attempts[0]["zone"] == .string("yellow"))
        #expect(attempts[0]["feedback"] == .string("Late by 3s · yellow"))
        #expect(report["summary"]?["time_acuity_score"] == .int(90))
        #expect(report["health_record"]?["startDate"] == .string("2026-11-23T08:00:01.000+01:00"))
        #expect(report["health_record"]?["endDate"] == .string("2026-11-23T08:01:04.000+01:00"))
        guard case .array(let timeline) = report["timeline"] else { Issue.record("no timeline"); return }
        let kinds = timeline.compactMap { entry -> String? in if case .string(let kind) = entry["effect"] { return kind } else { return nil } }
        #expect(kinds.filter { $0 == "motor_on" }.count == 3 + 2 + 3 + 2)  // ready t t t, start t t, feedback B t t, done B B
        #expect(kinds.contains("feedback"))
    }

    @Test("a Fear session with sound lost reports fear_sound_effective false")
    func fearSoundLost() throws {
        let configuration = try SessionConfiguration(mode: .fear, interval: TrainingInterval(seconds: 10), plannedCount: 2)
        let report = try replay("""
        press 1000000000
        release 1100000000
        press 13000000000
        release 13100000000
        sound-lost 14000000000
        press 20000000000
        release 20100000000
        press 25000000000
        release 25100000000
        """, configuration)
        #expect(report["status"] == .string("completed"))
        #expect(report["summary"]?["fear_sound_effective"] == .bool(false))
        guard case .array(let timeline) = report["timeline"] else { Issue.record("no timeline"); return }
        let sounds = timeline.filter { $0["effect"] == .string("aversive_sound") }
        #expect(sounds.count == 1)  // attempt 1 (20 % late); attempt 2 (50 % early) came after the loss
    }

    @Test("an unfinished session is incomplete and gets no record")
    func incomplete() throws {
        let configuration = try SessionConfiguration(mode: .challenge, interval: TrainingInterval(seconds: 60), plannedCount: 3)
        let report = try replay("press 1000000000\nrelease 1100000000\n", configuration)
        #expect(report["status"] == .string("incomplete"))
        #expect(report["health_record"] == .null)
    }

    @Test("Passive without input runs to its last boundary; `end` ends it early")
    func passive() throws {
        let configuration = try SessionConfiguration(mode: .passive, interval: TrainingInterval(seconds: 60), plannedCount: 3)
        let full = try replay("", configuration)
        #expect(full["status"] == .string("completed"))
        #expect(full["summary"]?["total_duration_seconds"] == .int(180))
        let early = try replay("end 130000000000", configuration)
        #expect(early["status"] == .string("completed"))
        #expect(early["summary"]?["repetition_count"] == .int(2))
        #expect(early["summary"]?["total_duration_seconds"] == .int(130))
        let none = try replay("end 30000000000", configuration)
        #expect(none["status"] == .string("aborted"))
        #expect(none["health_record"] == .null)
    }
}
