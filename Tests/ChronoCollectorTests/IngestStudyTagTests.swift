import ChronoCollector
import ChronoCore
import ChronoSync
import Foundation
import Testing

/// A device's study tag is a claim checked at ingest (issue 34, item 6): a device enrolled for P1
/// cannot complete P2's plan, nor a protocol P1 was never assigned. On both stores.
@Suite("Collector: study tags at ingest")
struct IngestStudyTagTests {
    typealias F = CollectorFixtures
    typealias S = CollectorStudyTests

    /// P1's and P2's assignments of the example protocol, and a tagged session of each plan.
    static func setUp(_ store: any CollectorStore) async throws -> (mine: StudyPlan, theirs: StudyPlan) {
        _ = try await F.enrol(store, name: "P1-pi", participant: "P1")
        _ = try await S.load(store, try S.example())
        let start = F.now - 30 * 3_600_000_000_000
        _ = try await S.assign(store, "P1", seed: 1, start: start)
        _ = try await S.assign(store, "P2", seed: 2, start: start)
        let mine = try #require(try await store.studyAssignment(deviceID: F.deviceID)).validated().plan
        let theirs = try SyncedStudyAssignment(protocolName: "sleep-2026", protocolVersion: 1, document: try S.example(), participant: "P2",
                                               participantIndex: 1, startUnixNanoseconds: start, seed: 2).validated().plan
        return (mine, theirs)
    }

    static func tagged(_ plan: StudyPlan, position: Int, startedAgo hours: Int64) -> SyncedSession {
        var session = F.challenge(startedAgo: hours * 3_600_000_000_000)
        session.study = plan.tag(for: plan.sessions[position])
        return session
    }

    @Test(arguments: StoreKind.available)
    func anotherParticipantsTagIsRefusedPerSessionAndCounted(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let (mine, theirs) = try await Self.setUp(store)
            let own = Self.tagged(mine, position: 0, startedAgo: 29)
            let forged = [Self.tagged(theirs, position: 0, startedAgo: 28), Self.tagged(theirs, position: 1, startedAgo: 25)]
            let untagged = F.challenge(startedAgo: 2)
            let receipt = try await store.ingest(try IngestPlan.validate(F.batch([own] + forged + [untagged])), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            #expect(receipt.accepted == 2 && receipt.duplicates == 0)
            #expect(receipt.acknowledgedThrough == 4)
            #expect(receipt.refused == forged.map {
                SyncRefusedSession(sessionID: $0.id, rule: IngestStudyTags.participantRule,
                                   reason: "the session is tagged for participant P2, but this device is enrolled for P1; a device reports its own participant's sessions only")
            })
            // P2's plan is as it was: nothing done. P1's has its one session.
            let status = try await store.studyStatus(nowUnixNanoseconds: F.now)
            #expect(status.map(\.assignment.participant) == ["P1", "P2"])
            #expect(status.map { $0.status?.done } == [1, 0])
            let stored = try await store.sessions(CollectorSessionQuery(device: F.deviceID)).map(\.session.id)
            #expect(Set(stored) == [own.id, untagged.id])
            // Counted on the device, and again for each refused push.
            #expect(try await store.devices().map(\.refusedSessionCount) == [2])
            let again = try await store.ingest(try IngestPlan.validate(F.batch(forged, after: 4)), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            #expect(again.accepted == 0 && again.duplicates == 0 && again.refused?.count == 2)
            #expect(try await store.devices().map(\.refusedSessionCount) == [4])
            // A batch with no tags: no `refused` member at all.
            let clean = try await store.ingest(try IngestPlan.validate(F.batch([F.challenge(startedAgo: 1)], after: 6)), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            #expect(clean.refused == nil && clean.accepted == 1)
        }
    }

    /// Aborted and interrupted study sessions arrive with their status and reason (a study counts
    /// dropout), and the plan counts only completed ones as done, as the device's own schedule does.
    @Test(arguments: StoreKind.available)
    func anAbortedStudySessionIsKeptButNotDone(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let (mine, _) = try await Self.setUp(store)
            let done = Self.tagged(mine, position: 0, startedAgo: 29)
            var dropped = Self.tagged(mine, position: 1, startedAgo: 25)
            dropped.status = "aborted"
            dropped.healthDecision = "skip"
            dropped.reason = "Discarded by a long press."
            let receipt = try await store.ingest(try IngestPlan.validate(F.batch([done, dropped])), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            #expect(receipt.accepted == 2 && receipt.refused == nil)
            #expect(try await store.studyStatus(nowUnixNanoseconds: F.now).map { $0.status?.done } == [1, 0])
            let stored = try await store.sessions(CollectorSessionQuery(device: F.deviceID))
            let back = try #require(stored.first { $0.session.id == dropped.id })
            #expect(back.session.status == "aborted" && back.session.reason == "Discarded by a long press.")
            // Neither the analysis nor the tidy export takes it as a measurement.
            #expect(Set(StudyObservations.of(stored).map(\.sessionID)) == [done.id])
            #expect(TidyExport.rows(back).isEmpty)
        }
    }

    @Test(arguments: StoreKind.available)
    func aProtocolNeverAssignedAndADeviceWithoutParticipantAreRefused(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let (mine, _) = try await Self.setUp(store)
            var other = Self.tagged(mine, position: 0, startedAgo: 29)
            other.study?.protocolVersion = 2
            let receipt = try await store.ingest(try IngestPlan.validate(F.batch([other])), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            #expect(receipt.refused == [SyncRefusedSession(sessionID: other.id, rule: IngestStudyTags.protocolRule,
                                                           reason: "the session is tagged for protocol sleep-2026@2, which participant P1 was never assigned on this collector")])
            // An ended assignment still takes the sessions run while it was active.
            _ = try await store.unassignStudy(participant: "P1", nowUnixNanoseconds: F.now + 2)
            let late = Self.tagged(mine, position: 1, startedAgo: 25)
            #expect(try await store.ingest(try IngestPlan.validate(F.batch([late], after: 1)), deviceID: F.deviceID, nowUnixNanoseconds: F.now).accepted == 1)

            _ = try await F.enrol(store, name: "loose", participant: nil, device: F.otherDeviceID)
            let loose = Self.tagged(mine, position: 2, startedAgo: 5)
            let refused = try await store.ingest(try IngestPlan.validate(F.batch([loose], device: F.otherDeviceID)), deviceID: F.otherDeviceID, nowUnixNanoseconds: F.now)
            #expect(refused.refused?.map(\.rule) == [IngestStudyTags.participantRule])
            #expect(refused.refused?.first?.reason.contains("enrolled for no participant") == true)
        }
    }

    @Test("a condition label or participant with U+202E is refused by the one text rule, in a protocol and in a tag")
    func bidiControlsInLabels() throws {
        let text = try S.example()
        let block = "pre"
        // The example's first block's condition with a right-to-left override.
        let hostile = text.replacingOccurrences(of: "\"condition\": \"feedback-off\"", with: "\"condition\": \"feedback\u{202E}off\"")
        #expect(hostile != text)
        #expect(throws: Never.self) { try StudyProtocol.parse(text) }
        // The consent and description a page shows: the same rule, line breaks allowed.
        let consent = try #require(try StudyProtocol.parse(text).consent)
        // JSON escapes, so the document stays JSON and the parsed text holds the character itself.
        for (mark, refused) in [(#"\u202E"#, true), (#"\u2066"#, true), (#"\u001B[2J"#, true), (#"\r"#, true), (#"\n\nSecond paragraph."#, false)] {
            let changed = text.replacingOccurrences(of: consent, with: consent + mark)
            #expect(((try? StudyProtocol.parse(changed)) == nil) == refused, "\(mark)")
        }
        #expect(throws: (any Error).self) { try StudyProtocol.parse(hostile) }
        var session = F.challenge()
        session.study = StudyTag(protocolName: "sleep-2026", protocolVersion: 1, participant: "P1", blockIndex: 0, blockName: block,
                                 planPosition: 0, condition: "calm\u{202E}x", feedbackShown: true)
        #expect(throws: CollectorError.self) { try IngestPlan.validate(F.batch([session])) }
        #expect(throws: CollectorError.self) { try CollectorCredentials.validName("P\u{202E}1") }
    }
}
