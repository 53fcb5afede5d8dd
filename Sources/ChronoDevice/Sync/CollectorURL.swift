/// A collector's address as `sync add` takes it: `http://host[:port][/prefix]` or `https://…`
/// (TLS through NIOSSL, the certificate checked against the system's trusted CAs).
public struct CollectorURL: Hashable, Sendable, CustomStringConvertible {
    var host: String
    var port: Int
    /// `https://`: the exchange runs over TLS.
    var usesTLS: Bool
    /// A path prefix before `/api/v1/…` (a collector behind a reverse proxy's sub-path); "" or "/x".
    var prefix: String

    public var description: String { "\(usesTLS ? "https" : "http")://\(host.contains(":") ? "[\(host)]" : host):\(port)\(prefix)" }

    /// The error line when `text` is not a URL the device can use.
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    public init(parsing text: String) throws(Problem) {
        let lower = text.lowercased()
        usesTLS = lower.hasPrefix("https://")
        guard usesTLS || lower.hasPrefix("http://") else {
            throw Problem(description: "'\(text)' is not a collector URL; give it as http://HOST:PORT or https://HOST:PORT, for example http://192.168.1.20:8080.")
        }
        var rest = Substring(text.dropFirst(usesTLS ? "https://".count : "http://".count))
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        rest = rest[slash...]
        while rest.hasSuffix("/") { rest.removeLast() }
        guard !rest.contains("?"), !rest.contains("#"), !rest.contains(" ") else {
            throw Problem(description: "'\(text)' has a query, a fragment or a space; give the collector as http://HOST:PORT (a path prefix is allowed).")
        }
        guard !authority.contains("@") else {
            throw Problem(description: "'\(text)' carries a user name; the enrolment code is the credential: give http://HOST:PORT.")
        }
        var hostPart = Substring(authority)
        var portText: Substring?
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else { throw Problem(description: "'\(text)' has an unclosed IPv6 address; write it as http://[::1]:8080.") }
            let after = hostPart[hostPart.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { throw Problem(description: "'\(text)' is not a valid address; write it as http://[::1]:8080.") }
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
        } else if let colon = hostPart.lastIndex(of: ":") {
            portText = hostPart[hostPart.index(after: colon)...]
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty, hostPart.allSatisfy({ $0.isLetter || $0.isNumber || "-._:".contains($0) }) else {
            throw Problem(description: "'\(text)' has no usable host name; give the collector as http://HOST:PORT, for example http://192.168.1.20:8080.")
        }
        var port = usesTLS ? 443 : 80
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw Problem(description: "'\(portText)' in '\(text)' is not a port (1 to 65535); give the collector as http://HOST:PORT.")
            }
            port = number
        }
        host = String(hostPart)
        self.port = port
        prefix = String(rest)
    }
}
