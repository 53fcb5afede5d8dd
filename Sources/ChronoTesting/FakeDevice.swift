import ChronoAPI
import ChronoCore
import Synchronization

/// A scripted device for API tests: it keeps a status, answers actions by the same rules a device
/// applies (one session at a time, `end` for Passive only, Fear only when it was built with
/// `fearAllowed`, as a daemon decides from its opt-in; a waiting pairing request blocks nothing
/// and shows in the status), records what it was asked, and approves pairing only when the test
/// approves on the device (`approveOnDevice()`, the long press) within the window.
public final class FakeDevice: DeviceControl {
    private struct State {
        var status: DeviceStatus
        var actions: [DeviceAction] = []
        var subscribers: [Int: AsyncStream<DeviceEvent>.Continuation] = [:]
        var nextSubscriber = 0
        var pendingPairing: CheckedContinuation<Bool, Never>?
        var pairingRequested: [PairingRequester] = []
        var sessionNumber = 0
        var fearAllowed: Bool
    }

    private let state: Mutex<State>
    private let setupReport: DeviceSetup

    public init(status: DeviceStatus = DeviceStatus(state: "Idle", board: "desktop", health: "on"),
                setup: DeviceSetup = DeviceSetup(board: "desktop", parts: [
                    DeviceSetup.Part(name: "button", status: .info, detail: "terminal keyboard"),
                ], note: "The drivers the fake device opened."), fearAllowed: Bool = false) {
        state = Mutex(State(status: status, fearAllowed: fearAllowed))
        setupReport = setup
    }

    public func status() -> DeviceStatus { state.withLock { $0.status } }

    public func setup() -> DeviceSetup { setupReport }

    /// Every action asked for, in order.
    public var actions: [DeviceAction] { state.withLock { $0.actions } }

    /// Names of the companions that asked to pair.
    public var pairingRequests: [String] { state.withLock { $0.pairingRequested.map(\.name) } }

    /// The companions that asked to pair, with the addresses they asked from.
    public var pairingRequesters: [PairingRequester] { state.withLock { $0.pairingRequested } }

    /// How many event subscribers are attached now.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Whether a pairing request is waiting on the device.
    public var pairingPending: Bool { state.withLock { $0.pendingPairing != nil } }

    public func perform(_ action: DeviceAction) async -> DeviceActionResult {
        if case .approvePairing(let requester, let window) = action {
            return await waitForApproval(requester, window: window)
        }
        let (result, events) = state.withLock { state -> (DeviceActionResult, [DeviceEvent]) in
            state.actions.append(action)
            return Self.apply(action, to: &state)
        }
        events.forEach(emit)
        return result
    }

    /// The person's long press in idle: approves a pending pairing. Returns whether one was pending.
    @discardableResult
    public func approveOnDevice() -> Bool {
        let pending = state.withLock { state in
            defer { state.pendingPairing = nil }
            return state.pendingPairing
        }
        pending?.resume(returning: true)
        return pending != nil
    }

    /// Sets the status and publishes it as a state event.
    public func publish(_ status: DeviceStatus) {
        state.withLock { $0.status = status }
        emit(.state(status))
    }

    /// Sends any event to subscribers.
    public func emit(_ event: DeviceEvent) {
        let targets = state.withLock { Array($0.subscribers.values) }
        for continuation in targets { continuation.yield(event) }
    }

    public func events() -> AsyncStream<DeviceEvent> {
        let (stream, continuation) = AsyncStream<DeviceEvent>.makeStream()
        let id = state.withLock { state in
            defer { state.nextSubscriber += 1 }
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    private func waitForApproval(_ requester: PairingRequester, window: TimeSpan) async -> DeviceActionResult {
        let busy = state.withLock { state in
            state.actions.append(.approvePairing(requester, window: window))
            state.pairingRequested.append(requester)
            return state.pendingPairing != nil
        }
        if busy { return .refused(.busy, reason: "Another pairing is waiting on the fake device.") }
        let approved = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            state.withLock { state in
                state.pendingPairing = continuation
                state.status.pairingRequest = requester
            }
            // Silence: the window passes with no press.
            Task {
                try? await Task.sleep(for: .nanoseconds(window.nanoseconds))
                let expired = self.state.withLock { state in
                    defer { state.pendingPairing = nil }
                    return state.pendingPairing
                }
                expired?.resume(returning: false)
            }
        }
        state.withLock { $0.status.pairingRequest = nil }
        return approved ? .done(message: "Paired \(requester.name).")
            : .refused(.pairingNotApproved, reason: "Nobody approved on the device within \(window.nanoseconds / 1_000_000_000) s; pairing was not approved.")
    }

    private static func apply(_ action: DeviceAction, to state: inout State) -> (DeviceActionResult, [DeviceEvent]) {
        let running = state.status.sessionInProgress
        switch action {
        case .start(let request):
            guard !running else { return (.refused(.sessionRunning, reason: "A session is already running; end or discard it first."), []) }
            if case .explicit(.fear, _, _) = request, !state.fearAllowed {
                return (.refused(.fearNotEnabled, reason: "Fear Mode is not opted into: turn it on with the fear-mode setting."), [])
            }
            state.sessionNumber += 1
            var status = state.status
            status.sessionID = "FAKE-\(state.sessionNumber)"
            switch request {
            case .lastConfiguration:
                status.mode = .challenge
                status.interval = try? TrainingInterval(seconds: 60)
                status.attempt = 1
                status.attemptCount = 1
                status.state = "WaitingForStart"
            case .preset(let interval):
                status.mode = .challenge
                status.interval = interval
                status.attempt = 1
                status.attemptCount = 1
                status.state = "WaitingForStart"
            case .explicit(let mode, let interval, let count):
                status.mode = mode
                status.interval = interval
                if mode == .passive {
                    status.repetitionsDone = 0
                    status.repetitionCount = count ?? SessionConfiguration.defaultRepetitionCount
                    status.state = "PassiveRunning"
                } else {
                    status.attempt = 1
                    status.attemptCount = count ?? 1
                    status.state = "WaitingForStart"
                }
            }
            state.status = status
            return (.done(message: "Starting \(status.mode?.rawValue ?? "") at \(status.interval?.description ?? "")."), [.state(status)])
        case .endPassive:
            guard running else { return (.refused(.nothingRunning, reason: "No session is running."), []) }
            guard state.status.mode == .passive else {
                return (.refused(.notPassive, reason: "Only a Passive session is ended; discard a Challenge or Fear session instead."), [])
            }
            return finish(&state, as: "Completed")
        case .discard:
            guard running else { return (.refused(.nothingRunning, reason: "No session is running."), []) }
            return finish(&state, as: "Aborted")
        case .approvePairing:
            return (.refused(.busy, reason: "unreachable"), [])
        }
    }

    private static func finish(_ state: inout State, as end: String) -> (DeviceActionResult, [DeviceEvent]) {
        let id = state.status.sessionID ?? ""
        var idle = DeviceStatus(state: "Idle", board: state.status.board, health: state.status.health)
        idle.version = state.status.version
        idle.pairingRequest = state.status.pairingRequest
        state.status = idle
        return (.done(message: "Session \(end.lowercased())."), [.sessionFinished(sessionID: id, status: end.lowercased()), .state(idle)])
    }
}
