import ChronoCore
import ChronoSimulation
import ChronoStore
import ChronoSync
import Foundation

/// One simulated device's history as it would leave the device: its completed sessions, made by the
/// same simulated person `chronoception simulate` plays, cut into protocol batches in outbox order.
///
/// `main` is the history the device pushes while connected; `offline` is what it made during an
/// hour cut off from the collector (sessions played back to back until their durations fill an
/// hour), pushed when the partition heals.
struct DeviceHistory {
    var deviceID: String
    var main: [SyncBatch]
    var offline: [SyncBatch]

    /// A device's UUID, fixed by its number so every run and the cache agree.
    static func deviceID(number: Int) -> String {
        // Lower case, as a device makes its own (UUID().uuidString.lowercased()).
        SessionIdentifier.derived(from: "sync-bench-device:\(number)").lowercased()
    }

    /// The seed of device `number`'s simulated person: distinct per device, so session UUIDs are too.
    static func seed(number: Int) -> UInt64 { 0x5EED_0000 + UInt64(number) }

    /// The synced settings at their defaults, stamped by the device (what a fresh device sends).
    static let preferences: [StampedPreference] = {
        let location = StoreLocation(directory: "/var/lib/chronoception")
        return PreferenceMerge.syncedKeys.sorted().compactMap { key in
            SettingKey(rawValue: key).map { StampedPreference(key: key, value: $0.defaultValue(location: location), clock: 1, origin: .device) }
        }
    }()

    /// `completed` completed sessions for the main history, then an hour's worth more for `offline`.
    static func make(number: Int, completed: Int) -> DeviceHistory {
        let deviceID = deviceID(number: number)
        var sessions: [SyncedSession] = []
        var offline: [SyncedSession] = []
        var offlineNanoseconds: Int64 = 0
        let hour: Int64 = 3_600_000_000_000
        // Simulated sessions are ~85 % completed; run until both parts are full (grows rarely).
        var simulated = completed * 5 / 4 + 40
        while true {
            sessions.removeAll(keepingCapacity: true)
            offline.removeAll()
            offlineNanoseconds = 0
            SimulationRun(seed: seed(number: number), device: "sync-bench").run(sessions: simulated) { result in
                // Completed sessions only, so the figures keep measuring the same histories.
                guard offlineNanoseconds < hour, result.outcome.status == .completed else { return }
                let session = SyncedSession(
                    sessionID: result.sessionID, outcome: result.outcome, anchor: result.anchor, board: "sync-bench",
                    wallClockSynchronised: true, soundAudibleAtStart: result.scenario.soundAudible,
                    boundariesFired: result.outcome.boundaries.map(\.due))
                if sessions.count < completed {
                    sessions.append(session)
                } else {
                    offline.append(session)
                    offlineNanoseconds += max(session.endedMonotonicNanoseconds - session.startedMonotonicNanoseconds, 1_000_000_000)
                }
            }
            if sessions.count == completed && offlineNanoseconds >= hour { break }
            simulated *= 2
        }
        let main = batches(deviceID: deviceID, sessions: sessions, startingAfter: 0)
        let tail = batches(deviceID: deviceID, sessions: offline, startingAfter: Int64(sessions.count))
        return DeviceHistory(deviceID: deviceID, main: main, offline: tail)
    }

    /// Consecutive batches of at most `SyncProtocol.maximumSessionsPerBatch`, cursors as outbox positions.
    static func batches(deviceID: String, sessions: [SyncedSession], startingAfter first: Int64) -> [SyncBatch] {
        stride(from: 0, to: sessions.count, by: SyncProtocol.maximumSessionsPerBatch).map { start in
            let end = min(start + SyncProtocol.maximumSessionsPerBatch, sessions.count)
            return SyncBatch(deviceID: deviceID, cursorAfter: first + Int64(start), cursorThrough: first + Int64(end),
                             sessions: Array(sessions[start..<end]), preferences: preferences)
        }
    }
}
