/// How many failed authentications an address may make before it is made to wait (issue 20: 2,000
/// guessed login tokens and 300 guessed keys were answered at 2,750 a second). Defaults: 10 failures
/// within 60 s lock the address out for 300 s — a person mistyping a key or a link a few times never
/// meets it, a guesser gets 10 tries per six minutes instead of thousands a second.
public struct FailedAuthLimits: Hashable, Sendable {
    /// Failures within `windowNanoseconds` that lock the address.
    public var failures: Int
    public var windowNanoseconds: Int64
    /// How long a locked address is refused.
    public var lockoutNanoseconds: Int64
    /// Addresses remembered at once; past it the stalest is forgotten (a flood of addresses cannot
    /// grow memory without bound; forgetting one only gives it its ten tries again).
    public var trackedAddresses: Int

    public init(failures: Int = 10, windowSeconds: Int64 = 60, lockoutSeconds: Int64 = 300, trackedAddresses: Int = 4096) {
        self.failures = max(failures, 1)
        windowNanoseconds = max(windowSeconds, 1) * 1_000_000_000
        lockoutNanoseconds = max(lockoutSeconds, 1) * 1_000_000_000
        self.trackedAddresses = max(trackedAddresses, 1)
    }
}

/// The pure core of the failed-authentication limit: per address, the failures of the current window
/// and the end of a lockout. Time is given by the caller (nanoseconds of any monotonic clock), so tests
/// move it by hand. Not thread-safe: `FailedAuthLimiter` keeps it under a lock.
///
/// A credential presented again is not a new guess: the same wrong key (a browser's stale cookie, a
/// revoked device retrying) counts once per window, so an honest client never locks itself out, while
/// guessing needs a new value each time and is counted in full.
public struct FailedAuthLedger: Sendable {
    struct Entry: Sendable {
        var windowStart: Int64
        var failures = 0
        /// Fingerprints of the credentials counted in this window.
        var seen: Set<Int> = []
        var lockedUntil: Int64?
        var lastFailure: Int64
    }

    public let limits: FailedAuthLimits
    private(set) var entries: [String: Entry] = [:]

    public init(limits: FailedAuthLimits = FailedAuthLimits()) {
        self.limits = limits
    }

    /// Whole seconds `address` must still wait, rounded up; nil when it may try.
    public func retryAfterSeconds(address: String, now: Int64) -> Int64? {
        guard let until = entries[address]?.lockedUntil, until > now else { return nil }
        return (until - now + 999_999_999) / 1_000_000_000
    }

    /// Counts a failure from `address` with a credential's fingerprint (nil when none could be told
    /// apart: every such failure counts). Returns the lockout's seconds when this failure starts one.
    @discardableResult
    public mutating func recordFailure(address: String, credential: Int?, now: Int64) -> Int64? {
        if entries[address] == nil && entries.count >= limits.trackedAddresses { makeRoom(now: now) }
        var entry = entries[address] ?? Entry(windowStart: now, lastFailure: now)
        if let until = entry.lockedUntil {
            // Failures while locked out were refused before being checked; one that slipped in (it
            // was admitted just before the lock) changes nothing.
            if until > now { return nil }
            entry = Entry(windowStart: now, lastFailure: now)
        }
        if now - entry.windowStart >= limits.windowNanoseconds {
            entry = Entry(windowStart: now, lastFailure: now)
        }
        entry.lastFailure = now
        if let credential {
            guard entry.seen.insert(credential).inserted else {
                entries[address] = entry
                return nil
            }
        }
        entry.failures += 1
        var locked: Int64?
        if entry.failures >= limits.failures {
            entry.lockedUntil = now + limits.lockoutNanoseconds
            locked = limits.lockoutNanoseconds / 1_000_000_000
        }
        entries[address] = entry
        return locked
    }

    /// Forgets entries that no longer matter (window over, not locked); if that frees nothing, the
    /// stalest eighth of those not locked out (a flood of new addresses must not free a locked
    /// guesser), else of all. An eighth at a time, so a flood of new addresses costs this scan once
    /// per `trackedAddresses / 8` of them, not once each.
    private mutating func makeRoom(now: Int64) {
        entries = entries.filter { _, entry in
            if let until = entry.lockedUntil { return until > now }
            return now - entry.windowStart < limits.windowNanoseconds
        }
        guard entries.count >= limits.trackedAddresses else { return }
        let unlocked = entries.filter { $0.value.lockedUntil == nil }
        let pool = unlocked.isEmpty ? entries : unlocked
        let stalest = pool.sorted { $0.value.lastFailure < $1.value.lastFailure }.prefix(max(1, limits.trackedAddresses / 8))
        for (address, _) in stalest { entries.removeValue(forKey: address) }
    }

    /// Addresses remembered now (for tests of the bound).
    public var trackedCount: Int { entries.count }

    /// The key an address is limited under: an IPv4 address as it is, an IPv6 address by its /64
    /// network (one host usually holds a whole /64, so its single addresses are no limit), loopback
    /// as one; nil for the Unix socket, which is the device's own user and never limited.
    public static func addressKey(_ peer: RequestPeer) -> String? {
        switch peer {
        case .unixSocket: return nil
        case .loopback: return "loopback"
        case .remote(let text): return networkKey(text)
        }
    }

    static func networkKey(_ text: String) -> String {
        // An IPv4-mapped address is its IPv4 address: RequestPeer's one rule for it.
        let address = RequestPeer.unmapped(text)
        guard address.contains(":") else { return address }
        let lower = address.lowercased()
        guard let groups = ipv6Groups(lower) else { return lower }
        return groups.prefix(4).map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }

    /// The eight 16-bit groups of an IPv6 address in text (with `::`), or nil.
    static func ipv6Groups(_ text: String) -> [UInt16]? {
        let address = text.split(separator: "%", maxSplits: 1).first.map(String.init) ?? text
        let halves = address.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func parse(_ part: String) -> [UInt16]? {
            if part.isEmpty { return [] }
            var groups: [UInt16] = []
            for piece in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else { return nil }
                groups.append(value)
            }
            return groups
        }
        guard let head = parse(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 8 ? head : nil }
        guard let tail = parse(halves[1]), head.count + tail.count < 8 else { return nil }
        return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    }
}
