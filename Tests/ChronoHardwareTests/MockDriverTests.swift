import ChronoTesting
import Glibc
import Testing
@testable import ChronoHardware

@Suite("Mock drivers")
struct MockDriverTests {
    @Test func recordingMotorRecordsCommandsWithTheirInstants() throws {
        let clock = VirtualClock(start: 1_000)
        let motor = RecordingMotor(now: clock.read)
        try motor.set(on: true)
        clock.advance(by: 80)
        try motor.set(on: false)
        clock.advance(by: 20)
        motor.close()
        #expect(motor.events == [.set(on: true, atMonotonicNanoseconds: 1_000),
                                 .set(on: false, atMonotonicNanoseconds: 1_080),
                                 .closed(atMonotonicNanoseconds: 1_100)])
        #expect(motor.onSpans.map { [$0.start, $0.end] } == [[1_000, 1_080]])
        #expect(!motor.isOn)
        #expect(motor.closeCount == 1)
    }

    @Test func recordingMotorShowsAMotorLeftOnAndCanFail() throws {
        let motor = RecordingMotor()
        try motor.set(on: true)
        #expect(motor.isOn)
        #expect(motor.onSpans.count == 1 && motor.onSpans[0].end == nil)
        motor.failFromNowOn(MockDriverError("line lost"))
        #expect(throws: MockDriverError("line lost")) { try motor.set(on: false) }
    }

    @Test func recordingMotorUsesTheMonotonicClockByDefault() throws {
        let motor = RecordingMotor()
        let before = HardwareClock.monotonicNanoseconds()
        try motor.set(on: true)
        let after = HardwareClock.monotonicNanoseconds()
        let instant = try #require(motor.commands.first?.atMonotonicNanoseconds)
        #expect(before <= instant && instant <= after)
    }

    @Test func scriptedButtonWakesAPollFromAnotherThread() throws {
        let button = try ScriptedButton()
        defer { button.close() }
        #expect(Self.poll(button.pollDescriptor, timeoutMilliseconds: 0) == false)
        let edgeInstant = HardwareClock.monotonicNanoseconds() + 20_000_000
        let replay = button.startReplay([ButtonEdge(.pressed, at: edgeInstant)])
        #expect(Self.poll(button.pollDescriptor, timeoutMilliseconds: 5_000))
        #expect(HardwareClock.monotonicNanoseconds() >= edgeInstant, "woke before the edge was due")
        let edges = try button.readEdges()
        #expect(edges.count == 1 && edges[0].direction == .pressed)
        #expect(Self.poll(button.pollDescriptor, timeoutMilliseconds: 0) == false, "still readable after draining")
        replay.waitUntilFinished()
    }

    @Test func scriptedButtonKeepsEdgeTimestampsAndOrder() throws {
        let button = try ScriptedButton()
        button.injectTap(atMonotonicNanoseconds: 5_000, holdNanoseconds: 300)
        button.inject(ButtonEdge(.pressed, at: 9_000))
        #expect(try button.readEdges() == [ButtonEdge(.pressed, at: 5_000), ButtonEdge(.released, at: 5_300),
                                           ButtonEdge(.pressed, at: 9_000)])
        #expect(try button.readEdges().isEmpty)
        #expect(button.injectedEdges.count == 3)
        button.close()
        button.close()
        #expect(button.pollDescriptor == -1)
        button.inject(ButtonEdge(.pressed, at: 10_000))
        #expect(try button.readEdges().isEmpty)
    }

    @Test func scriptedButtonCanLoseItsLine() throws {
        let button = try ScriptedButton()
        button.failReadsFromNowOn(MockDriverError("unplugged"))
        #expect(throws: MockDriverError("unplugged")) { try button.readEdges() }
    }

    @Test func scriptedButtonTakesInjectionsFromManyThreads() async throws {
        let button = try ScriptedButton()
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<8 {
                group.addTask {
                    for index in 0..<100 { button.inject(ButtonEdge(.pressed, at: Int64(thread * 1000 + index))) }
                }
            }
        }
        #expect(try button.readEdges().count == 800)
    }

    @Test func recordingSoundRecordsAndCanBeInaudible() throws {
        let quiet = RecordingSound(audibility: .inaudible(reason: "muted"))
        #expect(quiet.checkAudibility() == .inaudible(reason: "muted"))
        #expect(throws: MockDriverError("muted")) { try quiet.prepare() }

        let sound = RecordingSound()
        #expect(sound.checkAudibility().isAudible)
        try sound.prepare()
        try sound.playAversiveSound()
        #expect(sound.playInstants.count == 1)
    }

    @Test func recordingSoundLosesTheDeviceMidSession() throws {
        let sound = RecordingSound()
        sound.loseSound(afterPlays: 2, reason: "USB speaker unplugged")
        try sound.playAversiveSound()
        #expect(sound.checkAudibility().isAudible)
        try sound.playAversiveSound()
        #expect(sound.checkAudibility() == .inaudible(reason: "USB speaker unplugged"))
        #expect(throws: MockDriverError("USB speaker unplugged")) { try sound.playAversiveSound() }
        #expect(sound.playInstants.count == 2)
        #expect(sound.events.contains { if case .playFailed = $0 { true } else { false } })
    }

    static func poll(_ descriptor: Int32, timeoutMilliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return Glibc.poll(&entry, 1, timeoutMilliseconds) == 1 && entry.revents & Int16(POLLIN) != 0
    }
}

/// A clock that only moves when told to.
final class VirtualClock: @unchecked Sendable {
    private var now: Int64
    init(start: Int64) { now = start }
    func advance(by nanoseconds: Int64) { now += nanoseconds }
    var read: @Sendable () -> Int64 { { [self] in now } }
}
