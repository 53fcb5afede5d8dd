import ChronoCore

/// Hands every record to several recorders, in order.
public final class RecorderFanOut: SessionRecorder {
    private let recorders: [SessionRecorder]

    public init(_ recorders: [SessionRecorder]) {
        self.recorders = recorders
    }

    public func sessionStarted(_ start: SessionStartRecord) {
        for recorder in recorders { recorder.sessionStarted(start) }
    }

    public func sessionFinished(_ finish: SessionFinishRecord) {
        for recorder in recorders { recorder.sessionFinished(finish) }
    }
}
