import ChronoRuntime

/// The daemon's writer, as tests over the product's store adapters need it: each batch of loop
/// actions is kept (for the test to read), session records go to the recorders in order (the store's,
/// then the library's, as `run` wires them), off-loop jobs run in order, and console lines go to
/// `lines`. One rig for every daemon test (DaemonRestartTests, DaemonStudyTests), so they cannot drift.
public final class LoopActionDelivery {
    /// Every action delivered so far, in order.
    public private(set) var actions: [LoopAction] = []
    private let recorders: [any SessionRecorder]
    private let lines: (any LineOutput)?

    public init(recorders: [any SessionRecorder], lines: (any LineOutput)? = nil) {
        self.recorders = recorders
        self.lines = lines
    }

    /// Delivers `batch`; true when an off-loop job ran, so the snapshot changed and the loop must be
    /// told (`controller.receive(.snapshotChanged, at:)`, as the keeper's messenger does in `run`).
    public func deliver(_ batch: [LoopAction]) -> Bool {
        actions += batch
        var refreshed = false
        for action in batch {
            switch action {
            case .sessionStarted(let record):
                for recorder in recorders { recorder.sessionStarted(record) }
            case .sessionFinished(let record):
                for recorder in recorders { recorder.sessionFinished(record) }
            case .offLoop(let job):
                job()
                refreshed = true
            case .console(let line):
                lines?.writeLine(line)
            default:
                break
            }
        }
        return refreshed
    }
}
