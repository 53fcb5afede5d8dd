/// Who asks to pair: the name the companion gave and the address it asked from, so the person at the
/// device can tell their own phone from a stranger before approving.
public struct PairingRequester: Hashable, Sendable {
    /// The companion's name as it sent it (already validated by the API's key-name rule).
    public var name: String
    /// Where it asked from: an IP address, `loopback` or `unix-socket`.
    public var address: String

    public init(name: String, address: String) {
        self.name = name
        self.address = address
    }
}

/// The pairing requests waiting for the person at the device, as a pure value (the daemon's loop keeps
/// one; time comes in as arguments).
///
/// One request is shown at a time, the oldest: it is the one the console, the state file and the
/// companion name, and the one a long press approves. Its window starts when it is shown, not when it
/// arrived, so a request queued behind another still gets its whole window; one address asking over
/// and over therefore cannot keep another's request from being seen (the API admits one waiting
/// request per address). The queue holds at most `capacity` requests; more are refused.
public struct PairingQueue: Hashable, Sendable {
    /// A request in the queue.
    public struct Entry: Hashable, Sendable {
        /// Given by the queue, in arrival order; the daemon keys its replies by it.
        public let id: Int
        public let requester: PairingRequester
        /// How long it may be shown before it expires unapproved.
        public let window: TimeSpan
        /// When it was first shown (its window's start); nil while it waits behind another.
        public fileprivate(set) var shownAt: MonotonicInstant?

        /// When it expires: its window after it was shown (nil while not shown yet).
        public var expiresAt: MonotonicInstant? { shownAt.map { $0 + window } }
    }

    /// What `add` did.
    public enum Admission: Hashable, Sendable {
        /// Queued under this id; `shown` when it is the one shown now (the queue was empty).
        case queued(id: Int, shown: Bool)
        /// The queue is full: refused.
        case full
    }

    /// The most requests that wait at once.
    public static let capacity = 8

    public private(set) var entries: [Entry] = []
    private var nextID = 1

    public init() {}

    /// The request shown now (the oldest), if any.
    public var current: Entry? { entries.first }

    /// When the shown request expires, if one is shown.
    public var nextDeadline: MonotonicInstant? { current?.expiresAt }

    /// Queues a request that arrived at `now`; `window` must be longer than zero.
    public mutating func add(_ requester: PairingRequester, window: TimeSpan, at now: MonotonicInstant) -> Admission {
        guard entries.count < Self.capacity else { return .full }
        let id = nextID
        nextID += 1
        entries.append(Entry(id: id, requester: requester, window: window, shownAt: entries.isEmpty ? now : nil))
        return .queued(id: id, shown: entries.count == 1)
    }

    /// Removes every shown request whose window has passed at `now`, showing the next one at `now`
    /// (a queued request's window starts when it is shown). Returns those that expired, oldest first.
    public mutating func expire(at now: MonotonicInstant) -> [Entry] {
        var expired: [Entry] = []
        while let head = entries.first, let end = head.expiresAt, end <= now {
            expired.append(entries.removeFirst())
            showNext(at: now)
        }
        return expired
    }

    /// Takes the shown request out as approved at `now` (the next is shown from `now`); nil when none
    /// is shown.
    public mutating func approveCurrent(at now: MonotonicInstant) -> Entry? {
        guard !entries.isEmpty else { return nil }
        let approved = entries.removeFirst()
        showNext(at: now)
        return approved
    }

    /// Empties the queue (the device is stopping); returns what was in it.
    public mutating func removeAll() -> [Entry] {
        defer { entries.removeAll() }
        return entries
    }

    private mutating func showNext(at now: MonotonicInstant) {
        if !entries.isEmpty, entries[0].shownAt == nil { entries[0].shownAt = now }
    }
}
