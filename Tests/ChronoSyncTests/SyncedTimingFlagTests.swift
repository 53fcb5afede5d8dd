import ChronoCore
import Foundation
import Testing
@testable import ChronoSync

/// The timing flag on the wire: optional, so a batch from a device older than the flag decodes as
/// before, and a forged value is refused with the field named.
@Suite("Synced session: the optional timing flag")
struct SyncedTimingFlagTests {
    static func flagged(_ lateness: TimeSpan?) throws -> SyncedSession {
        var outcome = try SyncedSessionTests.challenge()
        outcome.timingLateness = lateness
        return try #require(SyncedSessionTests.wire(outcome))
    }

    @Test("Sent as timing_late_ns and read back into the outcome; absent when on time")
    func roundTrip() throws {
        let session = try Self.flagged(.nanoseconds(1_500_123_456))
        let text = String(decoding: try JSONEncoder().encode(session), as: UTF8.self)
        #expect(text.contains("\"timing_late_ns\":1500123456"))
        let decoded = try JSONDecoder().decode(SyncedSession.self, from: Data(text.utf8))
        #expect(try decoded.validatedOutcome().timingLateness == .nanoseconds(1_500_123_456))
        let onTime = String(decoding: try JSONEncoder().encode(try Self.flagged(nil)), as: UTF8.self)
        #expect(!onTime.contains("timing_late_ns"))
    }

    @Test("A session from an older device (no key at all) decodes with no flag")
    func olderDevice() throws {
        var object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(try Self.flagged(.seconds(2)))) as! [String: Any]
        object.removeValue(forKey: "timing_late_ns")
        let decoded = try JSONDecoder().decode(SyncedSession.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(decoded.timingLateNanoseconds == nil)
        #expect(try decoded.validatedOutcome().timingLateness == nil)
    }

    @Test("Zero, negative or beyond the monotonic range: refused, naming the field", arguments: [Int64(0), -1, Int64.min, Int64.max])
    func refused(value: Int64) throws {
        var session = try Self.flagged(nil)
        session.timingLateNanoseconds = value
        #expect(throws: SyncValidationError.self) { try session.validatedOutcome() }
        do { _ = try session.validatedOutcome() } catch { #expect(error.problem.contains("timing_late_ns")) }
    }
}
