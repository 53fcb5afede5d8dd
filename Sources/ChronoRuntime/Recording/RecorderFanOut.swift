import ChronoCore

/// Hands every record to several recorders, in order. A start that does not say whether the wall
/// clock was synchronised is settled here, once, when `isWallClockSynchronised` is given, so every
/// recorder (the store's row, a fallback file, the JSON lines) keeps the same answer: asked of the
/// kernel by each, a clock that synchronised between two questions gave two.
public final class RecorderFanOut: SessionRecorder {
    private let recorders: [SessionRecorder]
    private let isWallClockSynchronised: (@Sendable () -> Bool)?

    public init(_ recorders: [SessionRecorder], isWallClockSynchronised: (@Sendable () -> Bool)? = nil) {
        self.recorders = recorders
        self.isWallClockSynchronised = isWallClockSynchronised
    }

    public func sessionStarted(_ start: SessionStartRecord) {
        var settled = start
        if settled.wallClockSynchronised == nil, let isWallClockSynchronised { settled.wallClockSynchronised = isWallClockSynchronised() }
        for recorder in recorders { recorder.sessionStarted(settled) }
    }

    public func sessionFinished(_ finish: SessionFinishRecord) {
        for recorder in recorders { recorder.sessionFinished(finish) }
    }
}
