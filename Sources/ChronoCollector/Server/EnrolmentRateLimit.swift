import Synchronization

/// Admits at most so many enrolment attempts per minute from one address and from all together
/// (fixed one-minute windows), so nobody can try codes quickly even though a 60-bit code is out of
/// reach anyway. Time is given by the caller (whole seconds of any monotonic clock).
final class EnrolmentRateLimit: Sendable {
    private struct State {
        var window: Int64 = .min
        var total = 0
        var byAddress: [String: Int] = [:]
    }

    private let state = Mutex(State())
    let perAddress: Int
    let overall: Int

    init(perAddress: Int, overall: Int) {
        self.perAddress = perAddress
        self.overall = overall
    }

    /// Whether one more attempt from `address` at `nowSeconds` is admitted; when not, the seconds
    /// until the next window.
    func admit(address: String, nowSeconds: Int64) -> (admitted: Bool, retryAfterSeconds: Int64) {
        state.withLock { state in
            let window = nowSeconds / 60
            if window != state.window {
                state = State(window: window)
            }
            let retry = (window + 1) * 60 - nowSeconds
            guard state.total < overall, state.byAddress[address, default: 0] < perAddress else { return (false, retry) }
            state.total += 1
            state.byAddress[address, default: 0] += 1
            return (true, 0)
        }
    }
}
