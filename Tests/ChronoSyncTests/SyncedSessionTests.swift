import ChronoCore
import Foundation
import Testing
@testable import ChronoSync

/// The wire form of a session: what a device sends is what a collector rebuilds, and a collector
/// refuses what the device would never have stored.
struct SyncedSessionTests {
    static let anchor = WallClockAnchor(unixNanoseconds: 1_790_000_000_000_000_000, monotonic: MonotonicInstant(nanoseconds: 5_000_000_000),
                                        utcOffsetSeconds: 3600)

    static func challenge(status: SessionStatus = .completed) throws -> SessionOutcome {
        let configuration = try SessionConfiguration(mode: .challenge, interval: TrainingInterval(seconds: 30), plannedCount: 2)
        let start = MonotonicInstant(nanoseconds: 5_000_000_000)
        return SessionOutcome(
            status: status, configuration: configuration, startedAt: start, endedAt: start + .milliseconds(64_900),
            attempts: [
                AttemptMeasurement(index: 1, target: configuration.interval, startMark: start + .milliseconds(400), tapMark: start + .milliseconds(31_900)),
                AttemptMeasurement(index: 2, target: configuration.interval, startMark: start + .milliseconds(35_000), tapMark: start + .milliseconds(64_900)),
            ],
            boundaries: [], fearSoundEffective: false, reason: status == .completed ? nil : "discarded")
    }

    static func wire(_ outcome: SessionOutcome) -> SyncedSession? {
        SyncedSession(sessionID: "0b7c2f4e-3a51-4c7e-9d0a-5f1e2d3c4b5a", outcome: outcome, anchor: anchor, board: "raspberry-pi-4b",
                      wallClockSynchronised: true, soundAudibleAtStart: true, boundariesFired: [])
    }

    @Test func aCompletedSessionRoundTripsThroughJSONToTheSameOutcome() throws {
        let outcome = try Self.challenge()
        let session = try #require(Self.wire(outcome))
        let decoded = try JSONDecoder().decode(SyncedSession.self, from: JSONEncoder().encode(session))
        #expect(decoded == session)
        #expect(try decoded.validatedOutcome() == outcome)
        #expect(decoded.anchor == Self.anchor)
        #expect(decoded.healthDecision == "record")
        // The collector's metrics are the device's: 1.5 s over, then 0.1 s under.
        #expect(try decoded.validatedOutcome().attempts.map(\.signedError.milliseconds) == [1500, -100])
    }

    @Test func abortedAndInterruptedSessionsNeverBecomeWireSessions() throws {
        #expect(Self.wire(try Self.challenge(status: .aborted)) == nil)
        #expect(Self.wire(try Self.challenge(status: .interrupted)) == nil)
    }

    @Test func theWireNamesAreSnakeCaseAsDocumented() throws {
        let session = try #require(Self.wire(try Self.challenge()))
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(session)) as? [String: Any])
        #expect(Set(object.keys) == [
            "id", "mode", "status", "target_interval_ms", "planned_count", "fear_threshold", "interval_pattern",
            "auto_start_next_attempt", "feedback_ms", "abort_window_ms", "debounce_ms", "long_press_ms",
            "started_mono_ns", "ended_mono_ns", "anchor_unix_ns", "anchor_mono_ns", "utc_offset_seconds",
            "wall_clock_synchronised", "board", "sound_audible_at_start", "fear_sound_effective", "attempts", "boundaries",
            "health_decision",
        ])
        let attempts = try #require(object["attempts"] as? [[String: Any]])
        #expect(attempts.first?["tap_mono_ns"] as? Int64 == 36_900_000_000)
    }

    @Test(arguments: [
        ("status", "aborted", "only completed sessions are synced"),
        ("mode", "nap", "is not challenge, fear, passive or reproduction"),
        ("id", "session-42", "not a UUID"),
        ("target_interval_ms", "0", "outside 1…7259000"),
        ("interval_pattern", "X", "not an interval pattern"),
        ("health_decision", "maybe", "not record or skip"),
    ])
    func aCollectorRefusesABadFieldByName(field: String, value: String, problem: String) throws {
        let session = try #require(Self.wire(try Self.challenge()))
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(session)) as? [String: Any])
        object[field] = Int64(value).map { $0 as Any } ?? value
        let bad = try JSONDecoder().decode(SyncedSession.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(throws: SyncValidationError.self) { try bad.validatedOutcome() }
        do { _ = try bad.validatedOutcome() } catch { #expect(error.description.contains(problem)) }
    }

    @Test func attemptsOutsideTheirSessionAreRefused() throws {
        var session = try #require(Self.wire(try Self.challenge()))
        session.attempts[1].tapMonotonicNanoseconds = session.endedMonotonicNanoseconds + 1
        #expect(throws: SyncValidationError(sessionID: session.id, rule: "session_order", problem: "attempt 2's tap comes after the session ended")) {
            try session.validatedOutcome()
        }
    }
}
