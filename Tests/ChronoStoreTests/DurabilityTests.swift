import ChronoTesting
import ChronoCore
@testable import ChronoStore
import Testing

@Suite("Running rows, recovery and idempotent saves")
struct DurabilityTests {
    func start(_ id: String, configuration: SessionConfiguration? = nil) throws -> SessionStartRecord {
        SessionStartRecord(sessionID: id, configuration: try configuration ?? SessionConfiguration(mode: .challenge, interval: .builtInPreset),
                           anchor: Sample.anchor, board: "pi4b", soundAudible: true, wallClockSynchronised: true)
    }

    @Test("a running row of a dead writer becomes interrupted once; a live writer's is left alone")
    func recovery() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.recordSessionStarted(start(sid("dead")), writer: ProcessIdentity(bootID: "an-old-boot", pid: 1, startTicks: 1))
        try store.recordSessionStarted(start(sid("alive")), writer: .current)
        #expect(try store.recoverInterruptedSessions(nowUnixNanoseconds: Sample.now) == [sid("dead")])
        #expect(try store.recoverInterruptedSessions(nowUnixNanoseconds: Sample.now).isEmpty)
        let dead = try store.session(id: sid("dead"))
        #expect(dead.outcome.status == .interrupted && !dead.isRunning)
        #expect(dead.healthLedger?.state == .skipped)
        #expect(try store.session(id: sid("alive")).isRunning)
    }

    @Test("finishing twice stores once and writes one record; raw marks are kept exactly, even absurd ones")
    func idempotentAndRaw() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        // A tap 0.001 s after the start and one 2 h late: both stored as they are.
        let outcome = Sample.attempts(.challenge, [0.001, 7200])
        try store.recordSessionStarted(start(sid("S1"), configuration: outcome.configuration))
        #expect(try store.recordSessionFinished(Sample.finish(sid("S1"), outcome), nowUnixNanoseconds: Sample.now).stored)
        #expect(try !store.recordSessionFinished(Sample.finish(sid("S1"), outcome), nowUnixNanoseconds: Sample.now).stored)
        #expect(try healthLogLines(store).count == 1)
        let stored = try store.session(id: sid("S1"))
        #expect(stored.outcome.attempts == outcome.attempts)
        #expect(try store.rankedPresets(nowUnixSeconds: 1_795_000_000).first { $0.interval.seconds == 60 }?.useCount == 1)
    }

    @Test("Passive boundaries keep due and fired instants")
    func boundaries() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        let outcome = Sample.passive(planned: 3, done: 3)
        try store.recordSessionFinished(Sample.finish(sid("P"), outcome), nowUnixNanoseconds: Sample.now)
        let stored = try store.session(id: sid("P"))
        #expect(stored.outcome.boundaries == outcome.boundaries)
        #expect(stored.boundariesFired == outcome.boundaries.map { $0.due + .milliseconds(3) })
    }
}
