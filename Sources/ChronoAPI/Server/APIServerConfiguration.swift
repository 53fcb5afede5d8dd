import ChronoCore
import ChronoStore
import Foundation

/// Where the API listens and whom it trusts.
public struct APIServerConfiguration: Sendable {
    /// The default TCP port (`chronoception run` and `companion`).
    public static let defaultPort = 8737

    /// The Unix socket's path; nil for none.
    public var socketPath: String?
    /// The TCP listener; nil for none. Port 0 takes a free port (tests).
    public var tcp: TCPAddress?
    public var localTrust: LocalTrust
    /// Unix signals that stop the server gracefully (`companion`); empty when the owner stops it (the daemon).
    public var stopOnSignals: Bool
    /// The wall clock, in Unix nanoseconds (progress windows, key creation times).
    public var now: @Sendable () -> Int64
    /// How long the device waits for its button when a companion asks to pair.
    public var pairingWindow: TimeSpan = .seconds(30)
    /// How many pairing requests any one minute admits.
    public var pairingRequestsPerMinute = 5
    /// How many connections the server holds at once, per remote address, remote in all and the
    /// owner's; nil: derived from the open-file limit when the server is made (`ConnectionLimits`).
    public var connectionLimits: ConnectionLimits?

    public init(socketPath: String?, tcp: TCPAddress?, localTrust: LocalTrust = .socketAndLoopback, stopOnSignals: Bool = false,
                now: @escaping @Sendable () -> Int64 = { LocalTimeZone.nowUnixNanoseconds() }) {
        self.socketPath = socketPath
        self.tcp = tcp
        self.localTrust = localTrust
        self.stopOnSignals = stopOnSignals
        self.now = now
    }

    /// `$XDG_RUNTIME_DIR/chronoception/api.sock` for a user, `/run/chronoception/api.sock` for the
    /// service (its `RuntimeDirectory=chronoception`), next to the state file.
    public static func defaultSocketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/chronoception/api.sock"
        }
        return "/run/chronoception/api.sock"
    }
}

/// A TCP address to listen on, parsed from `ADDR:PORT` (`[v6]:PORT` for IPv6).
public struct TCPAddress: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public static let loopbackDefault = TCPAddress(host: "127.0.0.1", port: APIServerConfiguration.defaultPort)

    /// Parses `ADDR:PORT`; the error names the expected form.
    public init(parsing text: String) throws(APIError) {
        let failure = APIError(.badRequest, "invalid_listen", "--listen takes ADDR:PORT, e.g. 0.0.0.0:8737 or [::]:8737 or 127.0.0.1:8737; got '\(text)'.")
        var host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { throw failure }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw failure }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains(" "), let port = Int(portText), (0...65535).contains(port) else { throw failure }
        if host == "localhost" { host = "127.0.0.1" }
        self.init(host: String(host), port: port)
    }

    /// Whether only this machine can connect.
    public var isLoopback: Bool {
        host == "::1" || host.hasPrefix("127.")
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
