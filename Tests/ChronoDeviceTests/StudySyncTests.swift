import ChronoCore
import ChronoStore
import ChronoSync
import ChronoTesting
import Foundation
import Testing
@testable import ChronoDevice

/// The study assignment reaches the device in the sync exchange's reply and is kept (docs/STUDIES.md,
/// "On the device"): through a restart, while the collector cannot be reached, replaced by another,
/// removed when the collector no longer names one; a bad one is refused and the kept one stays. A
/// study session goes to the collector with its tag.
@Suite("Sync: the study assignment arrives and is kept")
struct StudySyncTests {
    @Test("the receipt's assignment is kept, survives a reopen and an unreachable collector, and the same one again changes nothing")
    func keptAcrossRestart() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        let collector = FakeCollector()
        let enrolment = try await fixture.enrol(collector)
        collector.with { $0.study = StudyFixture.synced }
        let first = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
        #expect(first.study == "study sleep-2026@1 assigned to P017")
        #expect(first.studyRefused == nil)
        let again = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
        #expect(again.study == nil)

        // The collector cannot be reached: the exchange fails and the assignment stays.
        collector.with { $0.refusal = (503, "unavailable") }
        await #expect(throws: SyncFailure.self) { _ = try await fixture.exchange(collector).pushAll(enrolment: enrolment) }
        // A restart: the store opened again from its directory.
        let reopened = try ChronoStore.open(StoreLocation(directory: fixture.directory))
        let kept = try #require(try reopened.studyAssignment())
        #expect(kept.assignment == StudyFixture.assignment)
        #expect(kept.receivedUnixNanoseconds == 1_795_000_000_000_000_000)
    }

    @Test("a bad assignment is refused in words and the kept one stays; none in the receipt removes it")
    func refusedThenRemoved() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        let collector = FakeCollector()
        let enrolment = try await fixture.enrol(collector)
        collector.with { $0.study = StudyFixture.synced }
        _ = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
        var bad = StudyFixture.synced
        bad.protocolVersion = 2
        collector.with { $0.study = bad }
        let refused = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
        #expect(refused.studyRefused == "The study assignment from the collector cannot be used: the collector announced protocol sleep-2026@2 but sent sleep-2026@1; the device keeps the one it had.")
        #expect(try fixture.store.studyAssignment()?.assignment == StudyFixture.assignment)
        collector.with { $0.study = nil }
        let removed = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
        #expect(removed.study == "study assignment removed by the collector")
        #expect(try fixture.store.studyAssignment() == nil)
    }

    @Test("a study session reaches the collector with its tag; another session without one")
    func tagOnTheWire() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        try fixture.addSessions(1)
        let plan = StudyFixture.assignment.plan
        let tag = plan.tag(for: plan.sessions[2])
        let interval = try TrainingInterval(seconds: 10)
        let configuration = try SessionConfiguration(mode: .challenge, interval: interval, plannedCount: 1)
        let start = MonotonicInstant(nanoseconds: 5_000_000_000)
        let attempt = AttemptMeasurement(index: 1, target: interval, startMark: start + .seconds(1), tapMark: start + .seconds(12))
        let outcome = SessionOutcome(status: .completed, configuration: configuration, startedAt: start, endedAt: start + .seconds(12),
                                     attempts: [attempt], boundaries: [], fearSoundEffective: false, reason: nil)
        var finish = SessionFinishRecord(sessionID: UUID().uuidString, outcome: outcome,
                                         anchor: WallClockAnchor(unixNanoseconds: 1_795_200_000_000_000_000, monotonic: .zero, utcOffsetSeconds: 0),
                                         board: "desktop", wallClockSynchronised: true)
        finish.study = tag
        try fixture.store.recordSessionFinished(finish, nowUnixNanoseconds: 1_795_200_000_000_000_000)
        let collector = FakeCollector()
        let enrolment = try await fixture.enrol(collector)
        _ = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
        let sent = collector.with { $0.sessions }
        #expect(sent.count == 2)
        #expect(sent[finish.sessionID]?.study == tag)
        #expect(sent[finish.sessionID]?.study?.condition == "no-feedback")
        #expect(sent.values.filter { $0.study == nil }.count == 1)
    }
}
