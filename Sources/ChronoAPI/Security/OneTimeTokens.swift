import Synchronization

/// Short-lived, single-use tokens kept in memory only (a restart forgets them): the delete-all
/// confirmation and the one-time login links. Expiry is on the monotonic clock.
final class OneTimeTokens: Sendable {
    private let entries = Mutex<[String: ContinuousClock.Instant]>([:])
    let lifetime: Duration
    /// At most this many outstanding tokens; the oldest go first (a flood cannot grow memory).
    let capacity: Int

    init(lifetime: Duration, capacity: Int = 32) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// A new token, valid for `lifetime`.
    func issue() -> String {
        let token = Secrets.token(byteCount: 24)
        let now = ContinuousClock.now
        entries.withLock { entries in
            entries = entries.filter { $0.value > now }
            while entries.count >= capacity, let oldest = entries.min(by: { $0.value < $1.value }) {
                entries.removeValue(forKey: oldest.key)
            }
            entries[token] = now + lifetime
        }
        return token
    }

    /// Spends a token: true once, if it was issued and has not expired.
    func redeem(_ token: String) -> Bool {
        let now = ContinuousClock.now
        return entries.withLock { entries in
            guard let key = entries.keys.first(where: { Secrets.equal($0, token) }), let expiry = entries.removeValue(forKey: key) else {
                return false
            }
            return expiry > now
        }
    }
}
