import Synchronization

/// Limits how fast enrolment codes can be guessed: at most so many *refused* attempts per minute from
/// one address, and from all addresses together (fixed one-minute windows). An attempt that enrols a
/// device is forgiven, so a study team enrolling hundreds of devices from one desk (one address, or
/// one NAT) is never slowed; only wrong, used or expired codes (and malformed requests) count.
///
/// Each attempt takes its slot when it is admitted and gives it back if it enrols a device, so
/// parallel guesses cannot overshoot the limit while they are being checked. The overall cap bounds
/// guessing spread over many addresses; while it is reached every address waits for the next minute
/// (a 60-bit code is out of reach at 120 guesses a minute anyway: the cap is defence in depth, and
/// costs a legitimate enrolment at most a minute while someone is guessing).
/// Time is given by the caller (whole seconds of any monotonic clock).
final class EnrolmentRateLimit: Sendable {
    /// An admitted attempt, to hand back to `forgive` when it enrolled a device.
    struct Ticket: Sendable, Equatable {
        let address: String
        let window: Int64
    }

    enum Decision: Sendable, Equatable {
        case admitted(Ticket)
        case limited(retryAfterSeconds: Int64)
    }

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

    /// Whether one more attempt from `address` at `nowSeconds` may be checked; when not, the seconds
    /// until the next window. An admitted attempt counts until it is forgiven.
    func admit(address: String, nowSeconds: Int64) -> Decision {
        state.withLock { state in
            let window = nowSeconds / 60
            if window != state.window {
                state = State(window: window)
            }
            guard state.total < overall, state.byAddress[address, default: 0] < perAddress else {
                return .limited(retryAfterSeconds: (window + 1) * 60 - nowSeconds)
            }
            state.total += 1
            state.byAddress[address, default: 0] += 1
            return .admitted(Ticket(address: address, window: window))
        }
    }

    /// The attempt enrolled a device: it no longer counts (a ticket of a past window has nothing to
    /// give back).
    func forgive(_ ticket: Ticket) {
        state.withLock { state in
            guard state.window == ticket.window, let count = state.byAddress[ticket.address], count > 0 else { return }
            state.byAddress[ticket.address] = count - 1
            state.total -= 1
        }
    }
}
