/// When each key was last used, kept in memory, and which uses are worth writing to the store (pure:
/// times come in as values).
///
/// Writing the store on every request would put a SQLite write (and a WAL sync) behind every page a
/// companion loads. So the ledger keeps the exact last use in memory and asks for a store write only
/// when a key's stored time is `persistInterval` or more behind: at most one write a minute per key,
/// and the first use after the server starts. The stored time is therefore the last use to within
/// `persistInterval`; the server's own listing (`GET /keys`) shows the in-memory time, to the second.
public struct KeyUseLedger: Sendable, Equatable {
    /// The most the stored last use may lag the real one.
    public static let defaultPersistInterval: Int64 = 60

    public struct Use: Sendable, Equatable {
        /// The latest use seen, in Unix seconds.
        public var lastUsed: Int64
        /// The time last written to the store by this server.
        public var persisted: Int64
    }

    public let persistInterval: Int64
    public private(set) var uses: [String: Use] = [:]

    public init(persistInterval: Int64 = defaultPersistInterval) {
        self.persistInterval = persistInterval
    }

    /// Notes a use of key `id` at `now` (Unix seconds); true when the store should be written now.
    /// A wall clock stepped back by more than the interval also writes, so the stored time follows it.
    public mutating func noteUse(id: String, at now: Int64) -> Bool {
        guard var use = uses[id] else {
            uses[id] = Use(lastUsed: now, persisted: now)
            return true
        }
        use.lastUsed = max(use.lastUsed, now)
        let persist = now - use.persisted >= persistInterval || use.persisted - now >= persistInterval
        if persist { use.persisted = now; use.lastUsed = now }
        uses[id] = use
        return persist
    }

    /// The latest use of `id` this server saw, if any.
    public func lastUsed(id: String) -> Int64? { uses[id]?.lastUsed }

    /// Drops a revoked key's entry.
    public mutating func forget(id: String) { uses[id] = nil }
}
