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

    static func wire(_ outcome: SessionOutcome) -> SyncedSession {
        SyncedSession(sessionID: "0b7c2f4e-3a51-4c7e-9d0a-5f1e2d3c4b5a", outcome: outcome, anchor: anchor, board: "raspberry-pi-4b",
                      wallClockSynchronised: true, soundAudibleAtStart: true, boundariesFired: [])
    }

    @Test func aCompletedSessionRoundTripsThroughJSONToTheSameOutcome() throws {
        let outcome = try Self.challenge()
        let session = Self.wire(outcome)
        let decoded = try JSONDecoder().decode(SyncedSession.self, from: JSONEncoder().encode(session))
        #expect(decoded == session)
        #expect(try decoded.validatedOutcome() == outcome)
        #expect(decoded.anchor == Self.anchor)
        #expect(decoded.healthDecision == "record")
        // The collector's metrics are the device's: 1.5 s over, then 0.1 s under.
        #expect(try decoded.validatedOutcome().attempts.map(\.signedError.milliseconds) == [1500, -100])
    }

    /// A study counts dropout: an aborted or interrupted session travels with its status and reason,
    /// and with no health record.
    @Test(arguments: [SessionStatus.aborted, .interrupted])
    func anUnfinishedSessionTravelsWithItsStatusAndReason(status: SessionStatus) throws {
        let outcome = try Self.challenge(status: status)
        let session = Self.wire(outcome)
        #expect(session.status == status.rawValue)
        #expect(session.reason == "discarded")
        #expect(session.healthDecision == "skip")
        let decoded = try JSONDecoder().decode(SyncedSession.self, from: JSONEncoder().encode(session))
        #expect(decoded == session)
        #expect(try decoded.validatedOutcome() == outcome)
    }

    @Test func anUnfinishedSessionClaimingAHealthRecordIsRefused() throws {
        var session = Self.wire(try Self.challenge(status: .aborted))
        session.healthDecision = "record"
        #expect(throws: SyncValidationError(sessionID: session.id, rule: "session_shape",
                                            problem: "health_decision is 'record' for a session that is aborted; only completed sessions are logged")) {
            try session.validatedOutcome()
        }
    }

    @Test func aReasonLongerThanTheCoresBoundIsRefused() throws {
        var session = Self.wire(try Self.challenge(status: .interrupted))
        session.reason = String(repeating: "r", count: SessionValidation.maximumReasonLength + 1)
        #expect(throws: SyncValidationError(sessionID: session.id, rule: "session_text", problem: "the reason is 501 characters long; at most 500")) {
            try session.validatedOutcome()
        }
    }

    /// The device's own sentence for a skipped health record is bounded like a reason, and printable.
    @Test func aHealthSkipReasonTooLongOrWithControlCharactersIsRefused() throws {
        var session = Self.wire(try Self.challenge(status: .aborted))
        #expect(session.healthSkipReason == "The session was aborted; aborted sessions are never logged.")
        #expect(throws: Never.self) { try session.validatedOutcome() }
        session.healthSkipReason = String(repeating: "s", count: SessionValidation.maximumReasonLength + 1)
        #expect(throws: SyncValidationError(sessionID: session.id, rule: "session_text", problem: "health_skip_reason is 501 characters long; at most 500")) {
            try session.validatedOutcome()
        }
        for unsafe in ["aborted\u{1B}[2J", "aborted\nnext", "\u{202E}detroba"] {
            session.healthSkipReason = unsafe
            #expect(throws: SyncValidationError(sessionID: session.id, rule: "session_text",
                                                problem: "health_skip_reason holds a control character or a text-direction mark")) {
                try session.validatedOutcome()
            }
        }
    }

    /// A batch from a device older than the field: no `reason` member, still read.
    @Test func aSessionWithoutAReasonMemberDecodes() throws {
        let session = Self.wire(try Self.challenge())
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(session)) as? [String: Any])
        #expect(object["reason"] == nil)
        object.removeValue(forKey: "reason")
        let decoded = try JSONDecoder().decode(SyncedSession.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(decoded.reason == nil)
        #expect(try decoded.validatedOutcome() == (try Self.challenge()))
    }

    /// The record names its schema; one without the member (schema 1, devices older than it) is read,
    /// and one newer than this program's is refused whole, not read with its new members dropped.
    @Test func theSchemaIsExplicitAndANewerOneIsRefused() throws {
        let session = Self.wire(try Self.challenge())
        #expect(session.schema == 2 && SyncedSession.schemaVersion == 2)
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(session)) as? [String: Any])
        #expect(object["schema"] as? Int == 2)
        object.removeValue(forKey: "schema")
        let older = try JSONDecoder().decode(SyncedSession.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(older.schema == nil)
        #expect(try older.validatedOutcome() == (try Self.challenge()))
        var newer = session
        newer.schema = 3
        #expect(throws: SyncValidationError(sessionID: session.id, rule: "session_schema",
                                            problem: "the record's schema 3 is newer than this program's 2; upgrade this program (a collector is upgraded before its devices, docs/SYNC.md)")) {
            try newer.validatedOutcome()
        }
        newer.schema = 0
        #expect(throws: SyncValidationError.self) { try newer.validatedOutcome() }
    }

    @Test func theWireNamesAreSnakeCaseAsDocumented() throws {
        let session = Self.wire(try Self.challenge())
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(session)) as? [String: Any])
        #expect(Set(object.keys) == [
            "schema", "id", "mode", "status", "target_interval_ms", "planned_count", "fear_threshold", "interval_pattern",
            "auto_start_next_attempt", "feedback_ms", "abort_window_ms", "debounce_ms", "long_press_ms",
            "started_mono_ns", "ended_mono_ns", "anchor_unix_ns", "anchor_mono_ns", "utc_offset_seconds",
            "wall_clock_synchronised", "board", "sound_audible_at_start", "fear_sound_effective", "attempts", "boundaries",
            "health_decision",
        ])
        let attempts = try #require(object["attempts"] as? [[String: Any]])
        #expect(attempts.first?["tap_mono_ns"] as? Int64 == 36_900_000_000)
    }

    @Test(arguments: [
        ("status", "running", "a running session is never synced"),
        ("mode", "nap", "is not challenge, fear, passive or reproduction"),
        ("id", "session-42", "not a UUID"),
        ("target_interval_ms", "0", "outside 1…7259000"),
        ("interval_pattern", "X", "not an interval pattern"),
        ("health_decision", "maybe", "not record or skip"),
    ])
    func aCollectorRefusesABadFieldByName(field: String, value: String, problem: String) throws {
        let session = Self.wire(try Self.challenge())
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(session)) as? [String: Any])
        object[field] = Int64(value).map { $0 as Any } ?? value
        let bad = try JSONDecoder().decode(SyncedSession.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(throws: SyncValidationError.self) { try bad.validatedOutcome() }
        do { _ = try bad.validatedOutcome() } catch { #expect(error.description.contains(problem)) }
    }

    @Test func attemptsOutsideTheirSessionAreRefused() throws {
        var session = Self.wire(try Self.challenge())
        session.attempts[1].tapMonotonicNanoseconds = session.endedMonotonicNanoseconds + 1
        #expect(throws: SyncValidationError(sessionID: session.id, rule: "session_order", problem: "attempt 2's tap comes after the session ended")) {
            try session.validatedOutcome()
        }
    }
}
