import ChronoCore
@testable import ChronoStore
import Foundation

/// A fresh directory under /tmp for one test, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/chrono-store-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A wall clock whose synchronisation and boot the test decides.
final class FakeWallClock: WallClockStatus, @unchecked Sendable {
    var synchronised: Bool
    var boot: String
    var now: WallClockAnchor

    init(synchronised: Bool, boot: String = "boot-A",
         now: WallClockAnchor = WallClockAnchor(unixNanoseconds: 1_795_000_000_000_000_000, monotonic: MonotonicInstant(nanoseconds: 500_000_000_000), utcOffsetSeconds: 3600)) {
        self.synchronised = synchronised
        self.boot = boot
        self.now = now
    }

    func isSynchronised() -> Bool { synchronised }
    func currentAnchor(utcOffsetSeconds: Int) -> WallClockAnchor {
        WallClockAnchor(unixNanoseconds: now.unixNanoseconds, monotonic: now.monotonic, utcOffsetSeconds: utcOffsetSeconds)
    }
    func bootID() -> String { boot }
}

/// A health log that fails every write like a full disk.
struct FullDiskHealthLog: HealthLogTarget {
    func append(line: String) throws(HealthLogWriteError) { throw HealthLogWriteError("cannot write: No space left on device") }
    func existingSyncIdentifiers() throws(HealthLogWriteError) -> Set<String> { [] }
}

enum Sample {
    static let now: Int64 = 1_795_000_000_000_000_000
    static let anchor = WallClockAnchor(unixNanoseconds: 1_794_990_000_000_000_000, monotonic: MonotonicInstant(nanoseconds: 100_000_000_000), utcOffsetSeconds: 3600)

    static func seconds(_ value: Double) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: anchor.monotonic.nanoseconds + Int64(value * 1e9))
    }

    /// A completed Challenge or Fear session of `taps` (elapsed seconds per attempt) at 60 s.
    static func attempts(_ mode: SessionMode, _ elapsed: [Double], status: SessionStatus = .completed, soundEffective: Bool = true) -> SessionOutcome {
        let interval = try! TrainingInterval(seconds: 60)
        let configuration = try! SessionConfiguration(mode: mode, interval: interval, plannedCount: max(elapsed.count, 1))
        var cursor = 2.0
        var attempts: [AttemptMeasurement] = []
        for (index, value) in elapsed.enumerated() {
            attempts.append(AttemptMeasurement(index: index + 1, target: interval, startMark: seconds(cursor), tapMark: seconds(cursor + value)))
            cursor += value + 5
        }
        return SessionOutcome(status: status, configuration: configuration, startedAt: seconds(0),
                              endedAt: attempts.last?.tapMark ?? seconds(1), attempts: attempts, boundaries: [],
                              fearSoundEffective: mode == .fear && soundEffective, reason: status == .completed ? nil : "test")
    }

    /// A Passive session at 60 s with `done` of `planned` boundaries, ended at `end` seconds.
    static func passive(planned: Int, done: Int, end: Double? = nil, status: SessionStatus = .completed) -> SessionOutcome {
        let interval = try! TrainingInterval(seconds: 60)
        let configuration = try! SessionConfiguration(mode: .passive, interval: interval, plannedCount: planned)
        let boundaries = (0..<done).map { PassiveBoundary(index: $0 + 1, due: seconds(Double(($0 + 1) * 60))) }
        return SessionOutcome(status: status, configuration: configuration, startedAt: seconds(0),
                              endedAt: seconds(end ?? Double(done * 60)), attempts: [], boundaries: boundaries,
                              fearSoundEffective: false, reason: nil)
    }

    static func finish(_ id: String, _ outcome: SessionOutcome, board: String = "pi4b", synchronised: Bool = true) -> SessionFinishRecord {
        SessionFinishRecord(sessionID: id, outcome: outcome, anchor: anchor, board: board,
                            boundariesFired: outcome.boundaries.map { $0.due + .milliseconds(3) }, wallClockSynchronised: synchronised)
    }
}

extension ChronoStore {
    static func openForTest(_ directory: TemporaryDirectory, clock: any WallClockStatus = FakeWallClock(synchronised: true),
                            healthTarget: (@Sendable (String) -> any HealthLogTarget)? = nil) throws -> ChronoStore {
        if let healthTarget {
            return try ChronoStore.open(StoreLocation(directory: directory.path), clock: clock, healthTarget: healthTarget)
        }
        return try ChronoStore.open(StoreLocation(directory: directory.path), clock: clock)
    }
}

func healthLogLines(_ store: ChronoStore) throws -> [String] {
    let path = try store.settings().healthLogPath
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
    return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
}

func jsonObject(_ line: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
}
