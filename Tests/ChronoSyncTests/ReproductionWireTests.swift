import ChronoCore
import Foundation
import Testing
@testable import ChronoSync

/// Contract item 3: a Reproduction attempt on the wire is `start` (the press that starts the
/// reproduction), `tap` (the press that ends it) and the presented interval's two onsets.
@Suite("Reproduction on the wire: presented_start_mono_ns and presented_end_mono_ns")
struct ReproductionWireTests {
    static func reproduction(presentedEnd: Int64 = 17_000) throws -> SessionOutcome {
        let configuration = try SessionConfiguration(mode: .reproduction, interval: TrainingInterval(seconds: 10))
        let start = MonotonicInstant(nanoseconds: 5_000_000_000)
        return SessionOutcome(
            status: .completed, configuration: configuration, startedAt: start, endedAt: start + .milliseconds(28_300),
            attempts: [AttemptMeasurement(index: 1, target: configuration.interval, startMark: start + .milliseconds(17_800),
                                          tapMark: start + .milliseconds(28_300), presentedStart: start + .milliseconds(7_000),
                                          presentedEnd: start + .milliseconds(presentedEnd))],
            boundaries: [], fearSoundEffective: false, reason: nil)
    }

    @Test("a Reproduction session round-trips with its presented marks; produced = tap − start, ratio 1.05")
    func roundTrip() throws {
        let outcome = try Self.reproduction()
        let session = try #require(SyncedSessionTests.wire(outcome))
        let data = try JSONEncoder().encode(session)
        let attempt = try #require(((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["attempts"] as? [[String: Any]])?.first)
        #expect(attempt["start_mono_ns"] as? Int64 == 22_800_000_000)
        #expect(attempt["tap_mono_ns"] as? Int64 == 33_300_000_000)
        #expect(attempt["presented_start_mono_ns"] as? Int64 == 12_000_000_000)
        #expect(attempt["presented_end_mono_ns"] as? Int64 == 22_000_000_000)
        let decoded = try JSONDecoder().decode(SyncedSession.self, from: data)
        #expect(try decoded.validatedOutcome() == outcome)
        #expect(try decoded.validatedOutcome().attempts[0].ratio == 1.05)
    }

    @Test("other modes' attempts carry no presented members, so their JSON is as before")
    func otherModes() throws {
        let session = try #require(SyncedSessionTests.wire(try SyncedSessionTests.challenge()))
        let text = String(decoding: try JSONEncoder().encode(session), as: UTF8.self)
        #expect(!text.contains("presented_"))
    }

    @Test("a presented interval that ends before it starts is refused with session_order")
    func refused() throws {
        var session = try #require(SyncedSessionTests.wire(try Self.reproduction()))
        session.attempts[0].presentedEndMonotonicNanoseconds = 11_000_000_000
        #expect(throws: SyncValidationError.self) { try session.validatedOutcome() }
        do { _ = try session.validatedOutcome() } catch { #expect(error.rule == "session_order") }
    }
}
