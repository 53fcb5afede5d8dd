@testable import ChronoAPI
import ChronoCore
import ChronoStore
import ChronoTesting
import Foundation
import Testing

/// While a study session's results are withheld (docs/STUDIES.md, "Feedback withheld"), no surface of
/// the device shows them: progress (the store's report, `chronoception progress`'s text, the API's
/// `/progress` and `/progress/daily`), the CSV export, the health log and its export. The session
/// still counts. Once its block ends, everything is shown again. One rule decides it
/// (`ResultsWithholding`: asked as a session finishes, and through the store's `withheldResultSessionIDs`).
@Suite("Study: withheld results stay off every surface")
struct StudyWithheldSurfacesTests {
    static let ten = try! TrainingInterval(seconds: 10)

    /// The CSV export's rows of one session, as column → value dictionaries.
    static func csvRows(_ store: ChronoStore, _ id: String) throws -> [[String: String]] {
        var text = ""
        try store.exportCSV(days: nil, nowUnixNanoseconds: APIHarness.now) { text += $0 }
        let lines = text.split(separator: "\r\n").map(String.init)
        #expect(lines[0] == ChronoStore.csvColumns.joined(separator: ","))
        return lines.dropFirst().map { line in
            Dictionary(uniqueKeysWithValues: zip(ChronoStore.csvColumns, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }.filter { $0["session_id"] == id }
    }

    /// The health-log file's lines (as written when each session was saved).
    static func logLines(_ store: ChronoStore) throws -> [String] {
        let path = try store.settings().healthLogPath
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }

    @Test("progress counts a withheld session but shows none of its results; the block's end shows them")
    func progress() async throws {
        try await APIHarness.with { api in
            try StudyResultsRouteTests.assign(api.store)
            try StudyResultsRouteTests.addStudySession(api.store, sid("BLIND1"), position: 2, minutesAgo: 120)

            let report = try api.store.progress(nowUnixNanoseconds: APIHarness.now, utcOffsetSeconds: 0, only: Self.ten)
            let interval = try #require(report.intervals.first)
            #expect(report.completedSessions == 1)
            #expect(report.resultsWithheldSessions == 1)
            #expect(interval.completedSessions == 1)
            #expect(interval.resultsWithheldSessions == 1)
            #expect(interval.lastSevenDays.attemptCount == 0)
            #expect(interval.lastZones == [])
            #expect(interval.timeAcuity == nil)
            #expect(interval.daily.isEmpty)
            #expect(report.daily.isEmpty)
            #expect(report.recentSessions.map(\.resultsWithheld) == [true])
            #expect(report.recentSessions[0].timeAcuityScore == nil && report.recentSessions[0].meanAbsErrorSeconds == nil)

            // `chronoception progress`'s words.
            let text = ProgressText.render(report)
            #expect(text.contains("Progress — 1 completed session (showing 10s only)\nResults withheld for 1 session (a study block without feedback): counted, not in these figures.\n"))
            #expect(text.contains("10s  H(I) S · 1 completed session\n  Results withheld for 1 session (a study block without feedback): counted, not in these figures.\n\nMode mix"))
            #expect(text.contains("results withheld, 2/2 attempts"))
            #expect(!text.contains("Passive only"))
            #expect(try api.store.recentSessions(limit: 5, nowUnixNanoseconds: APIHarness.now).map(\.resultsWithheld) == [true])

            // The API's /progress and /progress/daily.
            let json = try await api.request("/api/v1/progress?interval=10s").json
            #expect(json["results_withheld_sessions"] as? Int == 1)
            let figures = try #require((json["intervals"] as? [[String: Any]])?.first)
            #expect(figures["completed_sessions"] as? Int == 1)
            #expect(figures["results_withheld_sessions"] as? Int == 1)
            #expect(figures["attempts_last_7_days"] as? Int == 0)
            #expect(figures["typical_error_seconds_last_7_days"] is NSNull)
            #expect(figures["time_acuity_score"] is NSNull)
            #expect((figures["last_zones"] as? [String]) == [])
            let recent = try #require((json["recent_sessions"] as? [[String: Any]])?.first)
            #expect(recent["results_withheld"] as? Bool == true && recent["time_acuity_score"] is NSNull)
            let daily = try await api.request("/api/v1/progress/daily?days=7").json
            #expect((daily["attempts"] as? [[String: Any]])?.compactMap { $0["value"] as? Double } == [])

            // The block's last session: the block has ended, both sessions' results are everywhere.
            try StudyResultsRouteTests.addStudySession(api.store, sid("BLIND2"), position: 3, minutesAgo: 30)
            let shown = try api.store.progress(nowUnixNanoseconds: APIHarness.now, utcOffsetSeconds: 0, only: Self.ten)
            #expect(shown.resultsWithheldSessions == 0)
            #expect(shown.intervals[0].resultsWithheldSessions == 0)
            #expect(shown.intervals[0].lastSevenDays.attemptCount == 4)
            #expect(shown.intervals[0].lastSevenDays.meanAbsErrorSeconds == 0.5)
            #expect(shown.intervals[0].lastZones.count == 4)
            #expect(shown.recentSessions.map(\.resultsWithheld) == [false, false])
            #expect(!ProgressText.render(shown).contains("withheld"))
            let shownJSON = try await api.request("/api/v1/progress?interval=10s").json
            #expect(shownJSON["results_withheld_sessions"] == nil)
            #expect((shownJSON["intervals"] as? [[String: Any]])?.first?["results_withheld_sessions"] == nil)
            #expect((shownJSON["intervals"] as? [[String: Any]])?.first?["attempts_last_7_days"] as? Int == 4)
        }
    }

    @Test("the CSV export leaves a withheld session's results empty and flags it; revealed, they are back")
    func csvExport() async throws {
        try await APIHarness.with { api in
            try StudyResultsRouteTests.assign(api.store)
            try api.addChallenge(sid("OWN"), daysAgo: 2, elapsed: [61])
            try StudyResultsRouteTests.addStudySession(api.store, sid("BLIND1"), position: 2, minutesAgo: 120)

            let rows = try Self.csvRows(api.store, sid("BLIND1"))
            #expect(rows.count == 2)
            for column in ["time_acuity_score", "mean_abs_error_seconds", "mean_signed_error_seconds", "std_dev_error_seconds",
                           "mean_abs_percent_error", "start_mark_ns", "tap_mark_ns", "elapsed_seconds", "signed_error_seconds",
                           "abs_percent_error", "zone"] {
                #expect(rows.map { $0[column] } == ["", ""], "\(column)")
            }
            #expect(rows.map { $0["row_kind"] } == ["attempt", "attempt"])
            #expect(rows.map { $0["row_index"] } == ["1", "2"])
            #expect(rows.map { $0["planned_count"] } == ["2", "2"])
            #expect(rows.map { $0["feedback_withheld"] } == ["true", "true"])
            #expect(rows.map { $0["results_withheld"] } == ["true", "true"])
            let own = try Self.csvRows(api.store, sid("OWN"))
            #expect(own.map { $0["elapsed_seconds"] } == ["61.0"])
            #expect(own.map { $0["feedback_withheld"]! + "|" + $0["results_withheld"]! } == ["|"])

            try StudyResultsRouteTests.addStudySession(api.store, sid("BLIND2"), position: 3, minutesAgo: 30)
            let revealed = try Self.csvRows(api.store, sid("BLIND1"))
            #expect(revealed.map { $0["elapsed_seconds"] } == ["10.5", "9.5"])
            #expect(revealed.map { $0["signed_error_seconds"] } == ["0.5", "-0.5"])
            #expect(revealed.map { $0["start_mark_ns"] } == ["1001000000000", "1014000000000"])
            #expect(revealed.map { $0["mean_abs_error_seconds"] } == ["0.5", "0.5"])
            #expect(revealed.map { $0["feedback_withheld"] } == ["true", "true"])
            #expect(revealed.map { $0["results_withheld"] } == ["", ""])
        }
    }

    @Test("the health log gets a withheld session's record without results (version 3); revealed, the export has them")
    func healthLog() async throws {
        try await APIHarness.with { api in
            try StudyResultsRouteTests.assign(api.store)
            try StudyResultsRouteTests.addStudySession(api.store, sid("BLIND1"), position: 2, minutesAgo: 120)

            let logged = try Self.logLines(api.store)
            #expect(logged.count == 1)
            let line = try #require(logged.first)
            #expect(line.contains("\"metadata\":{\"chronoception_version\":3,\"chronoception_mode\":\"challenge\",\"target_interval_seconds\":10,\"attempt_count\":2,\"results_withheld\":true,\"HKMetadataKeySyncIdentifier\":\"\(sid("BLIND1"))\",\"HKMetadataKeySyncVersion\":1}"))
            let exported = try api.store.healthRecords(nowUnixNanoseconds: APIHarness.now)
            #expect(exported.map(\.jsonLine) == [line])

            // The block's last session ends it: its own record has its results, and the export now
            // gives both with theirs (the log keeps what was written; it is append-only).
            try StudyResultsRouteTests.addStudySession(api.store, sid("BLIND2"), position: 3, minutesAgo: 30)
            let second = try #require(try Self.logLines(api.store).last)
            #expect(second.contains("\"chronoception_version\":1") && second.contains("\"mean_abs_error_seconds\":0.5"))
            #expect(!second.contains("results_withheld"))
            let both = try api.store.healthRecords(nowUnixNanoseconds: APIHarness.now)
            #expect(both.map { $0.metadataValue("chronoception_version") } == [.int(1), .int(1)])
            #expect(both.map { $0.metadataValue("mean_abs_error_seconds") } == [.double(0.5), .double(0.5)])

            // The sealed block never shows them.
            try StudyResultsRouteTests.addStudySession(api.store, sid("SEALED"), position: 4, minutesAgo: 10)
            let sealed = try #require(try Self.logLines(api.store).last)
            #expect(sealed.contains("\"chronoception_version\":3") && !sealed.contains("time_acuity_score"))
        }
    }
}
