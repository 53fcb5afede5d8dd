import ChronoCore
import Foundation
import Testing

/// `StudyProtocol.parse`, the one validator of a protocol document: the worked example reads to
/// exact values, defaults fill in, and every bad document is refused with its line and the fix.
@Suite("Study protocol")
struct StudyProtocolTests {
    static let examplePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/protocols/sleep-2026.json").path

    /// The problems of a refused document, one string each.
    static func problems(_ text: String) -> [String] {
        do {
            _ = try StudyProtocol.parse(text)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    /// A valid document with `block` as its only block and one session a day for `days` days.
    static func document(block: String, days: Int = 1, extra: String = "") -> String {
        """
        {
          "name": "t",
          "version": 1,\(extra)
          "schedule": { "sessions_per_day": 1, "days": \(days) },
          "blocks": [
            \(block)
          ]
        }
        """
    }

    @Test("the worked example (examples/protocols/sleep-2026.json) reads to exact values")
    func workedExample() throws {
        let text = try String(contentsOfFile: Self.examplePath, encoding: .utf8)
        let parsed = try StudyProtocol.parse(text)
        #expect(parsed.name == "sleep-2026")
        #expect(parsed.version == 1)
        #expect(parsed.consent?.hasPrefix("One block plays a loud") == true)
        #expect(parsed.schedule == StudyProtocol.Schedule(sessionsPerDay: 2, days: 14, minimumGapMinutes: 180))
        #expect(parsed.blocks.map(\.name) == ["pre", "training", "fear-probe", "post"])
        #expect(parsed.blocks.map(\.condition) == ["feedback-off", "feedback-on", "fear-probe", "feedback-off"])
        #expect(parsed.blocks.map(\.mode) == [.reproduction, .challenge, .fear, .reproduction])
        #expect(parsed.blocks.map(\.sessions) == [6, 14, 2, 6])
        #expect(parsed.blocks.map { $0.intervals.map(\.seconds) } == [[10, 30, 60], [10, 30, 60], [30], [10, 30, 60]])
        #expect(parsed.blocks.map(\.order) == [.counterbalanced, .shuffled, .fixed, .counterbalanced])
        #expect(parsed.blocks.map(\.count) == [5, 5, 5, 5])
        #expect(parsed.blocks.map(\.fearThreshold) == [0.10, 0.10, 0.15, 0.10])
        #expect(parsed.blocks.map(\.feedback) == [.withheld, .shown, .shown, .withheld])
        #expect(parsed.blocks.map(\.revealAtBlockEnd) == [false, false, false, true])
        #expect(parsed.totalSessions == 28)
        #expect(parsed.needsConsent(beforeBlock: 2) && !parsed.needsConsent(beforeBlock: 1))
    }

    @Test("defaults: one interval makes one fixed session; 1 attempt, 6 repetitions, feedback shown, no gap")
    func defaults() throws {
        let text = """
            {"name": "d", "version": 3, "schedule": {"sessions_per_day": 2, "days": 1},
             "blocks": [{"name": "a", "mode": "challenge", "interval": "5m"}, {"name": "b", "mode": "passive", "interval": 45}]}
            """
        let parsed = try StudyProtocol.parse(text)
        #expect(parsed.consent == nil && parsed.description == nil)
        #expect(parsed.schedule == StudyProtocol.Schedule(sessionsPerDay: 2, days: 1, minimumGapMinutes: 0))
        #expect(parsed.blocks == [
            StudyProtocol.Block(name: "a", condition: "a", mode: .challenge, sessions: 1, intervals: [.builtInPreset], order: .fixed,
                                count: 1, fearThreshold: 0.10, feedback: .shown, revealAtBlockEnd: false),
            StudyProtocol.Block(name: "b", condition: "b", mode: .passive, sessions: 1, intervals: [try TrainingInterval(seconds: 45)],
                                order: .fixed, count: 6, fearThreshold: 0.10, feedback: .shown, revealAtBlockEnd: false),
        ])
    }

    @Test("a Fear block without a consent text is refused at the block's line")
    func fearNeedsConsent() {
        let block = #"{"name": "f", "mode": "fear", "interval": "30s"}"#
        #expect(Self.problems(Self.document(block: block)) == [
            "line 6: block 'f' is Fear, which plays an aversive sound after a large error: add a \"consent\" text to the protocol that the participant accepts before it, or change the block's mode",
        ])
        #expect(Self.problems(Self.document(block: block, extra: "\n  \"consent\": \"I agree to the sound.\",")) == [])
    }

    @Test("syntax errors name the line and the fix")
    func syntax() {
        #expect(Self.problems("{\n  \"name\": \"t\"\n  \"version\": 1\n}") == [
            "line 3: not valid JSON: expected , or } after a value, found '\"'; is a comma missing?",
        ])
        #expect(Self.problems("{\n  \"name\": 't'\n}") == ["line 2: not valid JSON: text is in single quotes; JSON puts text in double quotes (\"…\")"])
        #expect(Self.problems("{\"a\": [1, 2,]\n}") == ["line 1: not valid JSON: a comma before ] ; remove the last comma"])
        #expect(Self.problems("{\n\"name\": \"a\",\n\"name\": \"b\"}") == ["line 3: not valid JSON: \"name\" appears twice in this object; keep one"])
        #expect(Self.problems("{\"name\": \"a\nb\"}") == [
            "line 1: not valid JSON: text runs past the end of the line; close it with a double quote, and write a line break inside text as \\n",
        ])
        #expect(Self.problems("{} {}") == ["line 1: not valid JSON: more text after the document's closing brace; remove it, or put everything inside one { … }"])
        #expect(Self.problems("") == [
            "line 1: not valid JSON: the file ends where a value should be; finish the document",
        ])
        #expect(Self.problems("[1]") == [
            "line 1: the document is a list; a protocol is one JSON object, { \"name\": …, \"version\": …, \"schedule\": …, \"blocks\": [ … ] }",
        ])
    }

    @Test("missing top-level fields, each with what to add")
    func missing() {
        #expect(Self.problems("{\n}") == [
            "line 1: the protocol has no \"name\"; add one, e.g. \"name\": \"sleep-2026\"",
            "line 1: the protocol has no \"version\"; add \"version\": 1 (and raise it whenever the protocol changes)",
            "line 1: the protocol has no \"schedule\"; add \"schedule\": { \"sessions_per_day\": 2, \"days\": 14, \"minimum_gap_minutes\": 120 }",
            "line 1: the protocol has no \"blocks\"; add \"blocks\": [ { \"name\": …, \"mode\": …, \"interval\": … } ]",
        ])
    }

    @Test("every bad value is refused with its line and bound, all of them in one pass")
    func badValues() {
        let text = """
            {
              "name": "sleep 2026",
              "version": 0,
              "schedule": { "sessions_per_day": 30, "days": 0, "minimum_gap_minutes": 1441 },
              "blocks": [
                {
                  "name": "a",
                  "mode": "tapping",
                  "intervals": ["5s", "121m", "30s", "30s", "soon"],
                  "order": "random",
                  "sessions": 0,
                  "attempts": 100
                }
              ]
            }
            """
        #expect(Self.problems(text) == [
            "line 2: \"name\" 'sleep 2026' is not a name: use 1 to 64 letters, digits, '-', '_' or '.', e.g. sleep-2026",
            "line 3: \"version\" is 0; use 1 to 1000000 (a protocol's version is a whole number from 1; a changed protocol takes the next one)",
            "line 4: \"sessions_per_day\" is 30; use 1 to 24 (sessions a day)",
            "line 4: \"days\" is 0; use 1 to 366 (the days the study runs)",
            "line 4: \"minimum_gap_minutes\" is 1441; use 0 to 1440 (minutes between two sessions, up to a day)",
            "line 8: \"mode\" must be one of \"challenge\", \"fear\", \"passive\", \"reproduction\"",
            "line 9: 5s is too short: intervals go from 10s to 120m 59s.",
            "line 9: 121m 0s is too long: intervals go from 10s to 120m 59s.",
            "line 9: 30s is listed twice in \"intervals\"; list each interval once (\"sessions\" repeats the list)",
            "line 9: 'soon' is not an interval. Write it as seconds or minutes and seconds, for example 300, 45s, 5m or 1m30s.",
            "line 10: \"order\" must be \"fixed\" or \"shuffled\" or \"counterbalanced\"",
            "line 11: \"sessions\" is 0; use 1 to 1000 (the block's sessions)",
        ])
    }

    @Test("keys: a misspelt key names the nearest one, an unknown one lists the keys; counts and mode-only fields checked per mode")
    func keysAndModes() {
        #expect(Self.problems(Self.document(block: #"{"name": "a", "mode": "challenge", "interval": "30s", "atempts": 3}"#)) == [
            "line 6: block 1 has no key \"atempts\"; did you mean \"attempts\"?",
        ])
        #expect(Self.problems("{\"colour\": 1}").first == "line 1: the protocol has no key \"colour\"; its keys are \"name\", \"version\", \"description\", \"consent\", \"schedule\", \"blocks\"")
        #expect(Self.problems(Self.document(block: #"{"name": "a", "mode": "passive", "interval": "30s", "attempts": 3, "feedback": "withheld"}"#)) == [
            "line 6: passive counts repetitions, not attempts; write \"repetitions\"",
            "line 6: passive has no presses to give feedback on; remove \"feedback\" from this block",
        ])
        #expect(Self.problems(Self.document(block: #"{"name": "a", "mode": "challenge", "interval": "30s", "attempts": 100, "fear_threshold": 0.2}"#)) == [
            "line 6: \"attempts\" is 100; use 1 to 99 (attempts per session)",
            "line 6: \"fear_threshold\" applies to Fear blocks only; remove it from this challenge block",
        ])
        #expect(Self.problems(Self.document(block: #"{"name": "a", "mode": "challenge", "interval": "30s", "reveal_at_block_end": true}"#)) == [
            "line 6: \"reveal_at_block_end\" applies when \"feedback\" is \"withheld\"; remove it, or withhold feedback",
        ])
        #expect(Self.problems(Self.document(block: #"{"name": "a", "mode": "challenge", "interval": "30s", "order": "shuffled"}"#)) == [
            "line 6: \"order\" needs a list of \"intervals\"; with one \"interval\" remove \"order\"",
        ])
        #expect(Self.problems(Self.document(block: #"{"name": "a", "mode": "challenge", "interval": "30s", "intervals": ["10s"]}"#)) == [
            "line 6: block 1 has both \"interval\" and \"intervals\"; keep one",
        ])
        #expect(Self.problems(Self.document(block: #"{"name": "a", "mode": "challenge"}"#)) == [
            "line 6: block 1 has no interval; add \"interval\": \"30s\" (one) or \"intervals\": [\"10s\", \"30s\"] (several)",
        ])
    }

    @Test("the blocks' sessions must fill the schedule exactly; the gap must fit a day; block names are unique")
    func scheduleFit() {
        #expect(Self.problems(Self.document(block: #"{"name": "a", "mode": "challenge", "intervals": ["10s", "20s"]}"#, days: 3)) == [
            "line 4: the blocks hold 2 sessions but the schedule has 3 days × 1 a day = 3; make them equal (change a block's \"sessions\", \"days\" or \"sessions_per_day\")",
        ])
        let gap = """
            {"name": "g", "version": 1,
             "schedule": {"sessions_per_day": 4, "days": 1,
                          "minimum_gap_minutes": 480},
             "blocks": [{"name": "a", "mode": "challenge", "interval": "30s", "sessions": 4}]}
            """
        #expect(Self.problems(gap) == [
            "line 3: 4 sessions a day at least 480 minutes apart do not fit in a day; lower \"minimum_gap_minutes\" below 480 or \"sessions_per_day\"",
        ])
        let twice = """
            {"name": "g", "version": 1, "schedule": {"sessions_per_day": 1, "days": 2},
             "blocks": [
               {"name": "a", "mode": "challenge", "interval": "30s"},
               {"name": "a", "mode": "challenge", "interval": "40s"}]}
            """
        #expect(Self.problems(twice) == ["line 4: block name 'a' is used twice (also line 3); give each block its own name"])
    }

    @Test("the canonical form ignores spacing, key order and spelled-out defaults; any change of meaning changes the fingerprint")
    func canonical() throws {
        let plain = #"{"name": "c", "version": 1, "schedule": {"sessions_per_day": 1, "days": 1}, "blocks": [{"name": "a", "mode": "challenge", "interval": "30s"}]}"#
        let spelled = """
            {
              "version": 1, "name": "c",
              "blocks": [{"mode": "challenge", "name": "a", "condition": "a", "intervals": [30], "order": "fixed", "sessions": 1, "attempts": 1, "feedback": "shown"}],
              "schedule": {"days": 1, "sessions_per_day": 1, "minimum_gap_minutes": 0}
            }
            """
        let changed = plain.replacingOccurrences(of: "30s", with: "31s")
        let a = try StudyProtocol.parse(plain), b = try StudyProtocol.parse(spelled), c = try StudyProtocol.parse(changed)
        #expect(a.canonicalJSON.compactText == #"{"name":"c","version":1,"schedule":{"sessions_per_day":1,"days":1,"minimum_gap_minutes":0},"blocks":[{"name":"a","condition":"a","mode":"challenge","sessions":1,"intervals":[30],"order":"fixed","attempts":1,"feedback":"shown"}]}"#)
        #expect(a.fingerprint == b.fingerprint)
        #expect(a.fingerprint != c.fingerprint)
        #expect(a.fingerprint.count == 64)
        // The canonical form is a document that reads back as the same protocol.
        let example = try StudyProtocol.parse(try String(contentsOfFile: Self.examplePath, encoding: .utf8))
        #expect(try StudyProtocol.parse(example.canonicalJSON.prettyText) == example)
    }

    @Test("every prefix of the example, and deep or huge documents, are refused with a line: never a crash, never accepted")
    func robustness() throws {
        let text = try String(contentsOfFile: Self.examplePath, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        var prefix = ""
        for character in text.dropLast(2) {
            prefix.append(character)
            let problems = Self.problems(prefix)
            #expect(!problems.isEmpty && problems.allSatisfy { $0.hasPrefix("line ") }, "\(prefix.count)")
            if let first = problems.first, let number = Int(first.dropFirst(5).prefix { $0.isNumber }) {
                #expect((1...lines).contains(number))
            }
        }
        #expect(Self.problems(String(repeating: "[", count: 100_000)) == [
            "line 1: not valid JSON: the document nests deeper than 32 levels; a protocol needs four",
        ])
        #expect(Self.problems("{\"version\": 99999999999999999999999}").contains(
            "line 1: \"version\" is not a whole number; write a whole number from 1 to 1000000 (a protocol's version is a whole number from 1; a changed protocol takes the next one)"))
        #expect(Self.problems(String(repeating: " ", count: 300 * 1024)) == [
            "the document is over 256 KiB; a protocol is a few kilobytes, so this is not one",
        ])
    }

    @Test("a study tag from outside is checked against the same bounds")
    func tagBounds() {
        let good = StudyTag(protocolName: "sleep-2026", protocolVersion: 1, participant: "P017", blockIndex: 0, blockName: "pre",
                            planPosition: 27, condition: "feedback-off", feedbackShown: false)
        #expect(good.problem() == nil)
        var bad = good
        bad.planPosition = -1
        #expect(bad.problem() == "the study tag's plan position -1 is outside 0…8783")
        bad = good
        bad.participant = " P017"
        #expect(bad.problem() == "the study tag's participant ' P017' is not a label: use 1 to 64 printable characters without spaces at the ends, e.g. P017")
        bad = good
        bad.protocolVersion = 0
        #expect(bad.problem() == "the study tag's protocol version 0 is outside 1…1000000")
    }
}
