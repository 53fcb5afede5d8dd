import ChronoCore
import ChronoTesting
import Testing
@testable import ChronoRuntime

/// The daemon's start cue (`HapticCue.deviceReady`, or `setupProblem` while the first-boot marker
/// exists) through the real loop on virtual time with a recording motor: played once as the loop
/// starts (the button armed), its exact edges, bounded by the motor gate's safe maximum like any
/// vibration, and the device trains after it.
@Suite("The daemon's start cue on virtual time")
struct DaemonStartCueTests {
    static func ms(_ value: Int64) -> MonotonicInstant { VirtualHarness.ms(value) }

    static func harness(_ cue: HapticCue?, safeMaximumOn: TimeSpan = .milliseconds(1000), onsetLatency: TimeSpan = .zero) throws -> VirtualHarness {
        let parts = DaemonParts(try QuickSession.configuration(.challenge, count: 1))
        let controller = DeviceDaemonController(keeper: parts.keeper, board: "test", pressHint: "press space",
                                                soundStatus: { .inaudible(reason: "none") }, startCue: cue)
        let harness = try VirtualHarness(controller: controller, onsetLatency: onsetLatency, safeMaximumOn: safeMaximumOn,
                                         alsoRecord: [parts.library])
        parts.keeper.connect(harness.loop.messenger)
        return harness
    }

    /// The motor's commands as (on, milliseconds).
    static func commands(_ harness: VirtualHarness) -> [(Bool, Int64)] {
        harness.motor.commands.map { ($0.on, $0.atMonotonicNanoseconds / 1_000_000) }
    }

    @Test("device-ready: one 600 ms buzz as the loop starts, nothing else until the button is used")
    func ready() throws {
        let harness = try Self.harness(.deviceReady)
        harness.stop(at: Self.ms(3_000))
        _ = try harness.run()
        #expect(Self.commands(harness).map(\.0) == [true, false, false])
        #expect(Self.commands(harness).map(\.1) == [0, 600, 3_000])
        #expect(harness.lines.all.first?.hasPrefix("Ready. Tap") == true)
    }

    @Test("with an onset latency the cue asked for now still starts now, whole")
    func readyWithOnsetLatency() throws {
        let harness = try Self.harness(.deviceReady, onsetLatency: .milliseconds(25))
        harness.stop(at: Self.ms(1_000))
        _ = try harness.run()
        #expect(Self.commands(harness).map(\.1) == [0, 600, 1_000])
    }

    @Test("setup-problem: five ticks then the buzz, exact edges; the device still trains after it")
    func setupProblemThenTrains() throws {
        let harness = try Self.harness(.setupProblem)
        harness.tap(at: Self.ms(2_000))   // idle: the session starts
        harness.tap(at: Self.ms(3_000))   // the attempt's start
        harness.tap(at: Self.ms(3_400))   // its tap
        harness.stop(at: Self.ms(8_000))
        _ = try harness.run()
        let cue = Self.commands(harness).prefix(12)
        #expect(cue.map(\.0) == [true, false, true, false, true, false, true, false, true, false, true, false])
        #expect(cue.map(\.1) == [0, 40, 100, 140, 200, 240, 300, 340, 400, 440, 500, 1_100])
        #expect(Self.commands(harness).dropFirst(12).first.map { $0.1 >= 2_000 } == true)
        #expect(harness.recorder.finished.map(\.outcome.status) == [.completed])
        #expect(harness.motor.endedOff)
    }

    @Test("the motor gate's safe maximum bounds the start cue like any vibration")
    func boundedBySafeMaximum() throws {
        let harness = try Self.harness(.deviceReady, safeMaximumOn: .milliseconds(250))
        harness.stop(at: Self.ms(2_000))
        _ = try harness.run()
        #expect(Self.commands(harness).map(\.0) == [true, false, false])
        #expect(Self.commands(harness).map(\.1) == [0, 250, 2_000])
    }

    @Test("played once per start: not again when the daemon comes back to idle after a session; no cue when none is given")
    func oncePerStart() throws {
        let rig = ControllerRig(try QuickSession.configuration(.challenge, count: 1), startCue: .deviceReady)
        #expect(rig.cues.map(\.0) == ["device-ready"])
        #expect(rig.cues.first?.1 == Self.ms(0))
        rig.feed([.button(RawButtonEdge(pressed: true, at: Self.ms(1_000))), .button(RawButtonEdge(pressed: false, at: Self.ms(1_060))),
                  .button(RawButtonEdge(pressed: true, at: Self.ms(2_000))), .button(RawButtonEdge(pressed: false, at: Self.ms(2_060))),
                  .button(RawButtonEdge(pressed: true, at: Self.ms(2_400))), .button(RawButtonEdge(pressed: false, at: Self.ms(2_460)))],
                 until: Self.ms(8_000))
        #expect(rig.recorder.finished.count == 1)
        #expect(rig.lines.contains { $0.hasPrefix("Idle. Tap to start") })
        #expect(rig.cues.filter { $0.0 == "device-ready" }.count == 1)
        let silent = ControllerRig(try QuickSession.configuration(.challenge, count: 1))
        #expect(silent.cues.isEmpty)
    }
}
