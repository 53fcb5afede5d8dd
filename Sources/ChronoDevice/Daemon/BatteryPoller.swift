import ChronoCore
import ChronoHardware
import ChronoRuntime
import Foundation
import Synchronization

/// Reads the board's battery on its own thread, never the loop's: at start, then once a minute
/// (a LiPo loses a percent in minutes, not seconds; reading an I²C gauge more often only costs power)
/// and at once on the kernel's power-supply uevents (`PowerSupplyEvents`: a charger plugged in), and
/// hands each reading to the loop as a `ControllerMessage.battery`. A problem reading it is said
/// once on the console (and again only when it changes), and the next poll tries again.
final class BatteryPoller: Sendable {
    /// Once a minute (docs/RUNTIME.md, "Battery").
    static let standardInterval = TimeSpan.seconds(60)

    private struct State {
        var messenger: LoopMessenger?
        var latest: BatteryReading?
        var lastProblem: String?
    }

    private let gauge: BatteryGauge
    private let interval: TimeSpan
    private let report: @Sendable (String) -> Void
    private let state = Mutex(State())
    private let stopSignal = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)
    /// The uevent socket; nil where it cannot be opened (then the thread only polls).
    private let events: PowerSupplyEvents?

    init(gauge: BatteryGauge, interval: TimeSpan = standardInterval, report: @escaping @Sendable (String) -> Void) {
        self.gauge = gauge
        self.interval = interval
        self.report = report
        do {
            events = try PowerSupplyEvents.open()
        } catch {
            events = nil
            report("Battery: power-supply uevents cannot be watched (\(error)); the battery is read every \(DurationText.format(magnitudeOf: interval)) only.")
        }
    }

    /// Starts the thread; its first reading is made at once.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "battery"
        thread.start()
    }

    /// The loop to tell (a new loop after an input device came back gets the latest reading at once).
    func connect(_ messenger: LoopMessenger) {
        let latest = state.withLock { state in
            state.messenger = messenger
            return state.latest
        }
        if let latest { messenger.post(.battery(latest)) }
    }

    func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        stopSignal.signal()
        events?.wake()
    }

    private func run() {
        while !stopped.load(ordering: .sequentiallyConsistent) {
            poll()
            if let events {
                if events.wait(milliseconds: Int(max(1, interval.milliseconds))) == .woken { return }
            } else {
                let nanoseconds = max(1, Int(interval.nanoseconds))
                if stopSignal.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success { return }
            }
        }
    }

    private func poll() {
        do {
            let sample = try gauge.read()
            guard let reading = BatteryReading(sample) else { return }
            let (messenger, recovered) = state.withLock { state in
                state.latest = reading
                defer { state.lastProblem = nil }
                return (state.messenger, state.lastProblem != nil)
            }
            if recovered { report("Battery: read again (\(reading.text)).") }
            messenger?.post(.battery(reading))
        } catch {
            let text = error.description
            let isNew = state.withLock { state in
                defer { state.lastProblem = text }
                return state.lastProblem != text
            }
            if isNew { report("\(text) The battery rules wait for a good reading; it is read again every \(DurationText.format(magnitudeOf: interval)).") }
        }
    }
}

extension BatteryReading {
    /// The hardware's validated sample as the core's reading (nil only if its bounds disagreed with
    /// the core's, which a test rules out).
    init?(_ sample: BatterySample) {
        let charge: Charge = switch sample.status {
        case .charging: .charging
        case .discharging: .discharging
        case .full: .full
        case .notCharging: .notCharging
        case .unknown: .unknown
        }
        self.init(percent: sample.percent, charge: charge, millivolts: sample.millivolts)
    }
}
