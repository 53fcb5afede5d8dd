import Synchronization

/// Limits pairing requests: one waiting for the button at a time, and at most `limit` requests in
/// any `window` (anyone who can reach the port may ask, so asking must be cheap to refuse).
final class PairingGate: Sendable {
    private struct State {
        var pending = false
        var recent: [ContinuousClock.Instant] = []
    }

    enum Admission: Equatable {
        case admitted
        case alreadyPending
        case tooMany(retryAfterSeconds: Int)
    }

    private let state = Mutex(State())
    let limit: Int
    let window: Duration

    init(limit: Int = 5, window: Duration = .seconds(60)) {
        self.limit = limit
        self.window = window
    }

    /// Admits one request (then `finish()` must follow) or says why not.
    func admit() -> Admission {
        let now = ContinuousClock.now
        return state.withLock { state in
            state.recent.removeAll { $0 <= now - window }
            if state.recent.count >= limit, let oldest = state.recent.first {
                let wait = (oldest + window) - now
                return .tooMany(retryAfterSeconds: max(1, Int(wait.components.seconds) + 1))
            }
            state.recent.append(now)
            if state.pending { return .alreadyPending }
            state.pending = true
            return .admitted
        }
    }

    func finish() {
        state.withLock { $0.pending = false }
    }
}
