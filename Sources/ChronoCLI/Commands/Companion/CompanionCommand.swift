import ArgumentParser
import ChronoAPI
import ChronoCommandLine
import ChronoCore
import ChronoStore
import Foundation

/// `chronoception companion`: serves the device API over a data directory without a board (review
/// and configure; actions are refused), and manages companion keys.
struct CompanionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "companion",
        abstract: "Serve the device API over a data directory without a device, and manage companion keys.",
        subcommands: [Serve.self, Keys.self],
        defaultSubcommand: Serve.self)

    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve the API (docs/API.md) until Ctrl-C: Unix socket and 127.0.0.1:8737; --listen opens it beyond loopback (keys required there).")
        @OptionGroup var store: StoreOptions
        @OptionGroup var listen: ListenOptions

        func run() throws {
            // Before the server exists, so its connection caps are drawn from the raised limit.
            print(DescriptorLimit.raiseToHardLimit().line)
            let opened = try store.openStore()
            let configuration = try listen.configuration(stopOnSignals: true)
            let server = APIServer(store: opened, device: NoDevice(), configuration: configuration)
            try serveUntilStopped(server, configuration: configuration, store: opened)
        }
    }

    struct Keys: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keys",
            abstract: "List, add or revoke the keys companions use from beyond loopback.",
            subcommands: [List.self, Add.self, Revoke.self],
            defaultSubcommand: List.self)

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List keys (never their secrets).")
            @OptionGroup var store: StoreOptions

            func run() throws {
                try reportingFailures {
                    let keys = try store.openStore().apiKeys()
                    guard !keys.isEmpty else {
                        print("No companion keys. Pair from a companion (a long press on the device approves it), or `chronoception companion keys add NAME`.")
                        return
                    }
                    for key in keys { print(Self.line(key)) }
                }
            }

            /// One key: id, name, kind, where it paired from, when it was made and last used. The last
            /// use is the store's, written by the API server at most once a minute per key.
            static func line(_ key: APIKeyRecord) -> String {
                let created = WallTimeText.utc(unixSeconds: key.createdUnixSeconds)
                let from = key.pairedFrom.map { " from \($0)" } ?? ""
                let used = key.lastUsedUnixSeconds.map { "last used \(WallTimeText.utc(unixSeconds: $0))" } ?? "never used"
                return "\(key.id)  \(TerminalSafeText.sanitized(key.name, keepNewlines: false))  (\(key.kind.rawValue)\(from), made \(created), \(used))"
            }
        }

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Make a key and print it once (send it as `Authorization: Bearer KEY`).")
            @Argument(help: "A name to recognise it by, e.g. \"Anna's phone\".") var name: String
            @OptionGroup var store: StoreOptions

            func run() throws {
                try reportingFailures {
                    let registry = KeyRegistry(store: try store.openStore())
                    let (record, secret) = try registry.issue(name: name, kind: .commandLine, nowUnixSeconds: nowUnixSeconds)
                    print("Key \(record.id) for \(record.name):")
                    print(secret)
                    print("It is shown only now; the device keeps only its digest. Revoke it with `chronoception companion keys revoke \(record.id)`.")
                }
            }
        }

        struct Revoke: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Revoke a key by its id (from `companion keys`).")
            @Argument(help: "The key's id.") var id: String
            @OptionGroup var store: StoreOptions

            func run() throws {
                try reportingFailures {
                    guard try store.openStore().revokeAPIKey(id: id) else {
                        throw CommandFailure(message: "No key \(id). List them with `chronoception companion keys`.")
                    }
                    print("Revoked \(id). Companions using it must pair again.")
                }
            }
        }
    }
}

/// `--listen`, `--socket`, `--no-socket` and `--socket-only-trust`, shared by `companion` (and by
/// `run` once the daemon serves the API).
struct ListenOptions: ParsableArguments {
    @Option(help: "TCP address to serve on, ADDR:PORT (default 127.0.0.1:8737). Beyond loopback (e.g. 0.0.0.0:8737) every request needs a key.")
    var listen: String?
    @Option(name: .customLong("socket"), help: "Unix socket path (default: $XDG_RUNTIME_DIR/chronoception/api.sock, else /run/chronoception/api.sock).")
    var socketPath: String?
    @Flag(help: "Do not open the Unix socket.") var noSocket = false
    @Flag(help: "Require keys on loopback TCP too (a machine shared by several users); only the Unix socket is trusted.")
    var requireKeyOnLoopback = false

    /// Where `listen` came from: `--listen`, or `run`'s `$CHRONOCEPTION_LISTEN`.
    enum Source {
        case option
        case environment
    }

    func configuration(stopOnSignals: Bool, listenSource: Source = .option) throws -> APIServerConfiguration {
        let tcp: TCPAddress
        do {
            tcp = try listen.map { try TCPAddress(parsing: $0) } ?? .loopbackDefault
        } catch {
            switch listenSource {
            case .option: throw ValidationError((error as? APIError)?.message ?? String(describing: error))
            case .environment:
                throw ValidationError("CHRONOCEPTION_LISTEN takes ADDR:PORT, e.g. 0.0.0.0:8737 (the network) or 127.0.0.1:8737 (this device only); got \(TerminalSafeText.quoted(listen ?? "", limit: 60)). Fix it where it is set (for the service: /etc/default/chronoception, which the image's companion_network writes), or empty it, or give --listen.")
            }
        }
        return APIServerConfiguration(
            socketPath: noSocket ? nil : (socketPath ?? APIServerConfiguration.defaultSocketPath()), tcp: tcp,
            localTrust: requireKeyOnLoopback ? .socketOnly : .socketAndLoopback, stopOnSignals: stopOnSignals)
    }
}

/// Runs the server until a signal stops it, printing where it listens and, when it is open beyond
/// loopback, a one-time login link for a browser there.
func serveUntilStopped(_ server: APIServer, configuration: APIServerConfiguration, store: ChronoStore) throws {
    try runBlocking {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            let listening: APIServer.Listening
            do {
                listening = try await group.awaitListening("The device API") { try await server.listening() }
            } catch let failure as ServerStartFailure {
                throw CommandFailure(message: failure.description, status: .deviceUnavailable)
            }
            if let path = listening.socketPath { print("Device API on the Unix socket \(path)") }
            if let tcp = listening.tcp {
                print("Device API on http://\(tcp)/api/v1 (description: /api/v1/openapi.json)")
                print("Web companion on http://\(tcp)/")
                if !tcp.isLoopback {
                    let host = tcp.host == "0.0.0.0" || tcp.host == "::" ? (ProcessInfo.processInfo.hostName) : tcp.host
                    print("Open beyond loopback: every request needs a key. One-time login link for a browser (valid 10 minutes):")
                    print("  http://\(host.contains(":") ? "[\(host)]" : host):\(tcp.port)\(server.makeLoginPath())")
                }
            }
            print("Stop with Ctrl-C.")
            fflush(nil)
            try await group.next()
            group.cancelAll()
        }
    }
}

enum WallTimeText {
    static func utc(unixSeconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(unixSeconds)))
    }
}
