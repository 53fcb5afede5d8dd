import ChronoCore
import ChronoHardware

/// Executes a `MotorPlan` on a motor driver, and is the one place that enforces the motor's safety
/// rules whatever the plan (or the engine behind it) asks:
/// - the motor is never on for longer than the board's safe maximum in one go: a run of touching
///   pulses is cut at `safeMaximumOn` and the motor stays off until that run would have ended;
/// - `switchOff()` is called on every way out of the loop (normal end, signal, thrown error) and
///   leaves the motor off even if the driver failed before.
///
/// A vibration whose start passed before the loop could act (a stall, a stopped process) starts when
/// the loop acts, whole (`MotorPlan.startLateOnesWhole`), and is reported with the instant it really
/// began: a late mark is recorded as late, never as on time and never dropped.
///
/// Used on the loop thread only.
final class MotorGate {
    let motor: MotorOutput
    private(set) var plan: MotorPlan
    private(set) var isOn = false
    private var onSince: MonotonicInstant?
    /// After a forced stop, the motor stays off until this instant.
    private var lockedOutUntil: MonotonicInstant?
    /// How many times the safe maximum had to cut the motor.
    private(set) var forcedStops = 0
    /// The loop's clock (`LoopDriver.now()`), read right after a driver call.
    private let clock: () -> MonotonicInstant
    /// A switch-on the loop may make the moment it wakes, before the turn's bookkeeping
    /// (`arm(wake:)`, `switchOnIfArmed(now:)`).
    private var armedSwitchOn: MonotonicInstant?
    /// When that switch-on really happened (the clock right after the driver call), for `apply` to report.
    private var armedBegan: MonotonicInstant?

    init(motor: MotorOutput, plan: MotorPlan, clock: @escaping () -> MonotonicInstant) {
        self.motor = motor
        self.plan = plan
        self.clock = clock
    }

    var safeMaximumOn: TimeSpan { plan.safeMaximumOn }

    func add(_ vibration: PlannedVibration, now: MonotonicInstant) { plan.add(vibration, now: now) }

    func predict(_ vibrations: [PlannedVibration], now: MonotonicInstant) { plan.predict(vibrations, now: now) }

    /// Before the loop waits until `wake`: when a pulse starts exactly then and nothing can decide
    /// otherwise (the motor is off, not locked out, and no vibration is queued behind a late one), the
    /// switch-on is armed, so that the loop makes it the moment it wakes, ahead of the turn's work: a
    /// pulse's lateness is then the kernel's wake-up and one driver call, as cyclictest measures it.
    func arm(wake: MonotonicInstant?) {
        armedSwitchOn = nil
        guard let wake, !isOn, lockedOutUntil == nil, !plan.entries.contains(where: \.late),
              plan.stretches.contains(where: { $0.start == wake }) else { return }
        armedSwitchOn = wake
    }

    /// Right after the loop wakes: the armed switch-on, once its instant has come and a pulse still
    /// covers `now`. `apply(now:)` then reaches the same decision (moving a late vibration to `now`
    /// keeps it covering `now`) and reports the pulse with this instant.
    func switchOnIfArmed(now: MonotonicInstant) throws {
        guard let at = armedSwitchOn, now >= at else { return }
        armedSwitchOn = nil
        guard !isOn, plan.stretch(covering: now) != nil else { return }
        try motor.set(on: true)
        isOn = true
        onSince = now
        armedBegan = clock()
    }

    /// Brings the motor to the state the plan and the safety rules want at `now`; returns the vibrations
    /// whose first pulse was switched on by this call, each with the instant it began to be felt: the
    /// clock read right after the driver call returned, plus the board's onset latency (the motor was
    /// commanded that much early so that the felt start lands on time; on the desktop board it is 0).
    func apply(now: MonotonicInstant) throws -> [(entry: MotorPlan.Entry, began: MonotonicInstant)] {
        if let until = lockedOutUntil, now >= until { lockedOutUntil = nil }
        plan.startLateOnesWhole(at: now)
        var wantOn = plan.stretch(covering: now) != nil && lockedOutUntil == nil
        if isOn, wantOn, let since = onSince, now - since >= plan.safeMaximumOn {
            wantOn = false
            forcedStops += 1
            lockedOutUntil = plan.endOfRun(covering: now) ?? now
        }
        var fired: [(entry: MotorPlan.Entry, began: MonotonicInstant)] = []
        if wantOn != isOn {
            try motor.set(on: wantOn)
            isOn = wantOn
            onSince = wantOn ? now : nil
        }
        // Read the clock after the driver call: the instant the pulse really began. (A vibration whose
        // start passed while locked out counts as started too: it has had its turn.)
        let started = plan.markStarted(upTo: now)
        if !started.isEmpty {
            let began = (armedBegan ?? clock()) + plan.onsetLatency
            fired = started.map { ($0, began) }
        }
        armedBegan = nil
        plan.prune(before: now)
        return fired
    }

    /// When the gate next needs to act: the plan's next edge, or the safety cut-off, or the end of a
    /// lock-out.
    func nextWake(after now: MonotonicInstant) -> MonotonicInstant? {
        var candidates: [MonotonicInstant] = []
        if let change = plan.nextChange(after: now) { candidates.append(change) }
        if isOn, let since = onSince { candidates.append(since + plan.safeMaximumOn) }
        if let until = lockedOutUntil { candidates.append(until) }
        return candidates.min()
    }

    /// Switches the motor off now and forgets the plan. Never throws: it is the clean-up path. If the
    /// driver refuses, `close()` (which must leave the line off) is the last resort.
    func switchOff() {
        plan.clear()
        do {
            try motor.set(on: false)
        } catch {
            motor.close()
        }
        isOn = false
        onSince = nil
        lockedOutUntil = nil
        armedSwitchOn = nil
        armedBegan = nil
    }
}
