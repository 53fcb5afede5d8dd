import Foundation

/// A `--database postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?sslmode=disable|prefer|require]` URL,
/// parsed. The password may instead come from `PGPASSWORD` (better: it stays out of `ps` and unit
/// files); HOST may be a percent-encoded socket directory (`%2Frun%2Fpostgresql`).
public struct PostgresURL: Hashable, Sendable, CustomStringConvertible {
    public enum TLSMode: String, Sendable {
        /// Plain TCP (loopback, a Unix socket, a private network).
        case disable
        /// TLS when the server offers it (the default, as libpq's).
        case prefer
        /// TLS with the server's certificate verified against the system's trust store.
        case require
    }

    public var user: String
    public var password: String?
    /// A host name or address, or a Unix socket directory (starts with `/`).
    public var host: String
    public var port: Int
    public var database: String
    public var tls: TLSMode

    /// The URL without its password, for messages and listings.
    public var description: String {
        let shownHost = host.hasPrefix("/") ? host.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? host : host
        return "postgres://\(user)@\(shownHost):\(port)/\(database)" + (tls == .prefer ? "" : "?sslmode=\(tls.rawValue)")
    }

    public static func parse(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(CollectorError) -> PostgresURL {
        let form = "postgres://USER@HOST:PORT/DATABASE (password in PGPASSWORD or as USER:PASSWORD@), e.g. postgres://chrono@127.0.0.1:5432/chronoception"
        guard let components = URLComponents(string: text), let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme.lowercased()) else {
            throw .invalidValue("--database takes \(form); got '\(redacted(text))'.")
        }
        guard let user = components.percentEncodedUser.flatMap({ $0.removingPercentEncoding }), !user.isEmpty else {
            throw .invalidValue("The database URL names no user; use \(form).")
        }
        guard let rawHost = components.percentEncodedHost.flatMap({ $0.removingPercentEncoding }), !rawHost.isEmpty else {
            throw .invalidValue("The database URL names no host; use \(form).")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw .invalidValue("The database URL names no database (the path after the host); use \(form).")
        }
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode", let value = item.value, let mode = TLSMode(rawValue: value) else {
                throw .invalidValue("The database URL takes only ?sslmode=disable, prefer or require; got '\(item.name)=\(item.value ?? "")'.")
            }
            tls = mode
        }
        let password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding } ?? environment["PGPASSWORD"]
        return PostgresURL(user: user, password: password, host: rawHost, port: components.port ?? 5432, database: database, tls: tls)
    }

    /// The text with any password replaced, for an error message.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? "(the URL given)"
    }
}
