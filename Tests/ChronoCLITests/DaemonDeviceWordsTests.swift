import ChronoAPI
import ChronoCore
import ChronoRuntime
import Testing
@testable import ChronoCLI
@testable import ChronoDevice

/// The daemon's answers as the API and the control verbs pass them on (`DaemonDevice`): the code the
/// HTTP status comes from, and the words `chronoception start/end/discard` print after `error: `.
@Suite("The daemon's answers in the API's terms")
struct DaemonDeviceWordsTests {
    @Test("in the summary window: discard and end are nothing_running saying the session is already saved; start is busy for a moment, never 'already running'")
    func summaryWindowWords() {
        let id = "3136593B-0000-4000-8000-000000000001"
        #expect(DaemonDevice.result(.refused(.sessionAlreadySaved(sessionID: id, status: .completed, discard: true)))
                == .refused(.nothingRunning, reason: "Nothing to discard: the session that just ended (\(id)) is already saved as completed."))
        #expect(DaemonDevice.result(.refused(.sessionAlreadySaved(sessionID: id, status: .completed, discard: false)))
                == .refused(.nothingRunning, reason: "Nothing to end: the session that just ended (\(id)) is already saved as completed."))
        #expect(DaemonDevice.result(.refused(.sessionJustEnded(sessionID: id)))
                == .refused(.busy, reason: "The session that just ended (\(id)) is saved and the device is showing its summary; start again in a moment."))
        // A running session is still refused as running.
        #expect(DaemonDevice.result(.refused(.sessionRunning(sessionID: id)))
                == .refused(.sessionRunning, reason: "A session is already running (\(id)); end or discard it first."))
    }

    @Test("the daemon's next session reaches the API's status field for field")
    func nextSessionCopied() throws {
        var state = RuntimeState(state: .idle, board: "desktop", health: "on")
        state.nextSession = RuntimeState.NextSession(mode: .passive, interval: try TrainingInterval(seconds: 15), count: 2)
        let status = DaemonDevice.status(state, publishedAt: nil)
        #expect(status.nextSession == DeviceStatus.NextSession(mode: .passive, interval: try TrainingInterval(seconds: 15), count: 2))
        #expect(DaemonDevice.status(RuntimeState(state: .passiveRunning, board: "desktop", health: "on"), publishedAt: nil).nextSession == nil)
    }
}
