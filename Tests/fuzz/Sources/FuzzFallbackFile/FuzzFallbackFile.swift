import ChronoCore
import ChronoStore

/// A fallback file as `chronoception import` reads it: the one decoder, then the core's rules. A file
/// it accepts must round-trip (written back and read again, the same session) and must compute what
/// the store computes from it (wall times, metrics, the health decision) without trapping.
func fuzzFallbackFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size <= 1 << 20 else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let record = try? UnsavedSessionFile.parse(text, allowTestIntervals: size % 2 == 0) else { return 0 }
    precondition(CanonicalUUID(record.sessionID)?.text == record.sessionID, "an accepted id is not canonical")
    let again = try? UnsavedSessionFile.parse(UnsavedSessionFile.text(record), allowTestIntervals: true)
    precondition(again?.outcome == record.outcome && again?.sessionID == record.sessionID && again?.anchor == record.anchor,
                 "an accepted file does not round-trip")
    let outcome = record.outcome
    precondition(record.anchor.checkedUnixNanoseconds(at: outcome.endedAt) != nil, "an accepted session ends outside the wall-clock range")
    _ = record.anchor.wallTime(at: outcome.startedAt).iso8601
    if !outcome.attempts.isEmpty { _ = outcome.metrics.timeAcuityScore }
    _ = outcome.totalDurationSeconds
    _ = record.healthDecision
    return 0
}
