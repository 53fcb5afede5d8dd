import ChronoCore
import ChronoSync
import Foundation

/// A sync batch as a collector receives it: decoded, every session through the core's validation, and
/// for the sessions accepted, everything the collector computes from them (wall times, metrics, the
/// canonical id). Nothing may trap, and an accepted session must satisfy the core's invariants.
func fuzzSyncBatch(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size <= 1 << 20 else { return 0 }
    guard let batch = try? JSONDecoder().decode(SyncBatch.self, from: Data(bytes: data, count: size)) else { return 0 }
    for preference in batch.preferences where PreferenceMerge.acceptsClock(preference.clock) {
        _ = PreferenceMerge.nextClock(after: [preference])
    }
    _ = PreferenceMerge.merge([], batch.preferences)
    for session in batch.sessions {
        guard let outcome = try? session.validatedOutcome() else { continue }
        let anchor = session.anchor
        precondition(anchor.checkedUnixNanoseconds(at: outcome.startedAt) != nil, "an accepted session starts outside the wall-clock range")
        precondition(anchor.checkedUnixNanoseconds(at: outcome.endedAt) != nil, "an accepted session ends outside the wall-clock range")
        precondition(CanonicalUUID(session.canonicalID)?.text == session.canonicalID, "the canonical id is not canonical")
        _ = anchor.wallTime(at: outcome.endedAt).iso8601
        if outcome.mode.usesAttempts, !outcome.attempts.isEmpty {
            let metrics = outcome.metrics
            _ = metrics.timeAcuityScore
        }
        _ = outcome.totalDurationSeconds
        _ = HealthRecordBuilder.decide(for: outcome, sessionID: session.canonicalID, device: session.board, anchor: anchor)
    }
    return 0
}
