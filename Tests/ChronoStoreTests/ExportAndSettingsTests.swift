import ChronoTesting
import ChronoCore
@testable import ChronoStore
import Foundation
import Testing

@Suite("CSV export, settings, presets, progress, delete-all")
struct ExportAndSettingsTests {
    @Test("CSV: header, one row per attempt or boundary, RFC 4180 quoting, CRLF")
    func csv() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.recordSessionFinished(Sample.finish(sid("C"), Sample.attempts(.challenge, [61, 59]), board: "bench, \"v2\""), nowUnixNanoseconds: Sample.now)
        try store.recordSessionFinished(Sample.finish(sid("P"), Sample.passive(planned: 3, done: 3)), nowUnixNanoseconds: Sample.now)
        // Ended before its first press: it records nothing, so it has no row here.
        var never = Sample.attempts(.challenge, [], status: .aborted)
        never.endedBeforeFirstPress = true
        try store.recordSessionFinished(Sample.finish(sid("A"), never), nowUnixNanoseconds: Sample.now)
        // Cut off by a crash before its first press: an interrupted session without attempts, one `session` row.
        try store.recordSessionStarted(SessionStartRecord(sessionID: sid("X"), configuration: Sample.attempts(.challenge, []).configuration,
                                                          anchor: Sample.anchor, board: "pi4b", soundAudible: true, wallClockSynchronised: true),
                                       writer: ProcessIdentity(bootID: "an-old-boot", pid: 1, startTicks: 1))
        #expect(try store.recoverInterruptedSessions(nowUnixNanoseconds: Sample.now) == [sid("X")])
        var text = ""
        try store.exportCSV(days: nil, nowUnixNanoseconds: Sample.now) { text += $0 }
        let records = text.components(separatedBy: "\r\n").dropLast()
        #expect(records.first == ChronoStore.csvColumns.joined(separator: ","))
        #expect(records.count == 1 + 2 + 3 + 1)
        #expect(records.filter { $0.contains(",\"bench, \"\"v2\"\"\",") }.count == 2)
        #expect(records.filter { $0.contains(",boundary,") }.count == 3)
        #expect(records.filter { $0.contains(",session,") }.count == 1)
        #expect(!records.contains { $0.hasPrefix(sid("A")) })
        // The interrupted session's row ends with its reason (the last column); a completed one's is empty.
        let interrupted = records.filter { $0.hasPrefix(sid("X")) }
        #expect(interrupted.count == 1 && interrupted.allSatisfy {
            $0.hasSuffix(",\"The program stopped before the session ended (crash, power loss or kill).\"")
        }, "\(interrupted)")
        #expect(records.filter { $0.hasPrefix(sid("P")) }.allSatisfy { $0.hasSuffix(",") })
        var recent = ""
        try store.exportCSV(days: 90, nowUnixNanoseconds: Sample.now + 100 * 86_400_000_000_000) { recent += $0 }
        #expect(recent.components(separatedBy: "\r\n").count == 2)
    }

    @Test("settings: defaults, validation with clear errors, fear opt-in")
    func settings() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        let defaults = try store.settings()
        #expect(defaults.session.defaultMode == .challenge && defaults.session.defaultInterval == .builtInPreset && defaults.healthStatus == "on")
        #expect(try store.setSetting(.defaultInterval, to: "1m30s", nowUnixSeconds: 1) == "1m 30s")
        #expect(throws: StoreError.self) { try store.setSetting(.defaultInterval, to: "5s", nowUnixSeconds: 1) }
        #expect(throws: StoreError.self) { try store.setSetting(.defaultMode, to: "fear", nowUnixSeconds: 1) }
        #expect(throws: StoreError.self) { try store.setSetting(.longPressMilliseconds, to: "100", nowUnixSeconds: 1) }
        #expect(throws: StoreError.self) { try store.setSetting(.defaultAttempts, to: "0", nowUnixSeconds: 1) }
        try store.setSetting(.fearMode, to: "on", nowUnixSeconds: 1)
        try store.setSetting(.defaultMode, to: "fear", nowUnixSeconds: 1)
        try store.setSetting(.longPressMilliseconds, to: "2000", nowUnixSeconds: 1)
        let configuration = try SessionResolver.configuration(flags: SessionFlags(), settings: store.settings().session, board: .builtIn)
        #expect(configuration.mode == .fear && configuration.interval.seconds == 90 && configuration.gestures.longPress == .milliseconds(2000))
        try store.setSetting(.fearMode, to: "off", nowUnixSeconds: 1)
        #expect(try store.settings().session.defaultMode == .challenge)
    }

    @Test("presets in frecency order keep their patterns; progress and delete-all")
    func presetsProgressDelete() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        for index in 0..<3 { try store.recordSessionFinished(Sample.finish(sid("S\(index)"), Sample.attempts(.challenge, [63])), nowUnixNanoseconds: Sample.now) }
        let now = Sample.anchor.unixNanoseconds / 1_000_000_000 + 100
        let ranked = try store.rankedPresets(nowUnixSeconds: now)
        #expect(ranked.map(\.interval.seconds) == [60, 300])
        let book = try store.patternBook(ranked: ranked, nowUnixSeconds: now)
        #expect(book.pattern(for: ranked[0].interval) == IntervalPatternBook.candidates[0])
        #expect(try store.patternBook(ranked: ranked.reversed(), nowUnixSeconds: now) == book)

        let report = try store.progress(nowUnixNanoseconds: Sample.anchor.unixNanoseconds + 1_000_000_000_000, utcOffsetSeconds: 3600)
        #expect(report.completedSessions == 3)
        #expect(report.intervals.first?.lastZones == [.yellow, .yellow, .yellow])
        #expect(report.intervals.first?.trend == .notEnoughData)
        #expect(report.intervals.first?.timeAcuity == 90)

        let healthLog = try store.settings().healthLogPath
        let deleted = try store.deleteAllLocalData()
        #expect(deleted.sessions == 3)
        #expect(try store.progress(nowUnixNanoseconds: Sample.now, utcOffsetSeconds: 0).isEmpty)
        #expect(FileManager.default.fileExists(atPath: healthLog))
    }
}
