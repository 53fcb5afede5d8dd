import ChronoCore
import ChronoSync
import ChronoTesting
@testable import ChronoStore
import Foundation
import GRDB
import Testing

/// The device store's study tables: the assignment a collector sent (kept, the same one again changes
/// nothing, a bad one refused with the kept one left), and each study session's tag (written with the
/// session, read back with it, counted by the schedule only when completed).
@Suite("The device store keeps the study assignment and the sessions' study tags")
struct StudyStoreTests {
    static let tag = StudyTag(protocolName: "sleep-2026", protocolVersion: 1, participant: "P017", blockIndex: 1, blockName: "blind",
                              planPosition: 2, condition: "no-feedback", feedbackShown: false)

    func keep(_ store: ChronoStore, text: String = StudyFixture.protocolText, name: String = "sleep-2026", version: Int = 1,
              participant: String = "P017", seed: Int64 = 7, now: Int64 = Sample.now) throws -> ChronoStore.StudyAssignmentChange {
        try store.keepStudyAssignment(SyncedStudyAssignment(protocolName: name, protocolVersion: version, document: text, participant: participant,
                                                            participantIndex: 0, startUnixNanoseconds: StudyFixture.startUnixNanoseconds, seed: seed),
                                      nowUnixNanoseconds: now)
    }

    @Test("an assignment is kept across a reopen; the same one again changes nothing; another replaces it")
    func assignmentKept() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let store = try ChronoStore.openForTest(directory)
            #expect(try store.studyAssignment() == nil)
            #expect(try keep(store) == .assigned)
            #expect(try keep(store, now: Sample.now + 5) == .unchanged)
        }
        let reopened = try ChronoStore.openForTest(directory)
        let kept = try #require(try reopened.studyAssignment())
        #expect(kept.assignment == StudyFixture.assignment)
        #expect(kept.receivedUnixNanoseconds == Sample.now)
        #expect(kept.protocolText == StudyFixture.protocolText)
        #expect(try keep(reopened, participant: "P018", now: Sample.now + 9) == .assigned)
        #expect(try reopened.studyAssignment()?.assignment.participant == "P018")
        #expect(try reopened.studyAssignment()?.receivedUnixNanoseconds == Sample.now + 9)
        #expect(try reopened.removeStudyAssignment())
        #expect(try reopened.studyAssignment() == nil)
    }

    @Test("a bad assignment is refused with its reason and the kept one stays")
    func badAssignmentRefused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        _ = try keep(store)
        func refusal(_ body: () throws -> Void) -> String? {
            do { try body(); return nil } catch { return "\(error)" }
        }
        let wrongName = refusal { _ = try keep(store, name: "other") }
        #expect(wrongName?.contains("the collector announced protocol other@1 but sent sleep-2026@1; the device keeps the one it had") == true)
        let notJSON = refusal { _ = try keep(store, text: "{ nope") }
        #expect(notJSON?.contains("The study assignment from the collector cannot be used: the study protocol sleep-2026@1 from the collector is not valid: line 1:") == true)
        let badParticipant = refusal { _ = try keep(store, participant: " P1") }
        #expect(badParticipant?.contains("is not a label") == true)
        let badSeed = refusal { _ = try keep(store, seed: -1) }
        #expect(badSeed?.contains("the assignment's seed -1 is outside") == true)
        #expect(try store.studyAssignment()?.assignment == StudyFixture.assignment)
    }

    @Test("a tag written at the start is read back with the session; only completed sessions of this plan count as done")
    func tagsWithSessions() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        let outcome = Sample.attempts(.challenge, [61.5, 58.25])
        var start = SessionStartRecord(sessionID: sid("S1"), configuration: outcome.configuration, anchor: Sample.anchor,
                                       board: "pi4b", soundAudible: true, wallClockSynchronised: true)
        start.study = Self.tag
        try store.recordSessionStarted(start)
        #expect(try store.completedStudySessions(protocolName: "sleep-2026", protocolVersion: 1, participant: "P017").isEmpty)
        try store.recordSessionFinished(Sample.finish(sid("S1"), outcome), nowUnixNanoseconds: Sample.now)
        #expect(try store.session(id: sid("S1")).study == Self.tag)
        let done = try store.completedStudySessions(protocolName: "sleep-2026", protocolVersion: 1, participant: "P017")
        #expect(done == [CompletedStudySession(sessionID: sid("S1"), planPosition: 2, blockIndex: 1, feedbackShown: false,
                                               endedUnixNanoseconds: Sample.anchor.unixNanoseconds(at: outcome.endedAt))])
        #expect(done.map(\.completion) == [StudySchedule.Completion(position: 2, endedUnixNanoseconds: Sample.anchor.unixNanoseconds(at: outcome.endedAt))])
        // Another participant's or version's sessions are not this plan's.
        #expect(try store.completedStudySessions(protocolName: "sleep-2026", protocolVersion: 2, participant: "P017").isEmpty)
        #expect(try store.completedStudySessions(protocolName: "sleep-2026", protocolVersion: 1, participant: "P018").isEmpty)
    }

    @Test("a finish without a start keeps its tag; an aborted study session does not count as done; an untagged session has none")
    func finishOnlyAndAborted() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        var tagged = Sample.finish(sid("S2"), Sample.attempts(.challenge, [60]))
        tagged.study = Self.tag
        try store.recordSessionFinished(tagged, nowUnixNanoseconds: Sample.now)
        var aborted = Sample.finish(sid("S3"), Sample.attempts(.challenge, [60], status: .aborted))
        var abortedTag = Self.tag
        abortedTag.planPosition = 3
        aborted.study = abortedTag
        try store.recordSessionFinished(aborted, nowUnixNanoseconds: Sample.now)
        try store.recordSessionFinished(Sample.finish(sid("S4"), Sample.attempts(.challenge, [60])), nowUnixNanoseconds: Sample.now)
        #expect(try store.session(id: sid("S2")).study == Self.tag)
        #expect(try store.session(id: sid("S3")).study == abortedTag)
        #expect(try store.session(id: sid("S4")).study == nil)
        #expect(try store.completedStudySessions(protocolName: "sleep-2026", protocolVersion: 1, participant: "P017").map(\.planPosition) == [2])
    }

    @Test("a tag outside the protocol's bounds is refused before anything is written")
    func badTagRefused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        var finish = Sample.finish(sid("S5"), Sample.attempts(.challenge, [60]))
        var tag = Self.tag
        tag.planPosition = -1
        finish.study = tag
        #expect(throws: StoreError.self) { try store.recordSessionFinished(finish, nowUnixNanoseconds: Sample.now) }
        #expect(try store.sessionCount() == 0)
    }

    @Test("delete-all removes the tags with the sessions and keeps the assignment")
    func deleteAll() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        _ = try keep(store)
        var finish = Sample.finish(sid("S6"), Sample.attempts(.challenge, [60]))
        finish.study = Self.tag
        try store.recordSessionFinished(finish, nowUnixNanoseconds: Sample.now)
        _ = try store.deleteAllLocalData()
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session_study") } == 0)
        #expect(try store.studyAssignment()?.assignment == StudyFixture.assignment)
    }
}
