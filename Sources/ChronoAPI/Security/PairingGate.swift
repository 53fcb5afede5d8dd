import ChronoCore
import Synchronization

/// Who may ask to pair now, per requesting address (pure: time comes in as an argument).
///
/// Anyone who can reach the port may ask, so asking must be cheap to refuse, and one asker must not
/// lock out another: each address has its own budget of `limit` requests in any `window` and may have
/// one request waiting on the device at a time. Remote addresses together may have at most
/// `remoteWaitingLimit` waiting; the local user (Unix socket, loopback) is never counted against that,
/// so no flood from the network can lock the owner's own pairing out.
struct PairingLimits: Sendable {
    /// Why a request was not admitted.
    enum Admission: Hashable, Sendable {
        case admitted
        /// This address already has a request waiting on the device.
        case alreadyPending
        /// Too many remote requests wait on the device already.
        case tooManyWaiting(Int)
        /// This address asked `limit` times within the window; it may ask again after this many seconds.
        case tooMany(retryAfterSeconds: Int)
    }

    let limit: Int
    let window: TimeSpan
    let remoteWaitingLimit: Int
    /// Each address's admissions within the window, oldest first.
    private(set) var recent: [String: [MonotonicInstant]] = [:]
    /// The addresses with a request waiting on the device.
    private(set) var waiting: Set<String> = []

    /// Local addresses (see `PairingAddress`) are never counted in `remoteWaitingLimit`.
    static let localAddresses: Set<String> = [PairingAddress.unixSocket, PairingAddress.loopback]

    /// The device queues `PairingQueue.capacity` requests: room is kept for the two local askers.
    init(limit: Int = 5, window: TimeSpan = .seconds(60), remoteWaitingLimit: Int = PairingQueue.capacity - 2) {
        self.limit = limit
        self.window = window
        self.remoteWaitingLimit = remoteWaitingLimit
    }

    /// Admits one request from `address` at `now` (then `finish(address:)` must follow) or says why not.
    /// Every request counts against its address's budget, admitted or not, so asking again while one
    /// waits is no cheaper than waiting.
    mutating func admit(address: String, now: MonotonicInstant) -> Admission {
        let horizon = now - window
        // Forget every address's old requests, so the table holds only the last window's askers.
        for (key, instants) in recent {
            let kept = instants.filter { $0 > horizon }
            recent[key] = kept.isEmpty ? nil : kept
        }
        let mine = recent[address] ?? []
        if mine.count >= limit, let oldest = mine.first {
            let wait = oldest + window - now
            let seconds = (wait.nanoseconds + 999_999_999) / 1_000_000_000
            return .tooMany(retryAfterSeconds: Int(max(1, seconds)))
        }
        recent[address] = mine + [now]
        if waiting.contains(address) { return .alreadyPending }
        if !Self.localAddresses.contains(address) {
            let remoteWaiting = waiting.subtracting(Self.localAddresses).count
            if remoteWaiting >= remoteWaitingLimit { return .tooManyWaiting(remoteWaiting) }
        }
        waiting.insert(address)
        return .admitted
    }

    /// The request admitted for `address` has been answered.
    mutating func finish(address: String) {
        waiting.remove(address)
    }
}

/// How a pairing request's origin is named on the device and counted by the limits.
enum PairingAddress {
    static let unixSocket = "unix-socket"
    static let loopback = "loopback"

    /// The peer's address: its IP address, or `loopback`, or `unix-socket`.
    static func of(_ peer: RequestPeer) -> String {
        switch peer {
        case .unixSocket: return unixSocket
        case .loopback: return loopback
        case .remote(let address): return address
        }
    }
}

/// `PairingLimits` shared by the server's requests, on the server's monotonic clock.
final class PairingGate: Sendable {
    private let limits: Mutex<PairingLimits>
    private let clock: @Sendable () -> MonotonicInstant

    /// - Parameter clock: the instant now (tests pass their own); by default the process's
    ///   continuous clock, counted from the gate's creation.
    init(limit: Int = 5, window: TimeSpan = .seconds(60), clock: (@Sendable () -> MonotonicInstant)? = nil) {
        limits = Mutex(PairingLimits(limit: limit, window: window))
        if let clock {
            self.clock = clock
        } else {
            let elapsed = ElapsedClock.nanosecondsSinceNow()
            self.clock = { MonotonicInstant(nanoseconds: elapsed()) }
        }
    }

    /// Admits one request from `address` (then `finish(address:)` must follow) or says why not.
    func admit(address: String) -> PairingLimits.Admission {
        let now = clock()
        return limits.withLock { $0.admit(address: address, now: now) }
    }

    func finish(address: String) {
        limits.withLock { $0.finish(address: address) }
    }
}
