import ChronoCollector
import ChronoSync
import Testing

/// The collector's pure parts: codes and keys, the batch check, the database URL.
@Suite("Collector pure parts")
struct CollectorPureTests {
    typealias F = CollectorFixtures

    @Test func codesAreTwelveBase32CharactersReadForgivingly() {
        let code = CollectorCredentials.newCode()
        #expect(code.count == 14 && code.split(separator: "-").map(\.count) == [4, 4, 4])
        #expect(Set((0..<50).map { _ in CollectorCredentials.newCode() }).count == 50)
        let digest = CollectorCredentials.codeDigest(code)
        #expect(digest?.count == 64)
        #expect(CollectorCredentials.codeDigest(code.lowercased().replacingOccurrences(of: "-", with: " ")) == digest)
        // Crockford: O reads as 0, I and L as 1.
        #expect(CollectorCredentials.normalisedCode("O1L0-abcd-efgh") == "0110ABCDEFGH")
        #expect(CollectorCredentials.normalisedCode("ABCD-EFGH-JKMU") == nil)
        #expect(CollectorCredentials.normalisedCode("ABCD-EFGH") == nil)
        #expect(CollectorCredentials.newDeviceKey().hasPrefix("ccd_") && CollectorCredentials.newDeviceKey().count == 4 + 43)
        #expect(CollectorCredentials.isUUID(CollectorCredentials.newUUID()))
    }

    @Test func aBatchIsCheckedWhole() throws {
        var batch = F.batch([F.challenge(), F.passive()])
        let plan = try IngestPlan.validate(batch)
        #expect(plan.sessions.count == 2 && plan.sessions[0].metrics?.attemptCount == 3 && plan.sessions[1].metrics == nil)
        #expect(plan.sessions[0].startedUnixNanoseconds == F.now - 3_600_000_000_000)

        batch.protocolVersion = 2
        #expect(throws: CollectorError.self) { try IngestPlan.validate(batch) }
        // An aborted session travels (a study counts dropout), with no health record; one claiming a
        // record refuses the batch, naming it.
        var aborted = F.challenge()
        aborted.status = "aborted"
        aborted.healthDecision = "skip"
        aborted.reason = "Discarded by a long press."
        #expect(try IngestPlan.validate(F.batch([F.challenge(), aborted])).sessions.map(\.outcome.status) == [.completed, .aborted])
        aborted.healthDecision = "record"
        do {
            _ = try IngestPlan.validate(F.batch([F.challenge(), aborted]))
            Issue.record("an aborted session with a health record was accepted")
        } catch {
            guard case .invalidBatch(let message) = error else { Issue.record("\(error)"); return }
            #expect(message.contains(aborted.id) && message.contains("health_decision is 'record' for a session that is aborted"))
        }
        #expect(throws: CollectorError.batchTooLarge("A batch holds at most 200 sessions; this one has 201. Send smaller batches.")) {
            try IngestPlan.validate(F.batch((0...200).map { _ in F.passive() }))
        }
        let badValue = StampedPreference(key: "default-attempts", value: "500", clock: 1, origin: .device)
        #expect(throws: CollectorError.self) { try IngestPlan.validate(F.batch([], preferences: [badValue])) }
        var backwards = F.batch([])
        backwards.cursorAfter = 5
        backwards.cursorThrough = 4
        #expect(throws: CollectorError.self) { try IngestPlan.validate(backwards) }
    }

    @Test func theDatabaseURLIsParsedAndNeverShowsItsPassword() throws {
        let url = try PostgresURL.parse("postgres://chrono:s%40cret@db.example.org:6543/study?sslmode=require", environment: [:])
        #expect(url.user == "chrono" && url.password == "s@cret" && url.host == "db.example.org" && url.port == 6543)
        #expect(url.database == "study" && url.tls == .require)
        #expect(url.description == "postgres://chrono@db.example.org:6543/study?sslmode=require")
        let fromEnvironment = try PostgresURL.parse("postgresql://chrono@127.0.0.1/chronoception", environment: ["PGPASSWORD": "pw"])
        #expect(fromEnvironment.password == "pw" && fromEnvironment.port == 5432 && fromEnvironment.tls == .prefer)
        let socket = try PostgresURL.parse("postgres://chrono@%2Frun%2Fpostgresql/chronoception", environment: [:])
        #expect(socket.host == "/run/postgresql")
        for bad in ["mysql://a@b/c", "postgres://db.example.org/c", "postgres://a@b", "postgres://a@b/c?ssl=1", "not a url"] {
            #expect(throws: CollectorError.self) { try PostgresURL.parse(bad, environment: [:]) }
        }
        do {
            _ = try PostgresURL.parse("mysql://u:topsecret@h/d", environment: [:])
        } catch {
            #expect(!error.description.contains("topsecret"))
        }
    }
}
