import ChronoCore
import ChronoHardware
import ChronoRuntime
import Glibc
import Synchronization

/// `board check --loopback`'s path on real kernel lines: the session loop drives the gpio-sim chip's
/// motor line (1) at absolute deadlines and reads line 4 as its button, with libgpiod's kernel stamps;
/// `LoopbackAnalysis` pairs them. gpio-sim lines cannot be wired to each other, so a bridge thread
/// stands in for the jumper: it reads the motor's value and mirrors it onto line 4's pull. The check is
/// that the path works and that the figures are well-formed and no smaller than the bridge's own delay,
/// not that they are fast (TCG). Then the bridge is left out: no jumper, no edges.
struct LoopbackChecks {
    let chip: SimulatedChip
    let label: String
    let report: CheckReport

    static let pulses = 20
    /// 100 ms on and off: room for the bridge's delay under the arm64 emulator too (Tests/pi-vm).
    static let period = TimeSpan.milliseconds(200)

    func run() {
        report.check("loopback through a bridge: every switch comes back, deadline → edge ≥ the bridge's delay") {
            let bridge = Bridge(chip: chip)
            let (controller, analysis) = try measure(bridge: bridge)
            guard case .measured(let toEdge, let toHandling) = analysis.outcome else {
                return (false, "\(analysis.outcome)")
            }
            let seen = bridge.seen
            let switches = controller.switches
            let bridgeDelays = zip(switches, seen).map { Double(($0.1 - $0.0.due).nanoseconds) / 1000 }
            let bridgeFloor = bridgeDelays.min() ?? 0
            let wellFormed = toEdge.count == 2 * Self.pulses && toHandling.count == 2 * Self.pulses
                && toEdge.min <= toEdge.p50 && toEdge.p50 <= toEdge.p99 && toEdge.p99 <= toEdge.max
                && toHandling.min >= 0 && seen.count == switches.count
            return (wellFormed && toEdge.min >= bridgeFloor,
                    "deadline → edge p50 \(Int(toEdge.p50)) µs, p99 \(Int(toEdge.p99)), max \(Int(toEdge.max)), min \(Int(toEdge.min)); "
                        + "edge → handling p50 \(Int(toHandling.p50)) µs, max \(Int(toHandling.max)); "
                        + "the bridge saw the switches from \(Int(bridgeFloor)) µs after their deadlines, \(seen.count) of \(switches.count)")
        }
        report.check("loopback without the bridge: no edges, so no figures") {
            let (_, analysis) = try measure(bridge: nil, pulses: 5)
            return (analysis.outcome == .noEdges(switches: 10), "\(analysis.outcome)")
        }
    }

    private func measure(bridge: Bridge?, pulses: Int = Self.pulses) throws -> (LoopbackBenchController, LoopbackAnalysis) {
        try chip.pull(line: 1, up: false)
        try chip.pull(line: 4, up: false)
        let motor = try GpiodMotor(line: GpioOutputLine(chip: label, line: .name("motor"), activeLow: false))
        defer { motor.close() }
        let input = try GpiodButton(line: GpioInputLine(chip: label, line: .offset(4), activeLow: false, bias: .pullDown),
                                    debounceMilliseconds: 0, role: "loopback")
        defer { input.close() }
        bridge?.start()
        defer { bridge?.stop() }
        let controller = LoopbackBenchController(count: pulses, period: Self.period)
        let settings = SessionLoop.Settings(onsetLatency: .zero, safeMaximumOn: .milliseconds(1000),
                                            realtimePriority: nil, lockMemory: false, catchSignals: false)
        let loop = try SessionLoop(button: input, motor: motor, sound: nil, controller: controller,
                                   sinks: LoopSinks(console: DiscardedLines(), stateFile: nil, recorder: nil), settings: settings)
        _ = try loop.run()
        return (controller, LoopbackAnalysis(switches: controller.switches, edges: controller.edges))
    }
}

/// The jumper's stand-in: a thread that reads the motor line's value every 200 µs and, on a change,
/// sets line 4's pull to match, keeping the instant it saw each change.
private final class Bridge: @unchecked Sendable {
    private let chip: SimulatedChip
    private let state = Mutex<(running: Bool, seen: [MonotonicInstant])>((false, []))
    private var thread: pthread_t?

    init(chip: SimulatedChip) { self.chip = chip }

    var seen: [MonotonicInstant] { state.withLock { $0.seen } }

    func start() {
        state.withLock { $0.running = true }
        let box = Unmanaged.passRetained(self)
        var handle = pthread_t()
        pthread_create(&handle, nil, { context in
            let bridge = Unmanaged<Bridge>.fromOpaque(context!).takeRetainedValue()
            bridge.mirror()
            return nil
        }, box.toOpaque())
        thread = handle
    }

    func stop() {
        state.withLock { $0.running = false }
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    private func mirror() {
        var last = 0
        var pause = timespec(tv_sec: 0, tv_nsec: 200_000)
        while state.withLock({ $0.running }) {
            if let value = try? chip.value(line: 1), value != last {
                let at = MonotonicInstant(nanoseconds: HardwareClock.monotonicNanoseconds())
                try? chip.pull(line: 4, up: value == 1)
                last = value
                state.withLock { $0.seen.append(at) }
            }
            nanosleep(&pause, nil)
        }
    }
}
