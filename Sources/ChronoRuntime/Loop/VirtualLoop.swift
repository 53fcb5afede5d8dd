import ChronoCore

/// Runs a loop controller — a single session or the whole device daemon — on a virtual clock: no
/// thread, no waiting, no devices. Inputs and deadlines reach the controller through `EventFeeding`,
/// exactly as the real loop feeds them, so a transcript of button edges replays the device's own
/// runner code (idle menu, preset browsing, sessions one after another). What the real loop would hand
/// to its writer thread runs inline: records go to `recorder`, off-loop jobs (snapshot refreshes,
/// replies) run at once.
public enum VirtualLoop {
    /// Everything the controller asked for, in order, and how it ended.
    public struct Transcript {
        public var actions: [LoopAction]
        /// Console lines among the actions.
        public var lines: [String] {
            actions.compactMap { if case .console(let line) = $0 { return line } else { return nil } }
        }
    }

    /// Starts the controller at `start`, feeds `inputs` (any order) with every deadline up to `end`,
    /// then stops it at `end` (a running session is interrupted, as a shutdown would).
    public static func run(_ controller: LoopController, start: MonotonicInstant, inputs: [SessionEvent],
                           end: MonotonicInstant, recorder: SessionRecorder? = nil) -> Transcript {
        var actions: [LoopAction] = []
        func perform(_ batch: [LoopAction]) {
            actions += batch
            for action in batch {
                switch action {
                case .sessionStarted(let record): recorder?.sessionStarted(record)
                case .sessionFinished(let record): recorder?.sessionFinished(record)
                case .offLoop(let job): job()
                default: break
                }
            }
        }
        perform(controller.start(at: start))
        EventFeeding.feed(inputs.filter { $0.instant <= end }, deadlinesUpTo: end, nextDeadline: { controller.nextDeadline }) { event in
            perform(controller.handle(event))
            return !controller.isFinished
        }
        perform(controller.stop(at: end, reason: "the transcript ended"))
        return Transcript(actions: actions)
    }
}
