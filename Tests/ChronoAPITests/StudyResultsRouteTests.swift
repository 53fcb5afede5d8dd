@testable import ChronoAPI
import ChronoCore
import ChronoStore
import ChronoSync
import ChronoTesting
import Foundation
import Testing

/// A study block that withholds feedback keeps its sessions' results off the API until the block ends,
/// or for good (docs/STUDIES.md, "On the device"): the session's detail, the list, the device's last
/// session and progress's recent sessions show `null` for every result and `results_withheld: true`.
@Suite("Device API: a withheld study block's results")
struct StudyResultsRouteTests {
    /// The fixture's study, begun 33 hours before the harness's now: now is study day 2 (index 1),
    /// 09:00, the blind block's day.
    static func assign(_ store: ChronoStore) throws {
        var synced = StudyFixture.synced
        synced.startUnixNanoseconds = APIHarness.now - 33 * 3_600_000_000_000
        try store.keepStudyAssignment(synced, nowUnixNanoseconds: APIHarness.now)
    }

    /// A completed Challenge 10s session of two attempts (10.5 s and 9.5 s) for plan position
    /// `position`, ended `minutesAgo` before now.
    static func addStudySession(_ store: ChronoStore, _ id: String, position: Int, minutesAgo: Int64) throws {
        let plan = StudyFixture.assignment.plan
        let target = try TrainingInterval(seconds: 10)
        let start = MonotonicInstant(nanoseconds: 1_000_000_000_000)
        let attempts = [AttemptMeasurement(index: 1, target: target, startMark: start + .seconds(1), tapMark: start + .milliseconds(11_500)),
                        AttemptMeasurement(index: 2, target: target, startMark: start + .seconds(14), tapMark: start + .milliseconds(23_500))]
        let configuration = try SessionConfiguration(mode: .challenge, interval: target, plannedCount: 2,
                                                     feedback: plan.sessions[position].feedback == .withheld ? .withheld : .shown)
        let outcome = SessionOutcome(status: .completed, configuration: configuration, startedAt: start, endedAt: start + .seconds(24),
                                     attempts: attempts, boundaries: [], fearSoundEffective: false, reason: nil)
        let anchor = WallClockAnchor(unixNanoseconds: APIHarness.now - minutesAgo * 60_000_000_000 - 24_000_000_000, monotonic: start, utcOffsetSeconds: 0)
        var finish = SessionFinishRecord(sessionID: id, outcome: outcome, anchor: anchor, board: "desktop", wallClockSynchronised: true)
        let tag = plan.tag(for: plan.sessions[position])
        finish.study = tag
        // Withheld as it ends, decided once as the daemon does (its own completion counted).
        let ended = anchor.unixNanoseconds(at: outcome.endedAt)
        let done = try store.completedStudySessions(protocolName: plan.protocolName, protocolVersion: plan.protocolVersion, participant: plan.participant)
        let standing = try store.studyAssignment().map { kept in
            StudyStanding(assignment: kept.assignment, completions: done.map(\.completion))
                .completing(StudySchedule.Completion(position: tag.planPosition, endedUnixNanoseconds: ended))
        }
        finish.resultsWithheld = ResultsWithholding.withheld(tag: tag, standing: standing, atUnixNanoseconds: ended)
        _ = try store.recordSessionFinished(finish, nowUnixNanoseconds: APIHarness.now)
    }

    static let results = ["time_acuity_score", "mean_abs_error_seconds", "mean_signed_error_seconds"]
    static let attemptResults = ["elapsed_seconds", "error_seconds", "percent_error", "zone", "feedback"]

    @Test("withheld until the block's last session, then shown; a sealed block's never; a session outside the study as always")
    func withheldThenShown() async throws {
        try await APIHarness.with { api in
            try Self.assign(api.store)
            try api.addChallenge(sid("OWN"), daysAgo: 2, elapsed: [61])
            try Self.addStudySession(api.store, sid("BLIND1"), position: 2, minutesAgo: 120)

            let detail = try await api.request("/api/v1/sessions/" + sid("BLIND1")).json
            #expect(detail["results_withheld"] as? Bool == true)
            // The blind block shows its results when it ends: the pages word the withholding by it.
            #expect(detail["results_revealed_at_block_end"] as? Bool == true)
            for key in Self.results { #expect(detail[key] is NSNull, "\(key)") }
            // The session record holds the press marks, from which the results follow: null too.
            #expect(detail["record"] is NSNull)
            let attempt = try #require((detail["attempts"] as? [[String: Any]])?.first)
            for key in Self.attemptResults { #expect(attempt[key] is NSNull, "\(key)") }
            #expect(attempt["index"] as? Int == 1)
            #expect(detail["interval"] as? String == "10s" && detail["planned_count"] as? Int == 2)
            let list = try #require(try await api.request("/api/v1/sessions").json["sessions"] as? [[String: Any]])
            #expect(list.map { $0["results_withheld"] as? Bool } == [true, nil])
            #expect(list.map { $0["results_revealed_at_block_end"] as? Bool } == [true, nil])
            #expect(list[0]["time_acuity_score"] is NSNull && list[1]["time_acuity_score"] as? Int != nil)
            let device = try await api.request("/api/v1/device").json
            let last = try #require(device["last_session"] as? [String: Any])
            #expect(last["results_withheld"] as? Bool == true && last["time_acuity_score"] is NSNull)
            #expect(last["results_revealed_at_block_end"] as? Bool == true)
            let recent = try #require(try await api.request("/api/v1/progress").json["recent_sessions"] as? [[String: Any]])
            #expect(recent.first?["results_withheld"] as? Bool == true && recent.first?["time_acuity_score"] is NSNull)

            // The block's second session: the block has ended, both are shown.
            try Self.addStudySession(api.store, sid("BLIND2"), position: 3, minutesAgo: 30)
            let shown = try await api.request("/api/v1/sessions/" + sid("BLIND1")).json
            #expect(shown["results_withheld"] == nil && shown["results_revealed_at_block_end"] == nil)
            #expect(shown["time_acuity_score"] as? Int != nil)
            #expect((shown["attempts"] as? [[String: Any]])?.first?["zone"] as? String != nil)

            // The sealed block: never on the device.
            try Self.addStudySession(api.store, sid("SEALED"), position: 4, minutesAgo: 10)
            let sealed = try await api.request("/api/v1/sessions/" + sid("SEALED")).json
            #expect(sealed["results_withheld"] as? Bool == true && sealed["time_acuity_score"] is NSNull)
            #expect(sealed["results_revealed_at_block_end"] as? Bool == false)
            let sealedLast = try #require(try await api.request("/api/v1/device").json["last_session"] as? [String: Any])
            #expect(sealedLast["session_id"] as? String == sid("SEALED") && sealedLast["results_revealed_at_block_end"] as? Bool == false)
        }
    }
}
