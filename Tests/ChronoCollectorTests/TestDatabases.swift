import ChronoCollector
import Logging
import PostgresNIO

/// Creates and drops one database per test on the test server (the URL's role may CREATE DATABASE).
enum TestDatabases {
    static func run(_ sql: String, on url: PostgresURL) async throws {
        let logger = Logger(label: "chronoception.test.postgres")
        let connection = try await PostgresConnection.connect(
            configuration: .init(host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: .disable),
            id: 1, logger: logger)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }

    static func create(_ name: String, on url: PostgresURL) async throws {
        try await run("CREATE DATABASE \(name) OWNER \(url.user)", on: url)
    }

    static func drop(_ name: String, on url: PostgresURL) async throws {
        try await run("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", on: url)
    }
}
