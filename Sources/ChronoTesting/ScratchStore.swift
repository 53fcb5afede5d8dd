import ChronoCore
import ChronoStore
import ChronoSync
import Foundation

/// A store in a fresh temporary directory, removed by `remove()`: for the tests of what sits on the
/// store (the daemon's library and recorder, the sync client and pusher, the commands).
public struct ScratchStore {
    public let directory: String
    public let store: ChronoStore

    public init() throws {
        var template = Array("/tmp/chrono-test-XXXXXX".utf8CString)
        directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        store = try ChronoStore.open(StoreLocation(directory: directory))
    }

    public func set(_ key: SettingKey, _ value: String) throws {
        try store.setSetting(key, to: value, nowUnixSeconds: 1_795_000_000)
    }

    public func remove() { try? FileManager.default.removeItem(atPath: directory) }

    /// `count` Challenge sessions of `status` (UUIDs, as a collector requires), imported as finished.
    public func addSessions(_ count: Int, status: SessionStatus = .completed) throws {
        let interval = try TrainingInterval(seconds: 60)
        let configuration = try SessionConfiguration(mode: .challenge, interval: interval, plannedCount: 1)
        let anchor = WallClockAnchor(unixNanoseconds: 1_795_000_000_000_000_000, monotonic: MonotonicInstant(nanoseconds: 1_000_000_000), utcOffsetSeconds: 0)
        let finishes = (0..<count).map { index in
            let start = MonotonicInstant(nanoseconds: 1_000_000_000 + Int64(index) * 100_000_000_000)
            let attempt = AttemptMeasurement(index: 1, target: interval, startMark: start + .seconds(1), tapMark: start + .seconds(62))
            let outcome = SessionOutcome(status: status, configuration: configuration, startedAt: start, endedAt: start + .seconds(62),
                                         attempts: [attempt], boundaries: [], fearSoundEffective: false, reason: status == .completed ? nil : "test")
            return SessionFinishRecord(sessionID: UUID().uuidString, outcome: outcome, anchor: anchor, board: "desktop", boundariesFired: [],
                                       wallClockSynchronised: true)
        }
        try store.importFinishedSessions(finishes, nowUnixNanoseconds: 1_795_000_000_000_000_000)
    }
}
