import ChronoCore

/// What the loop asks the outside world to do on behalf of its controller. Motor vibrations are
/// executed by the loop itself at their instants; everything else is handed off the loop thread.
public enum LoopAction: Sendable {
    /// Play this vibration at its due instant (early by the motor's onset latency).
    case vibrate(PlannedVibration)
    /// Signal the sound thread to play Fear Mode's aversive sound.
    case playAversiveSound
    /// A line for the person (feedback, summary, notices).
    case console(String)
    /// What the glanceable state file should now say; published only when it changed.
    case state(DeviceState)
    /// Hand to the recorder, on the writer thread.
    case sessionStarted(SessionStartRecord)
    case sessionFinished(SessionFinishRecord)
    /// Tell the subscribers (`DeviceEventHub`), on the writer thread.
    case event(DeviceEvent)
    /// Run this on the record writer's thread, after everything both writers were given before it (a
    /// reply to a request sees the state it changed published and its record saved; a snapshot refresh
    /// follows a saved record). Never run on the loop.
    case offLoop(@Sendable () -> Void)
}

/// The logic the loop runs: a session, the device daemon, or the benchmark. Called on the loop thread
/// only, so implementations keep plain mutable state; each call must return quickly (no I/O).
public protocol LoopController: AnyObject {
    /// The loop is starting; `now` is its first instant.
    func start(at now: MonotonicInstant) -> [LoopAction]
    /// The next instant at which the controller needs `handle(.deadline(now:))`, if any.
    var nextDeadline: MonotonicInstant? { get }
    /// Something happened: a button edge (with its own timestamp), a deadline reached (its instant),
    /// sound lost or restored.
    func handle(_ event: SessionEvent) -> [LoopAction]
    /// The vibrations the controller will ask for when `nextDeadline` is handled, if nothing else happens
    /// first — so the loop can start them early by the motor's onset latency. Must not change state.
    func predictedVibrations() -> [PlannedVibration]
    /// A vibration's first pulse began at `firedAt`: the clock read on the loop thread right after the
    /// motor driver's call returned, plus the board's onset latency (when the felt vibration began).
    /// A vibration whose start a stall passed is played late, whole, and reported late.
    func vibrationStarted(_ vibration: PlannedVibration, firedAt: MonotonicInstant)
    /// The loop must stop (a signal, a quit key, a lost device): wind down now, reporting what happens
    /// to a running session.
    func stop(at now: MonotonicInstant, reason: String) -> [LoopAction]
    /// Whether the controller is done; the loop then ends.
    var isFinished: Bool { get }
    /// A message from another thread (a new snapshot, a control request, SIGHUP's reload).
    func receive(_ message: ControllerMessage, at now: MonotonicInstant) -> [LoopAction]
}

extension LoopController {
    /// Controllers that are not the daemon refuse requests, answer the barrier (`published`) and ignore the rest.
    public func receive(_ message: ControllerMessage, at now: MonotonicInstant) -> [LoopAction] {
        switch message {
        case .request(_, let reply): return [.offLoop { reply(.refused(.notADaemon)) }]
        case .published(let reply): return [.offLoop { reply() }]
        case .snapshotChanged, .hangup, .battery: return []
        }
    }
}
