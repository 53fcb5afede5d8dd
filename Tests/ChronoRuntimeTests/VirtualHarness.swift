import ChronoTesting
import ChronoCore
import ChronoHardware
import Synchronization
@testable import ChronoRuntime

/// Runs a real `SessionLoop` on virtual time (`VirtualLoopDriver`) with mock drivers, on the test's
/// thread: the test schedules taps, requests and stops at exact instants, `run()` plays the whole
/// thing out in microseconds, and the motor's edges, the marks and the records are asserted exactly.
/// The clock starts at 0.
final class VirtualHarness {
    let driver: VirtualLoopDriver
    let button: ScriptedButton
    let motor: RecordingMotor
    let sound: RecordingSound?
    let lines = RecordingLines()
    let recorder = RecordingRecorder()
    let events = DeviceEventHub()
    let loop: SessionLoop

    /// - Parameters:
    ///   - sound: made by `sound(_:)` so its instants are virtual too.
    ///   - motor: the motor the loop drives; by default `self.motor`, which records virtual instants.
    init(controller: LoopController, driver: VirtualLoopDriver = VirtualLoopDriver(), sound: RecordingSound? = nil,
         motor: MotorOutput? = nil, stateFile: StateFile? = nil, onsetLatency: TimeSpan = .zero,
         safeMaximumOn: TimeSpan = .milliseconds(1000), alsoRecord: [SessionRecorder] = []) throws {
        self.driver = driver
        button = try ScriptedButton()
        let recording = RecordingMotor(now: { [driver] in driver.now().nanoseconds })
        self.motor = recording
        self.sound = sound
        loop = try SessionLoop(
            button: button, motor: motor ?? recording, sound: sound, controller: controller,
            sinks: LoopSinks(console: lines, stateFile: stateFile,
                             recorder: alsoRecord.isEmpty ? recorder : RecorderFanOut([recorder] + alsoRecord), events: events),
            settings: SessionLoop.Settings(onsetLatency: onsetLatency, safeMaximumOn: safeMaximumOn,
                                           realtimePriority: nil, lockMemory: false, catchSignals: false),
            driver: driver)
    }

    /// A recording sound whose instants are the driver's.
    static func sound(on driver: VirtualLoopDriver) -> RecordingSound {
        RecordingSound(now: { [driver] in driver.now().nanoseconds })
    }

    /// Milliseconds after the start.
    static func ms(_ value: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: value * 1_000_000) }

    /// Runs `action` when virtual time reaches `instant` (between two turns of the loop).
    func at(_ instant: MonotonicInstant, _ action: @escaping () -> Void) { driver.at(instant, action) }

    /// A press at `instant` and its release `holdMilliseconds` later, each delivered at its own instant.
    func tap(at instant: MonotonicInstant, holdMilliseconds: Int64 = 60) {
        let press = ButtonEdge(.pressed, at: instant.nanoseconds)
        let release = ButtonEdge(.released, at: instant.nanoseconds + holdMilliseconds * 1_000_000)
        driver.at(instant) { [button] in button.inject(press) }
        driver.at(MonotonicInstant(nanoseconds: release.monotonicNanoseconds)) { [button] in button.inject(release) }
    }

    /// Asks the loop to stop at `instant`, as the daemon's shutdown would.
    func stop(at instant: MonotonicInstant, reason: String = "done") {
        driver.at(instant) { [loop] in loop.stopper.stop(reason: reason) }
    }

    /// A handle on the loop, as the companion would hold it.
    var handle: DaemonHandle { DaemonHandle(loop: loop, events: events) }

    /// Asks `request` through the handle at `instant`; the answer is in the box once the loop has
    /// handled it (the records worker runs at the loop's next wait, at the same instant).
    @discardableResult
    func ask(_ request: DeviceAction, at instant: MonotonicInstant) -> Answer {
        let answer = Answer()
        driver.at(instant) { [handle] in handle.request(request) { reply in answer.set(reply) } }
        return answer
    }

    /// Runs the loop to its end on virtual time.
    func run() throws -> SessionLoop.Report { try loop.run() }

    /// Console lines containing `text`.
    func lines(containing text: String) -> [String] { lines.all.filter { $0.contains(text) } }

    /// The motor's switch-on instants.
    var onInstants: [MonotonicInstant] {
        motor.commands.filter(\.on).map { MonotonicInstant(nanoseconds: $0.atMonotonicNanoseconds) }
    }
}

/// A reply that arrives on the loop's records worker.
final class Answer: Sendable {
    private let reply = Mutex<DeviceReply?>(nil)
    func set(_ value: DeviceReply) { reply.withLock { $0 = value } }
    var value: DeviceReply? { reply.withLock { $0 } }
}

/// The device daemon (`DaemonParts`) wired to a virtual harness's loop like `run` wires it.
struct VirtualDaemonRig {
    let library: InMemoryDeviceLibrary
    let keeper: SnapshotKeeper
    let harness: VirtualHarness

    init(_ configuration: SessionConfiguration) throws {
        let parts = DaemonParts(configuration)
        (library, keeper) = (parts.library, parts.keeper)
        harness = try VirtualHarness(controller: parts.controller, alsoRecord: [library])
        keeper.connect(harness.loop.messenger)
    }
}
