import ChronoCollector
import ChronoCore
import ChronoSync
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The analysis routes through the router on both stores: a tagged session stored and read back
/// keeps its study tag, so the figures come grouped by condition; the CSV tables, the tidy export and
/// its codebook; refusals name the fix.
@Suite("Collector analysis routes")
struct StudyAnalysisRouteTests {
    typealias F = CollectorFixtures
    typealias R = SyncRouteTests

    @Test(arguments: StoreKind.available)
    func theEstimatesTheirCSVsAndTheTidyExport(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await F.enrol(store)
            // The tag is taken for the device's participant and a protocol assigned to them.
            _ = try await CollectorStudyTests.load(store, try CollectorStudyTests.example())
            _ = try await CollectorStudyTests.assign(store, "P001")
            var tagged = F.challenge(errorsMilliseconds: [500, -1000, 2000])
            tagged.study = StudyTag(protocolName: "sleep-2026", protocolVersion: 1, participant: "P001", blockIndex: 0,
                                   blockName: "pre", planPosition: 0, condition: "feedback-off", feedbackShown: false)
            _ = try await store.ingest(try IngestPlan.validate(F.batch([tagged, F.challenge(intervalSeconds: 20, errorsMilliseconds: [100, 300]), F.passive()])),
                                       deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            let secret = CollectorCredentials.newReaderKey()
            try await store.addReaderKey(ReaderKey(id: "r1", name: "analysis", createdUnixNanoseconds: F.now), keySHA256: CollectorCredentials.keyDigest(secret))
            try await R.withClient(store) { client in
                var answer = try await R.get(client, "/api/v1/analysis")
                #expect(answer.status == .unauthorized && answer.errorCode == "key_required")
                answer = try await R.get(client, "/api/v1/analysis?participant=P001", key: secret)
                #expect(answer.status == .ok)
                let participants = try #require(answer.json["participants"] as? [[String: Any]])
                let groups = try #require(participants.first?["groups"] as? [[String: Any]])
                #expect(groups.map { $0["condition"] as? String } == [nil, "feedback-off"])
                #expect(groups.map { $0["attempts"] as? Int } == [2, 3])
                let cells = try #require(groups[1]["cells"] as? [[String: Any]])
                #expect(cells.first?["n"] as? Int == 3 && cells.first?["target_ns"] as? Int == 10_000_000_000)
                #expect((cells.first?["mean_s"] as? Double).map { abs($0 - 10.5) < 1e-12 } == true)
                let feedback = try #require(participants.first?["feedback"] as? [[String: Any]])
                #expect(feedback.first?["withheld_attempts"] as? Int == 3 && feedback.first?["shown_attempts"] as? Int == 2)

                answer = try await R.get(client, "/api/v1/analysis.csv?table=estimates", key: secret)
                #expect(answer.status == .ok && answer.headers[.contentType]?.hasPrefix("text/csv") == true)
                #expect(answer.text.split(separator: "\r\n").count == 3)
                answer = try await R.get(client, "/api/v1/analysis.csv?table=pivot", key: secret)
                #expect(answer.status == .badRequest && answer.errorCode == "invalid_request" && answer.text.contains("cells or estimates"))
                answer = try await R.get(client, "/api/v1/analysis?participant=P404", key: secret)
                #expect(answer.status == .notFound && answer.errorCode == "unknown_participant")
                answer = try await R.get(client, "/api/v1/export-tidy.csv?device=P001", key: secret)
                // The header, five attempts and three boundaries.
                #expect(answer.status == .ok && answer.text.split(separator: "\r\n").count == 1 + 5 + 3)
                #expect(answer.text.contains(",sleep-2026,1,0,pre,0,feedback-off,FALSE,attempt,1,10000000000,10.0,10500000000,"))
                answer = try await R.get(client, "/api/v1/export-tidy-codebook.csv", key: secret)
                #expect(answer.status == .ok && answer.text == TidyCodebook.csv)
                answer = try await R.get(client, "/collector-analysis.html")
                #expect(answer.status == .ok && answer.text.contains("participant-picker"))
            }
        }
    }
}
