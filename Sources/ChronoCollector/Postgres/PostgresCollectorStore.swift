import ChronoSync
import Logging
import NIOSSL
import PostgresNIO

/// The study server's store: PostgreSQL through PostgresNIO's connection pool (`PostgresClient`, at
/// most `maximumConnections` connections). Same schema meaning as the SQLite store
/// (`CollectorSchema`); each batch is one transaction that locks its device's row, so two batches of
/// one device are applied one after the other, and batches of different devices in parallel.
public final class PostgresCollectorStore: CollectorStore {
    let client: PostgresClient
    let runTask: Task<Void, Never>
    let logger: Logger
    let url: PostgresURL
    public var location: String { url.description }

    /// Connects once directly (so a wrong address, password or database is reported at once and in
    /// words), checks or migrates the schema, then starts the pool.
    public static func open(_ url: PostgresURL, maximumConnections: Int = 8, logger: Logger? = nil) async throws(CollectorError) -> PostgresCollectorStore {
        var fallback = Logger(label: "chronoception.collector.postgres")
        fallback.logLevel = .error
        let logger = logger ?? fallback
        do {
            let connection = try await PostgresConnection.connect(configuration: try connectionConfiguration(url), id: 0, logger: logger)
            do {
                try await migrate(connection, url: url, logger: logger)
                try? await connection.close()
            } catch {
                try? await connection.close()
                throw error
            }
        } catch {
            throw mapped(error, url: url)
        }
        var configuration: PostgresClient.Configuration
        if url.host.hasPrefix("/") {
            configuration = .init(unixSocketPath: socketPath(url), username: url.user, password: url.password, database: url.database)
        } else {
            let tls: PostgresClient.Configuration.TLS
            switch url.tls {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(.makeClientConfiguration())
            case .require: tls = .require(.makeClientConfiguration())
            }
            configuration = .init(host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: tls)
        }
        configuration.options.maximumConnections = maximumConnections
        configuration.options.minimumConnections = 1
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let task = Task { await client.run() }
        return PostgresCollectorStore(client: client, runTask: task, logger: logger, url: url)
    }

    init(client: PostgresClient, runTask: Task<Void, Never>, logger: Logger, url: PostgresURL) {
        self.client = client
        self.runTask = runTask
        self.logger = logger
        self.url = url
    }

    public func close() async {
        runTask.cancel()
        _ = await runTask.value
    }

    static func socketPath(_ url: PostgresURL) -> String { url.host + "/.s.PGSQL.\(url.port)" }

    static func connectionConfiguration(_ url: PostgresURL) throws -> PostgresConnection.Configuration {
        if url.host.hasPrefix("/") {
            return .init(unixSocketPath: socketPath(url), username: url.user, password: url.password, database: url.database)
        }
        let tls: PostgresConnection.Configuration.TLS
        switch url.tls {
        case .disable: tls = .disable
        case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(host: url.host, port: url.port, username: url.user, password: url.password,
                                                             database: url.database, tls: tls)
        configuration.options.connectTimeout = .seconds(10)
        return configuration
    }

    /// Applies the migrations above the database's version in one transaction, under an advisory
    /// lock so two collectors starting together do not race.
    static func migrate(_ connection: PostgresConnection, url: PostgresURL, logger: Logger) async throws {
        try await connection.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7370137)", logger: logger)
            var tables: [String] = []
            for try await name in try await connection.query(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()", logger: logger).decode(String.self) {
                tables.append(name)
            }
            var current = 0
            if tables.contains("schema_version") {
                for try await version in try await connection.query("SELECT version FROM schema_version", logger: logger).decode(Int64.self) {
                    current = Int(version)
                }
            } else if !tables.isEmpty {
                throw CollectorError.schemaMismatch("The database \(url) holds tables that are not a collector's (\(tables.sorted().prefix(8).joined(separator: ", "))). It was left untouched; give the collector a database of its own (CREATE DATABASE chronoception OWNER \(url.user)).")
            } else {
                try await connection.query("CREATE TABLE schema_version (version BIGINT NOT NULL)", logger: logger)
                try await connection.query("INSERT INTO schema_version (version) VALUES (0)", logger: logger)
            }
            guard current <= CollectorSchema.version else {
                throw CollectorError.schemaMismatch("The database \(url) holds collector schema version \(current); this chronoception-collector knows up to \(CollectorSchema.version). It was left untouched; update the chronoception-collector package on this server.")
            }
            for version in current..<CollectorSchema.version {
                for statement in CollectorSchema.migrations[version].postgres {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
            }
            if current == 0 {
                let id = CollectorCredentials.newUUID()
                try await connection.query("INSERT INTO collector_meta (key, value) VALUES ('collector_id', \(id))", logger: logger)
            }
            let version = Int64(CollectorSchema.version)
            try await connection.query("UPDATE schema_version SET version = \(version)", logger: logger)
        }
    }

    /// Any error as a `CollectorError` naming the problem and the fix.
    static func mapped(_ error: any Error, url: PostgresURL) -> CollectorError {
        if let error = error as? CollectorError { return error }
        if let error = error as? PostgresTransactionError {
            if let inner = error.closureError ?? error.beginError ?? error.commitError { return mapped(inner, url: url) }
        }
        if let error = error as? PSQLError {
            if error.code == .server, let state = error.serverInfo?[.sqlState] {
                let message = error.serverInfo?[.message] ?? ""
                switch state {
                case "28P01", "28000":
                    return .unreachable("PostgreSQL refused the login of '\(url.user)' at \(url) (\(message)). Check the password (PGPASSWORD or the URL) and pg_hba.conf.")
                case "3D000":
                    return .unreachable("The database '\(url.database)' does not exist at \(url). Create it: `createdb -O \(url.user) \(url.database)` (as the postgres user).")
                case "42501":
                    return .unreachable("'\(url.user)' may not create or use the collector's tables in \(url) (\(message)). Make it the database's owner: `ALTER DATABASE \(url.database) OWNER TO \(url.user)`.")
                case "53100", "25006", "53200", "53300":
                    return .full("PostgreSQL at \(url) cannot take writes now (\(state): \(message)); nothing of the request was kept. Fix the server (disk, read-only replica, connections).")
                default:
                    return .database("PostgreSQL at \(url) failed: \(state) \(message).")
                }
            }
            if error.code == .connectionError || error.code == .serverClosedConnection || error.code == .poolClosed {
                let underlying = error.underlying.map { String(describing: $0) } ?? "no answer"
                return .unreachable("Cannot reach PostgreSQL at \(url) (\(underlying)). Is the server running and listening there? Check the host, the port and any firewall.")
            }
            if error.code == .sslUnsupported {
                return .unreachable("PostgreSQL at \(url) does not offer TLS, which sslmode=require asks for. Enable ssl on the server or use ?sslmode=disable on a trusted network.")
            }
            if error.code == .authMechanismRequiresPassword {
                return .unreachable("PostgreSQL at \(url) asks '\(url.user)' for a password: set PGPASSWORD (or put it in the URL).")
            }
            return .database("PostgreSQL at \(url) failed: \(error.code).")
        }
        return .unreachable("Cannot use PostgreSQL at \(url): \(error).")
    }

    /// One transaction, errors mapped.
    func transaction<T: Sendable>(_ body: (PostgresConnection) async throws -> sending T) async throws -> sending T {
        do {
            return try await client.withTransaction(logger: logger, body)
        } catch {
            throw Self.mapped(error, url: url)
        }
    }

    /// Rows of a query outside a transaction (a read), each as random-access cells.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        do {
            var result: [PostgresRandomAccessRow] = []
            for try await row in try await client.query(query, logger: logger) { result.append(row.makeRandomAccess()) }
            return result
        } catch {
            throw Self.mapped(error, url: url)
        }
    }
}
