import ChronoCommandLine
import ChronoCore
import ChronoStore
import Foundation
import Testing
@testable import ChronoCLI
@testable import ChronoDevice

/// A session the store could not keep survives as a file, and imports once.
@Suite struct UnsavedSessionTests {
    static func finish() throws -> SessionFinishRecord {
        let interval = try TrainingInterval(seconds: 60)
        let configuration = try SessionConfiguration(mode: .challenge, interval: interval, plannedCount: 2)
        let start = MonotonicInstant(nanoseconds: 5_000_000_000)
        let attempts = [
            AttemptMeasurement(index: 1, target: interval, startMark: start, tapMark: start + .seconds(58)),
            AttemptMeasurement(index: 2, target: interval, startMark: start + .seconds(62), tapMark: start + .seconds(125)),
        ]
        let outcome = SessionOutcome(status: .completed, configuration: configuration, startedAt: start, endedAt: start + .seconds(125),
                                     attempts: attempts, boundaries: [], fearSoundEffective: false, reason: nil)
        return SessionFinishRecord(sessionID: "0F2B6C1E-5D7A-4C3B-9E8F-1A2B3C4D5E6F", outcome: outcome,
                                   anchor: WallClockAnchor(unixNanoseconds: 1_795_000_000_000_000_000, monotonic: start, utcOffsetSeconds: 3600),
                                   board: "desktop")
    }

    @Test("a fallback file is private (0600) and replaces a link planted at its path, never writing through it")
    func theFileIsPrivateAndReplacesALink() throws {
        let directory = NSTemporaryDirectory() + "unsaved-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let finish = try Self.finish()
        let victim = directory + "/victim"
        try "keep me\n".write(toFile: victim, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory + "/unsaved-\(finish.sessionID).json", withDestinationPath: victim)
        let log = UnsavedSessionLog()
        let kept = log.keep(finish, directory: directory, report: { _ in })
        #expect(kept == directory + "/unsaved-\(finish.sessionID).json")
        var status = stat()
        #expect(lstat(kept, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFREG)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me\n")
        let back = try UnsavedSession.parse(try String(contentsOfFile: kept, encoding: .utf8), source: kept, allowTestIntervals: false)
        #expect(back.outcome == finish.outcome)
    }

    @Test func theFileRebuildsTheSameSession() throws {
        let original = try Self.finish()
        let back = try UnsavedSession.parse(UnsavedSession.text(original), source: "f", allowTestIntervals: false)
        #expect(back.sessionID == original.sessionID)
        #expect(back.outcome == original.outcome)
        #expect(back.anchor == original.anchor)
        #expect(back.board == original.board)
    }

    @Test(arguments: ["", "[]", "{}", "{\"chronoception_unsaved_session\": 99}", "{\"chronoception_unsaved_session\": 0}",
                      "{\"chronoception_unsaved_session\": -1, \"session_id\": \"x\"}",
                      "{\"chronoception_unsaved_session\": 1, \"session_id\": \"x\"}"])
    func aDamagedFileIsABadInput(text: String) {
        do {
            _ = try UnsavedSession.parse(text, source: "f", allowTestIntervals: false)
            Issue.record("accepted \(text)")
        } catch let failure as CommandFailure {
            #expect(failure.status == .badInput)
        } catch { Issue.record("\(error)") }
    }

    @Test func marksOutOfRangeAreRefusedNotTrapped() throws {
        let text = UnsavedSession.text(try Self.finish())
            .replacingOccurrences(of: "\"ended_mono_ns\":130000000000", with: "\"ended_mono_ns\":9223372036854775807")
        #expect(text.contains("9223372036854775807"))
        #expect(throws: CommandFailure.self) { try UnsavedSession.parse(text, source: "f", allowTestIntervals: false) }
    }

    @Test func importingTwiceOrOverARecoveredRowNeverDuplicates() throws {
        let directory = NSTemporaryDirectory() + "chronoception-import-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let location = StoreLocation(directory: directory)
        let store = try ChronoStore.open(location, clock: SynchronisedClock())
        let finish = try Self.finish()
        // The start was saved, the finish was not, and a later start marked the row interrupted.
        try store.recordSessionStarted(SessionStartRecord(sessionID: finish.sessionID, configuration: finish.outcome.configuration,
                                                          anchor: finish.anchor, board: finish.board, soundAudible: true),
                                       writer: ProcessIdentity(bootID: "gone", pid: 1, startTicks: 1))
        #expect(try store.recoverInterruptedSessions(nowUnixNanoseconds: 1_795_000_200_000_000_000) == [finish.sessionID])
        #expect(try store.reopenRecoveredSession(finish.sessionID))
        #expect(try store.recordSessionFinished(finish, nowUnixNanoseconds: 1_795_000_200_000_000_000).stored)
        #expect(try !store.reopenRecoveredSession(finish.sessionID))
        #expect(try !store.recordSessionFinished(finish, nowUnixNanoseconds: 1_795_000_300_000_000_000).stored)
        let sessions = try store.recentSessions(limit: 10)
        #expect(sessions.count == 1)
        #expect(sessions.first?.status == "completed")
        let log = try String(contentsOfFile: location.defaultHealthLogPath, encoding: .utf8)
        #expect(log.split(separator: "\n").count == 1)
    }
}

/// A kernel clock that is synchronised, so the health record is written at once.
private struct SynchronisedClock: WallClockStatus {
    func isSynchronised() -> Bool { true }
    func currentAnchor(utcOffsetSeconds: Int) -> WallClockAnchor {
        WallClockAnchor(unixNanoseconds: 1_795_000_300_000_000_000, monotonic: MonotonicInstant(nanoseconds: 900_000_000_000), utcOffsetSeconds: utcOffsetSeconds)
    }
    func bootID() -> String { "boot-test" }
}
