import Synchronization

/// The connections one server holds now, by who holds them (`ConnectionLimits`): shared by all of a
/// server's listeners, so the Unix socket and TCP draw on one account. Each admitted connection is
/// released exactly once, when it closes.
public final class ConnectionCounter: Sendable {
    /// Whose share a connection draws on.
    public enum Holder: Hashable, Sendable {
        /// The Unix socket or loopback TCP.
        case owner
        /// A TCP peer beyond loopback, by its address.
        case remote(String)

        public init(_ peer: RequestPeer) {
            switch peer {
            case .unixSocket, .loopback: self = .owner
            case .remote(let address): self = .remote(address)
            }
        }
    }

    public let limits: ConnectionLimits

    private struct State {
        var owner = 0
        var remote = 0
        var byAddress: [String: Int] = [:]
    }

    private let state = Mutex(State())

    public init(limits: ConnectionLimits) {
        self.limits = limits
    }

    /// Takes one connection for `holder` if its caps allow it; false: the connection must be closed.
    public func admit(_ holder: Holder) -> Bool {
        state.withLock { state in
            switch holder {
            case .owner:
                guard state.owner < limits.localTotal else { return false }
                state.owner += 1
            case .remote(let address):
                let held = state.byAddress[address, default: 0]
                guard state.remote < limits.remoteTotal, held < limits.perRemoteAddress else { return false }
                state.remote += 1
                state.byAddress[address] = held + 1
            }
            return true
        }
    }

    /// Gives back a connection `admit` took.
    public func release(_ holder: Holder) {
        state.withLock { state in
            switch holder {
            case .owner:
                state.owner = max(0, state.owner - 1)
            case .remote(let address):
                state.remote = max(0, state.remote - 1)
                let held = state.byAddress[address, default: 0]
                if held <= 1 { state.byAddress.removeValue(forKey: address) } else { state.byAddress[address] = held - 1 }
            }
        }
    }

    /// The connections held now: the owner's, all remote ones, and how many remote addresses hold any.
    public var held: (owner: Int, remote: Int, addresses: Int) {
        state.withLock { ($0.owner, $0.remote, $0.byAddress.count) }
    }
}
