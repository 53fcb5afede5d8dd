import ChronoCollector
import ChronoCore
import ChronoStore
import ChronoSync
import Foundation
import Testing

private typealias F = CollectorFixtures

/// A study session of a block without feedback is flagged on the collector as on the device (SPEC §11):
/// `feedback_withheld` and `results_withheld` in its CSV with the results left out, the same rows the
/// device's own CSV writes, and a withheld line in its progress.
@Suite("Collector: withheld sessions flagged")
struct CollectorWithheldTests {
    static let withheldTag = StudyTag(protocolName: "sleep-2026", protocolVersion: 2, participant: "P001", blockIndex: 1, blockName: "post",
                                      planPosition: 3, condition: "feedback-off", feedbackShown: false)

    static func stored(_ session: SyncedSession) -> CollectorSession {
        CollectorSession(deviceID: F.deviceID, deviceName: "P001", participant: "P001", session: session, receivedUnixNanoseconds: F.now)
    }

    static func sessions() -> [CollectorSession] {
        var withheld = F.challenge(id: "5d1c7a4e-2b3f-4c5d-8e9f-0a1b2c3d4e5f", startedAgo: 3_600_000_000_000, errorsMilliseconds: [500, -1000])
        withheld.study = withheldTag
        var shown = F.challenge(id: "6e2d8b5f-3c4a-4d6e-9f0a-1b2c3d4e5f6a", startedAgo: 7_200_000_000_000, errorsMilliseconds: [250])
        shown.study = withheldTag
        shown.study?.feedbackShown = true
        shown.study?.planPosition = 2
        return [stored(withheld), stored(shown)]
    }

    @Test func withoutAnAssignmentABlockWithoutFeedbackIsWithheld() async throws {
        let ids = try await CollectorWithheld.ids(Self.sessions(), nowUnixNanoseconds: F.now, assignment: { _ in nil })
        #expect(ids == ["5d1c7a4e-2b3f-4c5d-8e9f-0a1b2c3d4e5f"])
        // The rule itself: shown feedback is never withheld; withheld feedback stays withheld without a standing.
        #expect(!ResultsWithholding.withheld(tag: nil, standing: nil, atUnixNanoseconds: F.now))
        #expect(ResultsWithholding.withheld(tag: Self.withheldTag, standing: nil, atUnixNanoseconds: F.now))
    }

    @Test func theCSVFlagsAndWithholdsAsTheDevicesCSVDoes() throws {
        let sessions = Self.sessions()
        var text = ""
        CollectorCSV.write(sessions, withheld: ["5d1c7a4e-2b3f-4c5d-8e9f-0a1b2c3d4e5f"]) { text += $0 }
        let lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.count == 1 + 2 + 1)
        func row(_ line: String) -> [String: String] { Dictionary(uniqueKeysWithValues: zip(CollectorCSV.columns, line.components(separatedBy: ","))) }
        for line in lines[1...2] {
            let fields = row(line)
            #expect(fields["feedback_withheld"] == "true" && fields["results_withheld"] == "true")
            #expect(fields["time_acuity_score"] == "" && fields["mean_abs_error_seconds"] == "" && fields["zone"] == "")
            #expect(fields["elapsed_seconds"] == "" && fields["tap_mark_ns"] == "")
            #expect(fields["mode"] == "challenge" && fields["done_count"] == "2" && fields["health_log"] == "record")
        }
        let shown = row(lines[3])
        #expect(shown["feedback_withheld"] == "" && shown["results_withheld"] == "")
        #expect(shown["time_acuity_score"] != "" && shown["zone"] != "")

        // The device's own CSV rows of the same session: the collector's are those, behind its three
        // device columns, with only the health column holding the device's decision instead of the ledger.
        let wire = sessions[0].session
        var onDevice = StoredSession(sessionID: wire.id, outcome: try wire.validatedOutcome(), isRunning: false, anchor: wire.anchor,
                                     board: wire.board, wallClockSynchronised: true, bootID: "", boundariesFired: [], healthLedger: nil)
        onDevice.study = wire.study
        let deviceRows = ChronoStore.csvRows(onDevice, resultsWithheld: true)
        let collectorRows = CollectorCSV.rows(sessions[0], resultsWithheld: true)
        let health = ChronoStore.csvColumns.firstIndex(of: "health_log")!
        #expect(collectorRows.count == deviceRows.count)
        for (collectorRow, deviceRow) in zip(collectorRows, deviceRows) {
            var device = deviceRow
            device[health] = "record"
            #expect(Array(collectorRow.dropFirst(3)) == device)
        }
    }

    /// Through each store, as `export csv` and the page read it: a session of the example protocol's
    /// first block (feedback withheld, never revealed) pushed by its participant's device comes back
    /// flagged, with no score, in the CSV and in the recent sessions; an untagged one keeps its score.
    @Test(arguments: StoreKind.available)
    func aStoredWithheldSessionIsFlaggedInTheCSVAndTheRecentSessions(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let (plan, _) = try await IngestStudyTagTests.setUp(store)
            let withheld = IngestStudyTagTests.tagged(plan, position: 0, startedAgo: 29)
            #expect(withheld.study?.feedbackShown == false)
            let open = F.challenge(startedAgo: 2)
            let receipt = try await store.ingest(try IngestPlan.validate(F.batch([withheld, open])), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            #expect(receipt.accepted == 2 && receipt.refused == nil)
            let sessions = try await store.sessions(CollectorSessionQuery())
            #expect(sessions.first { $0.session.id == withheld.id }?.session.study == withheld.study)
            let ids = try await CollectorWithheld.ids(sessions, nowUnixNanoseconds: F.now, assignment: { try await store.studyAssignment(deviceID: $0) })
            #expect(ids == [withheld.id])

            var text = ""
            CollectorCSV.write(sessions, withheld: ids) { text += $0 }
            let lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            func row(_ line: String) -> [String: String] { Dictionary(uniqueKeysWithValues: zip(CollectorCSV.columns, line.components(separatedBy: ","))) }
            let withheldRows = lines.dropFirst().map(row).filter { $0["session_id"] == withheld.id }
            let openRows = lines.dropFirst().map(row).filter { $0["session_id"] == open.id }
            #expect(withheldRows.count == 3 && openRows.count == 3)
            for fields in withheldRows {
                #expect(fields["feedback_withheld"] == "true" && fields["results_withheld"] == "true")
                #expect(fields["time_acuity_score"] == "" && fields["zone"] == "" && fields["tap_mark_ns"] == "")
                #expect(fields["participant"] == "P1")
            }
            for fields in openRows {
                #expect(fields["feedback_withheld"] == "" && fields["results_withheld"] == "")
                #expect(fields["time_acuity_score"] != "" && fields["zone"] != "")
            }

            let report = CollectorProgress.report(sessions, nowUnixNanoseconds: F.now, utcOffsetSeconds: 0, withheld: ids)
            let line = try #require(report.recentSessions.first { $0.sessionID == withheld.id })
            #expect(line.resultsWithheld && line.timeAcuityScore == nil && line.meanAbsErrorSeconds == nil)
            let shown = try #require(report.recentSessions.first { $0.sessionID == open.id })
            #expect(!shown.resultsWithheld && shown.timeAcuityScore != nil)
        }
    }

    @Test func progressCountsTheWithheldSessionAndShowsNoResult() {
        let report = CollectorProgress.report(Self.sessions(), nowUnixNanoseconds: F.now, utcOffsetSeconds: 0,
                                              withheld: ["5d1c7a4e-2b3f-4c5d-8e9f-0a1b2c3d4e5f"])
        #expect(report.completedSessions == 2 && report.resultsWithheldSessions == 1)
        let line = report.recentSessions.first { $0.sessionID == "5d1c7a4e-2b3f-4c5d-8e9f-0a1b2c3d4e5f" }
        #expect(line?.resultsWithheld == true && line?.timeAcuityScore == nil && line?.meanAbsErrorSeconds == nil)
        // Only the shown session's one attempt is in the figures.
        #expect(report.intervals.first?.lastSevenDays.attemptCount == 1 && report.intervals.first?.lastZones.count == 1)
        #expect(report.intervals.first?.resultsWithheldSessions == 1)
        #expect(report.json.compactText.contains("\"results_withheld\":true"))
    }

    /// The read API's session list: the withheld session's results and record null and flagged, even
    /// on a page of the list that holds only it; the other one ends with its record, which decodes back to
    /// the session that was pushed.
    @Test(arguments: StoreKind.available)
    func theSessionListFlagsTheWithheldSessionAndEndsEachWithItsRecord(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let (plan, _) = try await IngestStudyTagTests.setUp(store)
            let withheld = IngestStudyTagTests.tagged(plan, position: 0, startedAgo: 29)
            let open = F.challenge(startedAgo: 40 * 3_600_000_000_000)
            _ = try await store.ingest(try IngestPlan.validate(F.batch([withheld, open])), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            let secret = CollectorCredentials.newReaderKey()
            try await store.addReaderKey(ReaderKey(id: "r1", name: "analysis", createdUnixNanoseconds: F.now), keySHA256: CollectorCredentials.keyDigest(secret))
            try await SyncRouteTests.withClient(store) { client in
                let listed = try await SyncRouteTests.get(client, "/api/v1/sessions", key: secret)
                let sessions = try #require(listed.json["sessions"] as? [[String: Any]])
                #expect(sessions.map { $0["id"] as? String } == [withheld.id, open.id])
                let hidden = sessions[0]
                #expect(hidden["results_withheld"] as? Bool == true && hidden["time_acuity_score"] is NSNull)
                #expect(hidden["mean_abs_error_seconds"] is NSNull && hidden["record"] is NSNull && hidden["done_count"] as? Int == 3)
                let shown = sessions[1]
                #expect(shown["results_withheld"] == nil && shown["time_acuity_score"] as? Int != nil)
                let record = try #require(shown["record"] as? [String: Any])
                #expect(record["schema"] as? Int == SyncedSession.schemaVersion)
                let decoded = try JSONDecoder().decode(SyncedSession.self, from: JSONSerialization.data(withJSONObject: record))
                #expect(decoded == open)

                let page = try await SyncRouteTests.get(client, "/api/v1/sessions?limit=1", key: secret)
                let only = try #require((page.json["sessions"] as? [[String: Any]])?.first)
                #expect(only["id"] as? String == withheld.id && only["results_withheld"] as? Bool == true && only["record"] is NSNull)
            }
        }
    }
}
