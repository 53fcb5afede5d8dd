import ChronoCore

/// The product's `LoopDriver`: the kernel's clock and one wait.
///
/// Each wait arms the `AbsoluteTimer` (a timerfd, `TFD_TIMER_ABSTIME`) at the deadline, then blocks in
/// `ppoll` — with no timeout — on the mailbox's eventfd, the timer, the signal pipe and the button's
/// descriptor. Absolute deadlines do not drift, a timerfd is not rounded by the timer slack a poll
/// timeout would get, and nothing spins. Workers are `HandoffWriter` threads.
public final class KernelLoopDriver: LoopDriver {
    private let timer: AbsoluteTimer
    /// The descriptors of the last wait and their poller: rebuilt only when the set changes (once per
    /// loop, and once more for the last cue's play-out), not on every turn.
    private var watched: [Int32] = []
    private var poller = Poller([])

    public init() throws {
        timer = try AbsoluteTimer()
    }

    public func now() -> MonotonicInstant { MonotonicClock.now() }

    public func wait(until deadline: MonotonicInstant?, on sources: LoopSources) throws -> LoopReadiness {
        try timer.arm(at: deadline)
        var descriptors: [Int32] = []
        if let mailbox = sources.mailbox { descriptors.append(mailbox.wakeup.descriptor) }
        descriptors.append(timer.descriptor)
        if let signals = sources.signals { descriptors.append(signals.descriptor) }
        if let button = sources.button { descriptors.append(button.pollDescriptor) }
        if descriptors != watched {
            watched = descriptors
            poller = Poller(descriptors)
        }

        let ready = try poller.wait()
        // Not read: the next wait re-arms the timer, which clears its expiry (AbsoluteTimer.arm), so the
        // wake-up path has no syscall before the motor's.
        let timerFired = ready.readable.contains(timer.descriptor)
        let button = sources.button?.pollDescriptor
        return LoopReadiness(
            deadlinePassed: timerFired,
            buttonEdges: button.map { ready.readable.contains($0) } ?? false,
            buttonClosed: button.map { ready.hungUp.contains($0) } ?? false,
            messages: sources.mailbox.map { ready.readable.contains($0.wakeup.descriptor) } ?? false,
            signals: sources.signals.map { ready.readable.contains($0.descriptor) } ?? false)
    }

    public func makeWorker(_ role: LoopWorkerRole) -> LoopWorker {
        HandoffWriter(name: role.threadName)
    }
}
