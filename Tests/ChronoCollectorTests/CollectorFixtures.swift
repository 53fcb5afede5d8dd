import ChronoCollector
import ChronoCore
import ChronoSync
import Foundation
import Testing

/// Sessions, batches and stores for the collector's tests.
enum CollectorFixtures {
    /// A fixed instant (November 2026).
    static let now: Int64 = 1_795_608_000_000_000_000
    static let deviceID = "0b7f6a2e-3c1d-4e5f-8a9b-0c1d2e3f4a5b"
    static let otherDeviceID = "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d"

    /// A completed Challenge session of `interval` seconds started `startedAgo` before `now`, with one
    /// attempt per error (milliseconds, tap minus target).
    static func challenge(id: String = UUID().uuidString, startedAgo: Int64 = 3_600_000_000_000,
                          intervalSeconds: Int64 = 10, errorsMilliseconds: [Int64] = [500, -1000, 2000]) -> SyncedSession {
        let startMono: Int64 = 5_000_000_000
        var attempts: [SyncedSession.Attempt] = []
        var cursor = startMono
        for (index, error) in errorsMilliseconds.enumerated() {
            let start = cursor + 1_000_000_000
            let tap = start + intervalSeconds * 1_000_000_000 + error * 1_000_000
            attempts.append(SyncedSession.Attempt(index: index + 1, startMonotonicNanoseconds: start, tapMonotonicNanoseconds: tap))
            cursor = tap
        }
        return SyncedSession(
            id: id, mode: "challenge", status: "completed", targetIntervalMilliseconds: intervalSeconds * 1000,
            plannedCount: errorsMilliseconds.count, fearThreshold: 0.1,
            intervalPattern: IntervalPatternBook.candidates[0].description, autoStartNextAttempt: false,
            feedbackMilliseconds: 1500, abortWindowMilliseconds: 5000, debounceMilliseconds: 30, longPressMilliseconds: 1200,
            startedMonotonicNanoseconds: startMono, endedMonotonicNanoseconds: cursor + 500_000_000,
            anchorUnixNanoseconds: now - startedAgo, anchorMonotonicNanoseconds: startMono, utcOffsetSeconds: 3600,
            wallClockSynchronised: true, board: "pi-zero-2w", soundAudibleAtStart: true, fearSoundEffective: false,
            attempts: attempts, boundaries: [], healthDecision: "record", healthSkipReason: nil)
    }

    /// A completed Passive session with `count` boundaries, the last one not measured.
    static func passive(id: String = UUID().uuidString, startedAgo: Int64 = 7_200_000_000_000, count: Int = 3) -> SyncedSession {
        let startMono: Int64 = 9_000_000_000
        let boundaries = (0..<count).map { index in
            SyncedSession.Boundary(index: index + 1, dueMonotonicNanoseconds: startMono + Int64(index + 1) * 10_000_000_000,
                                   firedMonotonicNanoseconds: index == count - 1 ? nil : startMono + Int64(index + 1) * 10_000_000_000 + 2_000_000)
        }
        return SyncedSession(
            id: id, mode: "passive", status: "completed", targetIntervalMilliseconds: 10_000, plannedCount: count, fearThreshold: 0.1,
            intervalPattern: IntervalPatternBook.candidates[0].description, autoStartNextAttempt: false,
            feedbackMilliseconds: 1500, abortWindowMilliseconds: 5000, debounceMilliseconds: 30, longPressMilliseconds: 1200,
            startedMonotonicNanoseconds: startMono, endedMonotonicNanoseconds: startMono + Int64(count) * 10_000_000_000 + 1_000_000_000,
            anchorUnixNanoseconds: now - startedAgo, anchorMonotonicNanoseconds: startMono, utcOffsetSeconds: 0,
            wallClockSynchronised: false, board: "pi-zero-2w", soundAudibleAtStart: true, fearSoundEffective: false,
            attempts: [], boundaries: boundaries, healthDecision: "skip", healthSkipReason: "Passive sessions are not logged.")
    }

    static func batch(_ sessions: [SyncedSession], device: String = deviceID, after: Int64 = 0, preferences: [StampedPreference] = []) -> SyncBatch {
        SyncBatch(deviceID: device, cursorAfter: after, cursorThrough: after + Int64(sessions.count), sessions: sessions, preferences: preferences)
    }

    static func request(code: String, device: String = deviceID) -> EnrolmentRequest {
        EnrolmentRequest(code: code, deviceID: device, board: "pi-zero-2w", softwareVersion: "0.9.0")
    }

    /// Makes a code for `name`, redeems it for `device`, and returns the device key.
    static func enrol(_ store: any CollectorStore, name: String = "P001", participant: String? = "P001",
                      device: String = deviceID) async throws -> String {
        let code = CollectorCredentials.newCode()
        try await store.addEnrolment(PendingEnrolment(codeSHA256: CollectorCredentials.codeDigest(code)!, name: name, participant: participant,
                                                      createdUnixNanoseconds: now, expiresUnixNanoseconds: now + 86_400_000_000_000),
                                     nowUnixNanoseconds: now)
        let key = CollectorCredentials.newDeviceKey()
        _ = try await store.redeemEnrolment(codeSHA256: CollectorCredentials.codeDigest(code)!, request: request(code: code, device: device),
                                            keySHA256: CollectorCredentials.keyDigest(key), nowUnixNanoseconds: now)
        return key
    }
}

/// The two store kinds the contract suite runs on. PostgreSQL needs a server: its URL comes from
/// CHRONOCEPTION_TEST_POSTGRES_URL (Tests/sync/postgres-cluster prints one); each test makes its own
/// database there and drops it after.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["CHRONOCEPTION_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The kinds available here: SQLite always, PostgreSQL when a server was given.
    static var available: [StoreKind] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    /// Runs `body` on a new, empty store of this kind and removes it afterwards.
    func withStore<T>(_ body: (any CollectorStore) async throws -> T) async throws -> T {
        switch self {
        case .sqlite:
            var template = Array("/tmp/chrono-collector-test-XXXXXX".utf8CString)
            let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let store = try SQLiteCollectorStore.open(directory: directory)
            do {
                let value = try await body(store)
                await store.close()
                return value
            } catch {
                await store.close()
                throw error
            }
        case .postgres:
            let base = try PostgresURL.parse(Self.postgresURL!)
            let database = "chrono_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
            try await TestDatabases.create(database, on: base)
            var url = base
            url.database = database
            do {
                let store = try await PostgresCollectorStore.open(url, maximumConnections: 4)
                do {
                    let value = try await body(store)
                    await store.close()
                    try await TestDatabases.drop(database, on: base)
                    return value
                } catch {
                    await store.close()
                    throw error
                }
            } catch {
                try? await TestDatabases.drop(database, on: base)
                throw error
            }
        }
    }
}
