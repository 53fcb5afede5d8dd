import ChronoCore
import ChronoSync
import Foundation

/// A collector's reply as the device receives it: decoded as a receipt (and as a grant), through
/// `SyncReplyValidation` against a batch made to fit it, and for what is accepted, everything the
/// device then does with it (the sums of `sync now`'s summary, the preference merge and the next
/// clock, the assignment's validator). Nothing may trap, and an accepted reply must keep the bounds
/// the validator promises.
func fuzzReceipt(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size <= 1 << 20 else { return 0 }
    let bytes = Data(bytes: data, count: size)
    if let grant = try? JSONDecoder().decode(EnrolmentGrant.self, from: bytes), let accepted = try? SyncReplyValidation.validated(grant) {
        precondition(!accepted.key.utf8.contains { $0 < 0x21 || $0 > 0x7E }, "an accepted key holds a byte a header cannot")
        precondition(CanonicalUUID(accepted.collectorID) != nil, "an accepted collector id is not a UUID")
    }
    guard let receipt = try? JSONDecoder().decode(SyncReceipt.self, from: bytes) else { return 0 }
    // The batch it answers: as many sessions as its counts claim (bounded as a batch is), with the
    // ids it refuses when they are UUIDs, and its acknowledgement as the batch's cursor.
    let limit = SyncProtocol.maximumSessionsPerBatch
    let count = [receipt.accepted, receipt.duplicates, receipt.refused?.count ?? 0].reduce(0) { sum, part in
        (0...limit).contains(part) ? min(sum + part, limit) : sum
    }
    let ids = (receipt.refused ?? []).compactMap { CanonicalUUID($0.sessionID)?.text }
    let sessions = (0..<count).map { index -> SyncedSession in
        var session = template
        session.id = index < ids.count ? ids[index] : String(format: "00000000-0000-4000-8000-%012d", index)
        return session
    }
    let batch = SyncBatch(deviceID: "0b9e0c5e-6b8f-4a55-9b1e-6f0d8e1f2a3b", cursorAfter: 0, cursorThrough: receipt.acknowledgedThrough,
                          sessions: sessions, preferences: [])
    guard let accepted = try? SyncReplyValidation.validated(receipt, for: batch) else { return 0 }
    precondition(accepted.accepted >= 0 && accepted.duplicates >= 0, "an accepted count is negative")
    precondition(accepted.accepted + accepted.duplicates + (accepted.refused?.count ?? 0) <= batch.sessions.count, "accepted counts past the batch")
    precondition(accepted.preferences.allSatisfy { PreferenceMerge.acceptsClock($0.clock) }, "an accepted clock is out of range")
    precondition(accepted.preferences.count <= SyncReplyValidation.maximumPreferences, "too many accepted preferences")
    let next = PreferenceMerge.nextClock(after: accepted.preferences)
    precondition(PreferenceMerge.acceptsClock(next), "the next clock is out of range")
    _ = PreferenceMerge.merge(accepted.preferences, accepted.preferences)
    _ = try? accepted.study?.validated()
    return 0
}

/// One valid session (the sync-batch seed's first), copied under each id.
let template: SyncedSession = {
    let json = #"{"id":"9FC018DF-3D50-4885-A909-0084F2EA4E5B","mode":"challenge","status":"completed","target_interval_ms":10000,"planned_count":2,"fear_threshold":0.1,"interval_pattern":"S L S","auto_start_next_attempt":false,"feedback_ms":1500,"abort_window_ms":3000,"debounce_ms":30,"long_press_ms":1500,"started_mono_ns":5000000000,"ended_mono_ns":28000000000,"anchor_unix_ns":1795000000000000000,"anchor_mono_ns":5000000000,"utc_offset_seconds":3600,"wall_clock_synchronised":true,"board":"raspberry-pi-4b","sound_audible_at_start":true,"fear_sound_effective":false,"attempts":[{"index":1,"start_mono_ns":6000000000,"tap_mono_ns":17000000000},{"index":2,"start_mono_ns":19000000000,"tap_mono_ns":28000000000}],"boundaries":[],"health_decision":"record"}"#
    return try! JSONDecoder().decode(SyncedSession.self, from: Data(json.utf8))
}()
