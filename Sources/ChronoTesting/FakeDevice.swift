import ChronoCore
import Synchronization

/// A scripted device for API tests: it keeps a status, answers actions by the same rules and in the
/// same words a device does (one session at a time, `end` for Passive only, Fear only when it was
/// built with `fearAllowed`, as a daemon decides from its opt-in; a waiting pairing request blocks
/// nothing and shows in the status), records what it was asked, and approves pairing only when the
/// test approves on the device (`approveOnDevice()`, the long press) within the window.
public final class FakeDevice: DeviceControl {
    private struct State {
        var status: DeviceState
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

    public init(status: DeviceState = DeviceState(state: .idle, board: "desktop", health: "on"),
                setup: DeviceSetup = DeviceSetup(board: "desktop", parts: [
                    DeviceSetup.Part(name: "button", status: .info, detail: "terminal keyboard"),
                ], note: "The drivers the fake device opened."), fearAllowed: Bool = false) {
        state = Mutex(State(status: status, fearAllowed: fearAllowed))
        setupReport = setup
    }

    public func status() -> DeviceState { state.withLock { $0.status } }

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

    public func perform(_ action: DeviceAction) async -> DeviceReply {
        if case .approvePairing(let requester, let window) = action {
            return await waitForApproval(requester, window: window)
        }
        let (result, events) = state.withLock { state -> (DeviceReply, [DeviceEvent]) in
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
    public func publish(_ status: DeviceState) {
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

    private func waitForApproval(_ requester: PairingRequester, window: TimeSpan) async -> DeviceReply {
        let busy = state.withLock { state in
            state.actions.append(.approvePairing(requester, window: window))
            state.pairingRequested.append(requester)
            return state.pendingPairing != nil
        }
        // The fake keeps one request waiting: a second finds its queue full.
        if busy { return .refused(.pairingQueueFull) }
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
        return approved ? .pairingApproved : .refused(.pairingRefused("no long press within the time given"))
    }

    private static func apply(_ action: DeviceAction, to state: inout State) -> (DeviceReply, [DeviceEvent]) {
        let running = state.status.sessionInProgress
        let id = state.status.sessionID ?? ""
        switch action {
        case .start(let request):
            guard !running else { return (.refused(.sessionRunning(sessionID: id)), []) }
            // As the daemon: the core's Fear rule, given this device's answer.
            if case .explicit(let mode, _, _) = request, !FearPermission(allowed: state.fearAllowed).allowsByName(mode) {
                return (.refused(.fearNotOptedIn), [])
            }
            let configuration: SessionConfiguration
            do {
                switch request {
                case .lastConfiguration: configuration = try SessionConfiguration(mode: .challenge, interval: TrainingInterval(seconds: 60))
                case .preset(let interval): configuration = try SessionConfiguration(mode: .challenge, interval: interval)
                case .explicit(let mode, let interval, let count):
                    configuration = try SessionConfiguration(mode: mode, interval: interval, plannedCount: count)
                }
            } catch {
                return (.refused(.invalidConfiguration(String(describing: error))), [])
            }
            state.sessionNumber += 1
            var status = state.status
            status.sessionID = "FAKE-\(state.sessionNumber)"
            status.mode = configuration.mode
            status.interval = configuration.interval
            if configuration.mode.usesAttempts {
                status.attempt = 1
                status.attemptCount = configuration.plannedCount
                status.state = .waitingForStart
            } else {
                status.repetitionsDone = 0
                status.repetitionCount = configuration.plannedCount
                status.state = .passiveRunning
            }
            state.status = status
            return (.started(sessionID: status.sessionID ?? "", configuration: configuration), [.state(status)])
        case .endPassive:
            guard running else { return (.refused(.nothingRunning), []) }
            guard state.status.mode == .passive else { return (.refused(.notPassive(state.status.mode ?? .challenge)), []) }
            return (.ended(sessionID: id, status: .completed), finish(&state, as: .completed))
        case .discard:
            guard running else { return (.refused(.nothingRunning), []) }
            return (.discarded(sessionID: id), finish(&state, as: .aborted))
        case .approvePairing:
            return (.refused(.pairingQueueFull), [])
        }
    }

    /// Back to idle; the events a device sends for the session's end.
    private static func finish(_ state: inout State, as status: SessionStatus) -> [DeviceEvent] {
        let id = state.status.sessionID ?? ""
        var idle = DeviceState(state: .idle, board: state.status.board, health: state.status.health)
        idle.pairingRequest = state.status.pairingRequest
        state.status = idle
        return [.sessionFinished(sessionID: id, status: status), .state(idle)]
    }
}
