/// Whether a request's `Host` names this machine's loopback, the one rule both servers (the device API
/// and the collector) use to tell a local request from a DNS-rebinding page: only the literal loopback
/// addresses — IPv4 `127.a.b.c` in plain dotted decimal, IPv6 `[::1]` — and the name `localhost`, each
/// with or without a port. Any other name is remote, even one that starts `127.` or ends `localhost`,
/// because a foreign page can point its own name at 127.0.0.1 and the browser then sends that name.
public enum LoopbackHost {
    /// `authority` is the request's `Host` (or HTTP/2 `:authority`) value.
    public static func isLoopback(_ authority: String?) -> Bool {
        guard let authority, let host = hostPart(authority) else { return false }
        switch host {
        case .bracketed(let address): return address == "::1"
        case .plain(let name): return name == "localhost" || isLoopbackIPv4(name)
        }
    }

    /// The same for a whole request: `authority` is the first `Host`, `otherHostFields` any further
    /// ones (HTTP/1 gives the first to the authority and leaves the rest among the fields). A request
    /// with more than one `Host` is malformed (RFC 9112) and never local, whatever the first one says.
    public static func isLoopback(authority: String?, otherHostFields: [String]) -> Bool {
        otherHostFields.isEmpty && isLoopback(authority)
    }

    private enum Host { case bracketed(Substring), plain(Substring) }

    /// The host without its port; nil when the port is not a valid one (a malformed Host is remote).
    private static func hostPart(_ authority: String) -> Host? {
        let text = Substring(authority.lowercased())
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || isPortSuffix(rest) else { return nil }
            return .bracketed(text[text.index(after: text.startIndex)..<close])
        }
        guard let colon = text.firstIndex(of: ":") else { return .plain(text) }
        guard isPortSuffix(text[colon...]) else { return nil }
        return .plain(text[..<colon])
    }

    /// `:PORT` with PORT 1–65535 in plain decimal.
    private static func isPortSuffix(_ text: Substring) -> Bool {
        guard text.first == ":" else { return false }
        let digits = text.dropFirst()
        guard (1...5).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), let port = Int(digits) else { return false }
        return (1...65_535).contains(port)
    }

    /// Four decimal octets (0–255, no leading zeros, which some resolvers read as octal), the first 127.
    private static func isLoopbackIPv4(_ name: Substring) -> Bool {
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { octet in
            guard (1...3).contains(octet.count), octet.allSatisfy(\.isASCIIDigit) else { return false }
            guard octet.count == 1 || octet.first != "0" else { return false }
            return Int(octet).map { $0 <= 255 } ?? false
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
