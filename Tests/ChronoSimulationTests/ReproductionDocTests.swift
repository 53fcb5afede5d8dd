import Foundation
import Testing
import ChronoCore
@testable import ChronoSimulation

/// docs/REPRODUCTION.md's worked example: its own edge block, replayed, gives every number it states.
@Suite("docs/REPRODUCTION.md: the worked example's numbers")
struct ReproductionDocTests {
    /// The ```text block that starts with `# reproduction-example` in docs/REPRODUCTION.md.
    static func exampleEdges() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let document = try String(contentsOf: root.appendingPathComponent("docs/REPRODUCTION.md"), encoding: .utf8)
        let start = try #require(document.range(of: "```text\n# reproduction-example"))
        let body = document[start.upperBound...]
        let end = try #require(body.range(of: "```"))
        return "# reproduction-example" + body[..<end.lowerBound]
    }

    @Test("2 attempts of 10 s: marks, reproductions, ratios, zones, the summary and the record")
    func workedExample() throws {
        let configuration = try SessionConfiguration(mode: .reproduction, interval: TrainingInterval(seconds: 10), plannedCount: 2)
        let transcript = VirtualClock.run(configuration: configuration, soundAudible: true, inputs: try ReplayScript.parse(Self.exampleEdges()).events)
        let outcome = try #require(transcript.outcome)
        let s = { (seconds: Double) in MonotonicInstant(nanoseconds: Int64((seconds * 1e9).rounded())) }
        #expect(outcome.status == .completed)
        #expect(outcome.pressesIgnoredDuringPresentation == 1)
        #expect(outcome.attempts.map(\.presentedStart) == [s(2), s(26.92)])
        #expect(outcome.attempts.map(\.presentedEnd) == [s(12), s(36.92)])
        #expect(outcome.attempts.map(\.startMark) == [s(12.8), s(37.5)])
        #expect(outcome.attempts.map(\.tapMark) == [s(23.3), s(46.9)])
        #expect(outcome.attempts.map(\.elapsed) == [TimeSpan.milliseconds(10_500), TimeSpan.milliseconds(9_400)])
        #expect(outcome.attempts.map(\.ratio) == [1.05, 0.94])
        #expect(outcome.attempts.map(\.signedError) == [TimeSpan.milliseconds(500), TimeSpan.milliseconds(-600)])
        #expect(outcome.attempts.map(\.percentError) == [0.05, -0.06])
        #expect(outcome.attempts.map(\.zone) == [.yellow, .yellow])
        #expect(outcome.attempts.map(\.direction) == [.late, .early])
        let metrics = outcome.metrics
        #expect(metrics.meanAbsErrorSeconds == 0.55)
        #expect(metrics.meanSignedErrorSeconds == (0.5 - 0.6) / 2)
        #expect(metrics.stdDevErrorSeconds == 0.7778174593052023)
        #expect(abs(metrics.stdDevErrorSeconds - 0.605.squareRoot()) < 1e-15)
        #expect(metrics.meanAbsPercentError == 0.055)
        #expect(metrics.timeAcuityScore == 89)
        #expect(metrics.meanRatio == 0.995)
        let anchor = WallClockAnchor(unixNanoseconds: 1_795_417_200_000_000_000, monotonic: .zero, utcOffsetSeconds: 3600)
        let record = try #require(HealthRecordBuilder.decide(for: outcome, sessionID: "ID", device: "desktop", anchor: anchor).record)
        #expect(record.startDate.iso8601 == "2026-11-23T08:00:00.000+01:00")
        #expect(record.endDate.iso8601 == "2026-11-23T08:00:46.900+01:00")
        #expect(record.metadata.first?.key == "chronoception_version")
        #expect(record.metadata.first?.value == .int(2))
    }
}
