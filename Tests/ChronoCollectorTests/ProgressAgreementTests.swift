import ChronoCollector
import ChronoCore
import ChronoStore
import ChronoSync
import Foundation
import Testing

/// The same sessions give the same progress on the device and on the collector: built once, stored in
/// a scratch device store and a scratch collector store, each side's report compared field by field.
/// The one field that differs by design is a recent line's health word (the device's ledger state
/// against the collector's copy of the device's decision).
@Suite("Progress: device and collector agree")
struct ProgressAgreementTests {
    typealias F = CollectorFixtures
    static let hour: Int64 = 3_600_000_000_000
    static let day: Int64 = 86_400_000_000_000

    /// Seven intervals (more than a report shows), every mode, sessions from an hour to 20 days old,
    /// each interval with its own H(I) and the 5m 0s one with a pattern changed in its newest session.
    static func finishes() throws -> [SessionFinishRecord] {
        var finishes: [SessionFinishRecord] = []
        var number = 0
        func add(_ mode: SessionMode, seconds: Int, ago: Int64, pattern: Int, errorsMilliseconds: [Int64] = [400, -900, 1500], boundaries: Int = 3) throws {
            number += 1
            let interval = try TrainingInterval(seconds: seconds)
            let configuration = try SessionConfiguration(
                mode: mode, interval: interval, plannedCount: mode == .passive ? boundaries : errorsMilliseconds.count,
                intervalPattern: IntervalPatternBook.candidates[pattern])
            let start = MonotonicInstant(nanoseconds: 2_000_000_000)
            var cursor = start
            var attempts: [AttemptMeasurement] = []
            var due: [PassiveBoundary] = []
            if mode == .passive {
                for index in 1...boundaries {
                    cursor = start + TimeSpan(nanoseconds: Int64(index) * interval.span.nanoseconds)
                    due.append(PassiveBoundary(index: index, due: cursor))
                }
            } else {
                for (index, error) in errorsMilliseconds.enumerated() {
                    let begin = cursor + .seconds(1)
                    let tap = begin + TimeSpan(nanoseconds: interval.span.nanoseconds + error * 1_000_000)
                    attempts.append(AttemptMeasurement(index: index + 1, target: interval, startMark: begin, tapMark: tap))
                    cursor = tap
                }
            }
            let outcome = SessionOutcome(status: .completed, configuration: configuration, startedAt: start, endedAt: cursor,
                                         attempts: attempts, boundaries: due, fearSoundEffective: mode == .fear, reason: nil)
            let anchor = WallClockAnchor(unixNanoseconds: F.now - ago - Int64(number) * 1_000_000_000, monotonic: start,
                                         utcOffsetSeconds: number % 2 == 0 ? 3600 : -18_000)
            finishes.append(SessionFinishRecord(sessionID: String(format: "00000000-0000-4000-8000-%012d", number), outcome: outcome, anchor: anchor,
                                                board: "pi-zero-2w", boundariesFired: due.map(\.due), wallClockSynchronised: true,
                                                soundAudibleAtStart: true))
        }
        try add(.challenge, seconds: 300, ago: 1 * hour, pattern: 3)
        try add(.challenge, seconds: 300, ago: 30 * hour, pattern: 0, errorsMilliseconds: [2500, -300])
        try add(.fear, seconds: 300, ago: 9 * day, pattern: 0, errorsMilliseconds: [-4000, 700, 100, 50])
        try add(.passive, seconds: 300, ago: 3 * day, pattern: 0)
        for ago in [2, 5, 40, 200, 300] { try add(.challenge, seconds: 15, ago: Int64(ago) * hour, pattern: 2, errorsMilliseconds: [Int64(ago) * 10, -150]) }
        try add(.challenge, seconds: 1800, ago: 8 * day, pattern: 5, errorsMilliseconds: [60_000, -30_000, 12_000, 1000, 2000, 3000])
        try add(.challenge, seconds: 1800, ago: 20 * day, pattern: 5, errorsMilliseconds: Array(repeating: 5000, count: 12))
        try add(.challenge, seconds: 1800, ago: 13 * day, pattern: 5, errorsMilliseconds: Array(repeating: -7000, count: 12))
        try add(.fear, seconds: 120, ago: 4 * hour, pattern: 1, errorsMilliseconds: [300])
        try add(.fear, seconds: 120, ago: 6 * day, pattern: 1, errorsMilliseconds: [900, 800])
        try add(.passive, seconds: 45, ago: 2 * day, pattern: 4)
        try add(.challenge, seconds: 7259, ago: 12 * day, pattern: 6, errorsMilliseconds: [100_000])
        try add(.challenge, seconds: 10, ago: 27 * day, pattern: 7)
        try add(.challenge, seconds: 10, ago: 50 * hour, pattern: 7)
        return finishes
    }

    /// A report with each recent line's health word left out (it differs by design).
    static func comparable(_ report: ProgressReport) -> ProgressReport {
        var report = report
        report.recentSessions = report.recentSessions.map { line in
            var line = line
            line.healthLog = nil
            return line
        }
        return report
    }

    @Test(arguments: StoreKind.available)
    func theSameSessionsGiveTheSameReport(kind: StoreKind) async throws {
        let finishes = try Self.finishes()
        var template = Array("/tmp/chrono-agreement-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let device = try ChronoStore.open(StoreLocation(directory: directory))
        #expect(try device.importFinishedSessions(finishes, nowUnixNanoseconds: F.now) == finishes.count)

        try await kind.withStore { collector in
            _ = try await F.enrol(collector)
            let synced = finishes.map {
                SyncedSession(sessionID: $0.sessionID, outcome: $0.outcome, anchor: $0.anchor, board: $0.board,
                              wallClockSynchronised: true, soundAudibleAtStart: true, boundariesFired: $0.boundariesFired)
            }
            #expect(synced.count == finishes.count)
            _ = try await collector.ingest(try IngestPlan.validate(F.batch(synced)), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            let stored = try await collector.sessions(CollectorSessionQuery(device: "P001"))

            for only in [nil, try TrainingInterval(seconds: 15), try TrainingInterval(seconds: 45), try TrainingInterval(seconds: 999)] {
                let onDevice = Self.comparable(try device.progress(nowUnixNanoseconds: F.now, utcOffsetSeconds: 3600, only: only))
                let onCollector = Self.comparable(CollectorProgress.report(stored, nowUnixNanoseconds: F.now, utcOffsetSeconds: 3600, only: only))
                #expect(onDevice.today == onCollector.today)
                #expect(onDevice.intervals.map(\.interval) == onCollector.intervals.map(\.interval))
                for (a, b) in zip(onDevice.intervals, onCollector.intervals) {
                    #expect(a.pattern == b.pattern)
                    #expect(a.completedSessions == b.completedSessions)
                    #expect(a.lastSevenDays == b.lastSevenDays)
                    #expect(a.sevenDaysBefore == b.sevenDaysBefore)
                    #expect(a.lastZones == b.lastZones)
                    #expect(a.lastAttempts == b.lastAttempts)
                    #expect(a.daily == b.daily)
                    #expect(a == b)
                }
                #expect(onDevice.completedByMode == onCollector.completedByMode)
                #expect(onDevice.daily == onCollector.daily)
                #expect(onDevice.recentSessions == onCollector.recentSessions)
                #expect(onDevice == onCollector)
                #expect(onDevice.json.compactText == onCollector.json.compactText)
            }

            // The figures themselves, so agreeing on a wrong answer fails too.
            let report = try device.progress(nowUnixNanoseconds: F.now, utcOffsetSeconds: 3600)
            // Frecency order (SPEC §1): 15 s (five uses, the newest two hours old), 5m 0s, 2m 0s, 30m 0s, 10 s; 45 s and
            // 120m 59s rank lower.
            #expect(report.intervals.map(\.interval.seconds) == [15, 300, 120, 1800, 10])
            // H(I) is the newest completed session's: 5m 0s was run with candidates[3] an hour ago.
            #expect(report.intervals.map { $0.pattern?.description } == [2, 3, 1, 5, 7].map { IntervalPatternBook.candidates[$0].description })
            #expect(report.intervals[1].completedSessions == 4)
            // 15 s: the last 7 days hold the sessions 2, 5 and 40 hours old, the 7 before those 200 and 300 hours old (two attempts each).
            #expect(report.intervals[0].lastSevenDays.attemptCount == 6 && report.intervals[0].sevenDaysBefore.attemptCount == 4)
            // 30m 0s: its zones strip is the newest 20 attempts (6 + 12 + 2 of the oldest session).
            #expect(report.intervals[3].lastZones.count == ZoneStrip.length)
            #expect(report.completedByMode == [.challenge: 13, .fear: 3, .passive: 2])
            #expect(report.recentSessions.count == 10)
            #expect(report.recentSessions.first?.sessionID == "00000000-0000-4000-8000-000000000001")
        }
    }
}
