import ChronoAPI
import ChronoCommandLine
import ChronoRuntime
import ChronoStore
import Foundation
import Synchronization

/// The device API served beside the daemon's loop: started on its own tasks before the first session,
/// shut down (event streams ended, requests drained, socket removed) after the loop has stopped. The
/// loop never waits for it; the server reaches the loop only through `DaemonDevice`.
final class DaemonAPIServer: Sendable {
    private let server: APIServer
    private let running: Task<Void, Never>
    /// The web companion's address when it listens on TCP (`http://127.0.0.1:8787/`): what a desktop
    /// notification's click opens.
    let companionURL: String?

    private init(server: APIServer, running: Task<Void, Never>, companionURL: String?) {
        self.server = server
        self.running = running
        self.companionURL = companionURL
    }

    /// Starts serving and says where. A server that cannot start (the port taken, the socket's path
    /// in use or not a socket, its folder not writable) is said once on the console, with its cause;
    /// the device works on without it. One that stops later is said once too.
    static func start(store: ChronoStore, device: DaemonDevice, configuration: APIServerConfiguration,
                      console: LineOutput) -> DaemonAPIServer? {
        let server = APIServer(store: store, device: device, configuration: configuration)
        let phase = Mutex(Phase.starting)
        let running = Task {
            do { try await server.run() } catch {
                let listened = phase.withLock { phase in
                    if case .listening = phase { return true }
                    phase = .failed(error)
                    return false
                }
                if listened { console.writeLine("warning: the device API stopped: \(Self.words(error)) The device goes on without it; see docs/API.md.") }
            }
        }
        let companionURL: String?
        do {
            let listening = try runBlocking { try await server.listening() }
            companionURL = listening.tcp.map { "http://\($0)/" }
            phase.withLock { $0 = .listening }
            if let path = listening.socketPath { console.writeLine("Device API on the Unix socket \(path)") }
            if let tcp = listening.tcp { console.writeLine("Device API on http://\(tcp)/api/v1, web companion on http://\(tcp)/") }
        } catch {
            // The serving task has ended (that is why it is not listening): its error is the cause.
            _ = try? runBlocking { await running.value }
            let cause = phase.withLock { phase -> (any Error)? in
                if case .failed(let cause) = phase { return cause }
                return nil
            }
            console.writeLine("warning: the device API could not start: \(Self.words(cause ?? error)) The device goes on without it; see docs/API.md.")
            running.cancel()
            return nil
        }
        return DaemonAPIServer(server: server, running: running, companionURL: companionURL)
    }

    /// Where the server is: starting, listening, or failed before it listened (with why).
    private enum Phase {
        case starting
        case listening
        case failed(any Error)
    }

    /// An error as one sentence for the console: an API error's own words (they name the fix).
    private static func words(_ error: any Error) -> String {
        let text = (error as? APIError)?.message ?? "\(error)"
        return text.hasSuffix(".") ? text : text + "."
    }

    func stop() {
        let server = self.server
        try? runBlocking { await server.shutdown() }
        running.cancel()
    }
}
