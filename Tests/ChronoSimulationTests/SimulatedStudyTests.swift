import ChronoCore
import ChronoSimulation
import Foundation
import Testing

/// `SimulatedStudy`: a participant with a known Weber fraction and bias plays a protocol's plan through
/// the engine; every session records exactly the presses made, carries its plan's tag, and falls on
/// its study day and slot; the produced durations have the mean and spread the person was given.
@Suite struct SimulatedStudyTests {
    static let protocolPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("studies/recovery-2026.json").path

    @Test func aParticipantPlaysTheWholePlanFaithfully() throws {
        let studyProtocol = try StudyProtocol.parse(try String(contentsOfFile: Self.protocolPath, encoding: .utf8))
        let plan = StudyPlan(studyProtocol: studyProtocol, participant: "P09", participantIndex: 3, seed: 9)
        let first: Int64 = 1_793_577_600  // 2026-11-02 00:00 UTC
        let sessions = SimulatedStudy.sessions(plan: plan, person: SimulatedParticipant(weberFraction: 0.1, bias: 0.05),
                                               firstDayUnixSeconds: first, seed: 9)
        #expect(sessions.count == 42)
        #expect(sessions.allSatisfy { $0.isFaithful })
        #expect(sessions.map(\.tag) == plan.sessions.map(plan.tag(for:)))
        #expect(sessions.map(\.anchor.unixNanoseconds) == plan.sessions.map { (first + Int64($0.day) * 86_400 + 9 * 3600 + Int64($0.slot) * 4 * 3600) * 1_000_000_000 })
        #expect(Set(sessions.map(\.sessionID)).count == 42)
        // Relative errors: mean ≈ bias, SD ≈ Weber fraction × (1 + bias), over 840 attempts.
        let relative = sessions.flatMap { $0.outcome.attempts.map(\.percentError) }
        let mean = relative.reduce(0, +) / Double(relative.count)
        let sd = (relative.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(relative.count - 1)).squareRoot()
        #expect(relative.count == 840)
        #expect(abs(mean - 0.05) < 0.012)
        #expect(abs(sd - 0.105) < 0.012)
        // The same seed plays the same study.
        let again = SimulatedStudy.sessions(plan: plan, person: SimulatedParticipant(weberFraction: 0.1, bias: 0.05), firstDayUnixSeconds: first, seed: 9)
        #expect(again.map(\.outcome) == sessions.map(\.outcome))
    }
}
