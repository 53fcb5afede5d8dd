import ChronoAPI
import ChronoCore
import ChronoRuntime
import Synchronization

/// The running daemon as the device API sees it (`DeviceControl`): the status is the latest state the
/// loop published, actions go through the loop's mailbox as `DaemonRequest`s, and live events are the
/// daemon's `RuntimeEventHub`, translated. Nothing here waits on the loop.
///
/// One hub serves the daemon's whole life; the loop behind it may be replaced (an input-device button
/// unplugged and back), so the current `DaemonHandle` is swapped in with `attach` and requests made
/// while there is none are refused.
final class DaemonDevice: DeviceControl {
    let hub: RuntimeEventHub
    private let handle = Mutex<DaemonHandle?>(nil)
    private let setupReport = Mutex<DeviceSetup?>(nil)

    init(hub: RuntimeEventHub) {
        self.hub = hub
    }

    /// The loop now running (nil while the daemon waits for its button).
    func attach(_ current: DaemonHandle?) {
        handle.withLock { $0 = current }
    }

    /// The drivers as opened (again after an input-device button came back).
    func report(setup: DeviceSetup) {
        setupReport.withLock { $0 = setup }
    }

    func setup() -> DeviceSetup {
        setupReport.withLock { $0 } ?? DeviceSetup(board: nil, parts: [], note: "The device is waiting for its button to be connected.")
    }

    func status() -> DeviceStatus {
        guard let state = hub.latestState else { return DeviceStatus(state: RuntimeState.Name.stopped.rawValue) }
        return Self.status(state, publishedAt: hub.latestStatePublishedAt)
    }

    func perform(_ action: DeviceAction) async -> DeviceActionResult {
        guard let current = handle.withLock({ $0 }) else {
            return .refused(.busy, reason: "The device is waiting for its button to be connected; try again when it is back.")
        }
        return Self.result(await current.request(Self.request(for: action)))
    }

    func events() -> AsyncStream<DeviceEvent> {
        AsyncStream { continuation in
            // Attempt k of N comes with the state; the feedback event carries N from the last state seen.
            let attemptCount = Mutex<Int?>(nil)
            let subscription = hub.subscribeWithTimes { event, publishedAt in
                switch event {
                case .stateChanged(let state):
                    attemptCount.withLock { $0 = state.attemptCount ?? state.repetitionCount }
                    continuation.yield(.state(Self.status(state, publishedAt: publishedAt)))
                case .attemptFeedback(let sessionID, let measurement):
                    // Sent once the attempt is answered: never an elapsed time while it runs.
                    continuation.yield(.feedback(DeviceFeedback(
                        sessionID: sessionID, index: measurement.index, count: attemptCount.withLock { $0 } ?? measurement.index,
                        text: measurement.feedbackText, zone: measurement.zone.rawValue)))
                case .sessionFinished(let sessionID, let outcome):
                    continuation.yield(.sessionFinished(sessionID: sessionID, status: outcome.status.rawValue))
                }
            }
            continuation.onTermination = { _ in subscription.cancel() }
        }
    }

    /// `updated` is when the loop published the state, on the wall clock (what a page compares with
    /// its own clock to measure how long an event took to reach the screen).
    static func status(_ state: RuntimeState, publishedAt: MonotonicInstant?) -> DeviceStatus {
        DeviceStatus(version: RuntimeState.formatVersion, state: state.state.rawValue, board: state.board, mode: state.mode,
                     interval: state.interval, attempt: state.attempt, attemptCount: state.attemptCount,
                     repetitionsDone: state.repetitionsDone, repetitionCount: state.repetitionCount,
                     nextBoundary: state.nextBoundary, fearSound: state.fearSound, health: state.health,
                     lastFeedback: state.lastFeedback, sessionID: state.sessionID, offeredPreset: state.offeredPreset,
                     pairingRequest: state.pairingRequest,
                     nextSession: state.nextSession.map { DeviceStatus.NextSession(mode: $0.mode, interval: $0.interval, count: $0.count) },
                     updated: publishedAt.map { MonotonicClock.wallClockAnchor().wallTime(at: $0) })
    }

    static func request(for action: DeviceAction) -> DaemonRequest {
        switch action {
        case .start(.lastConfiguration): return .startLast
        case .start(.preset(let interval)): return .startPreset(interval)
        case .start(.explicit(let mode, let interval, let count)): return .start(mode: mode, interval: interval, count: count)
        case .endPassive: return .endPassive
        case .discard: return .discard
        case .approvePairing(let requester, let window): return .approvePairing(requester, within: window)
        }
    }

    static func result(_ reply: DaemonReply) -> DeviceActionResult {
        switch reply {
        case .started(let id, let configuration):
            return .done(message: "Started a \(configuration.mode.rawValue) session at \(configuration.interval) (\(id)).")
        case .ended(let id, let status):
            return .done(message: "Ended the Passive session \(id): \(status.rawValue).")
        case .discarded(let id):
            return .done(message: "Discarded the session \(id); it is not logged.")
        case .pairingApproved:
            return .done(message: "Approved on the device (a long press).")
        case .refused(let refusal):
            return .refused(refusalKind(refusal), reason: refusal.description)
        }
    }

    static func refusalKind(_ refusal: DaemonRefusal) -> DeviceRefusal {
        switch refusal {
        case .sessionRunning: return .sessionRunning
        case .nothingRunning, .sessionAlreadySaved: return .nothingRunning
        // The device is finishing the session that just ended (its summary): busy for a moment, not running one.
        case .sessionJustEnded: return .busy
        case .notPassive: return .notPassive
        case .fearNotOptedIn: return .fearNotEnabled
        case .invalidConfiguration: return .invalidConfiguration
        case .pairingQueueFull, .stopping: return .busy
        case .pairingRefused: return .pairingNotApproved
        case .notADaemon: return .noDevice
        }
    }
}
