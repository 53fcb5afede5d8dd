/// How many connections a server holds at once: per remote address, from all remote addresses
/// together, and from the owner (the Unix socket and loopback TCP, counted apart from the rest so
/// that a remote flood can never take the owner's share). Beyond a cap a new connection is accepted
/// and closed at once (`ConnectionLimit`), so it never waits in the backlog holding a
/// descriptor. Derived from the open-file limit by default, so the caps together stay well below it:
/// what is left is the store's, the state file's temporary, the drivers', the loop's and libdispatch's.
public struct ConnectionLimits: Hashable, Sendable {
    /// Connections one remote address may hold. 64: a companion page uses six at most (a browser's
    /// per-host limit) plus its live-event stream, a phone and a laptop behind one NAT a few dozen;
    /// a single address can then take only a sixteenth of the remote share.
    public var perRemoteAddress: Int
    /// Connections all remote addresses together may hold.
    public var remoteTotal: Int
    /// Connections the owner may hold: the Unix socket and loopback TCP together. A reserve the remote
    /// caps cannot reach; loopback has one address, so it has no per-address cap of its own.
    public var localTotal: Int

    public init(perRemoteAddress: Int, remoteTotal: Int, localTotal: Int) {
        self.perRemoteAddress = max(1, perRemoteAddress)
        self.remoteTotal = max(1, remoteTotal)
        self.localTotal = max(1, localTotal)
    }

    /// 64 per remote address; remote total a quarter of `descriptorLimit`, at most 1,024; the owner's
    /// an eighth, at most 256. At the usual soft limit of 1,024 that is 256 + 128, leaving 640
    /// descriptors for everything else; at a service's 65,536 it is 1,024 + 256 — a Pi answers a
    /// household, and more connections than that are an attack, not a use.
    public init(descriptorLimit: UInt64) {
        let limit = Int(min(descriptorLimit, UInt64(Int32.max)))
        self.init(perRemoteAddress: min(64, max(1, limit / 16)), remoteTotal: min(limit / 4, 1024), localTotal: min(limit / 8, 256))
    }

    /// The caps for this process's soft open-file limit now (after `DescriptorLimit.raiseToHardLimit`).
    public static func forCurrentDescriptorLimit() -> ConnectionLimits {
        ConnectionLimits(descriptorLimit: DescriptorLimit.current().soft)
    }
}
