import ChronoTesting
import ChronoCore
@testable import ChronoStore
import Foundation
import Testing

@Suite("Health log failures never lose a session")
struct HealthLogFailureTests {
    @Test("a full disk: the session is saved, the failure reported once, logging stops, backfill writes once after enable")
    func fullDisk() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory, healthTarget: { _ in FullDiskHealthLog() })
        let first = try store.recordSessionFinished(Sample.finish(sid("S1"), Sample.attempts(.challenge, [61])), nowUnixNanoseconds: Sample.now)
        #expect(first.health == .failed(reason: "cannot write: No space left on device", firstFailure: true))
        #expect(try store.session(id: sid("S1")).outcome.status == .completed)
        #expect(try store.settings().healthStatus == "failing: cannot write: No space left on device")
        let second = try store.recordSessionFinished(Sample.finish(sid("S2"), Sample.attempts(.challenge, [59])), nowUnixNanoseconds: Sample.now)
        guard case .owed = second.health else { Issue.record("second session: \(second.health)"); return }
        #expect(try store.healthLogStatus().owedTotal == 2)

        // The disk has room again: the same directory through the real file writer.
        let healed = try ChronoStore.openForTest(directory)
        #expect(throws: StoreError.self) { try healed.backfill(nowUnixNanoseconds: Sample.now) }
        try healed.setSetting(.healthLogging, to: "on", nowUnixSeconds: 1)
        #expect(try healed.backfill(nowUnixNanoseconds: Sample.now).written == 2)
        #expect(try healed.backfill(nowUnixNanoseconds: Sample.now).written == 0)
        let ids = try healthLogLines(healed).map { try jsonObject($0)["metadata"] as! [String: Any] }.map { $0["HKMetadataKeySyncIdentifier"] as! String }
        #expect(ids == [sid("S1"), sid("S2")])
    }

    /// A device (or FIFO) is never a health log: it would swallow the records or block the writer.
    /// (A full disk is the faults tier's tmpfs case.)
    @Test("the real writer refuses /dev/full as not a regular file, and the session is saved")
    func devFull() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.setSetting(.healthLogFile, to: "/dev/full", nowUnixSeconds: 1)
        let result = try store.recordSessionFinished(Sample.finish(sid("S1"), Sample.passive(planned: 2, done: 2)), nowUnixNanoseconds: Sample.now)
        guard case .failed(let reason, true) = result.health else { Issue.record("\(result.health)"); return }
        #expect(reason.contains("/dev/full is not a regular file"))
        #expect(try store.session(id: sid("S1")).outcome.boundaries.count == 2)
    }

    @Test("an unwritable or missing log directory: failing with the reason, session kept")
    func unwritableDirectory() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        let readOnly = directory.path + "/read-only"
        try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: false)
        chmod(readOnly, 0o555)
        // Root ignores directory permissions; /proc refuses new files for everyone.
        let target = getuid() == 0 ? "/proc/chronoception-health.jsonl" : readOnly + "/log.jsonl"
        try store.setSetting(.healthLogFile, to: target, nowUnixSeconds: 1)
        let result = try store.recordSessionFinished(Sample.finish(sid("S1"), Sample.attempts(.fear, [70])), nowUnixNanoseconds: Sample.now)
        guard case .failed(_, true) = result.health else { Issue.record("\(result.health)"); return }
        #expect(try store.settings().healthStatus.hasPrefix("failing: cannot open"))

        try store.setSetting(.healthLogFile, to: directory.path + "/missing/log.jsonl", nowUnixSeconds: 1)
        try store.setSetting(.healthLogging, to: "on", nowUnixSeconds: 1)
        let missing = try store.recordSessionFinished(Sample.finish(sid("S2"), Sample.attempts(.fear, [70])), nowUnixNanoseconds: Sample.now)
        guard case .failed(let reason, true) = missing.health else { Issue.record("\(missing.health)"); return }
        #expect(reason.contains("No such file or directory"))
        #expect(try store.recentSessions(limit: 10).count == 2)
    }

    @Test("logging off: sessions owed, enable offers them, backfill skips records already in the file")
    func offThenBackfill() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.setSetting(.healthLogging, to: "off", nowUnixSeconds: 1)
        try store.recordSessionFinished(Sample.finish(sid("S1"), Sample.attempts(.challenge, [61])), nowUnixNanoseconds: Sample.now)
        try store.recordSessionFinished(Sample.finish(sid("S2"), Sample.attempts(.challenge, [62])), nowUnixNanoseconds: Sample.now)
        #expect(try store.healthLogStatus().owed == ["logging_off": 2])
        // A crash after appending S1 but before the ledger said so: the line is already in the file.
        let s1 = try #require(HealthRecordBuilder.decide(for: Sample.attempts(.challenge, [61]), sessionID: sid("S1"), device: "pi4b", anchor: Sample.anchor).record)
        try HealthLogFile(path: store.settings().healthLogPath).append(line: s1.jsonLine)
        try store.setSetting(.healthLogging, to: "on", nowUnixSeconds: 1)
        let report = try store.backfill(nowUnixNanoseconds: Sample.now)
        #expect(report.written == 1 && report.alreadyInLog == 1)
        #expect(try healthLogLines(store).count == 2)
    }
}
