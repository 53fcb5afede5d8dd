import ChronoAPI
import ChronoCommandLine
import ChronoRuntime
import ChronoStore
import Foundation

/// The device API served beside the daemon's loop: started on its own tasks before the first session,
/// shut down (event streams ended, requests drained, socket removed) after the loop has stopped. The
/// loop never waits for it; the server reaches the loop only through `DaemonDevice`.
final class DaemonAPIServer: Sendable {
    private let server: APIServer
    private let running: Task<Void, Never>

    private init(server: APIServer, running: Task<Void, Never>) {
        self.server = server
        self.running = running
    }

    /// Starts serving and says where. A server that cannot start (the port taken, the socket's folder
    /// not writable) is said once on the console; the device works on without it.
    static func start(store: ChronoStore, device: DaemonDevice, configuration: APIServerConfiguration,
                      console: LineOutput) -> DaemonAPIServer? {
        let server = APIServer(store: store, device: device, configuration: configuration)
        let running = Task {
            do { try await server.run() } catch {
                console.writeLine("warning: the device API stopped: \(error). The device goes on without it; see docs/API.md.")
            }
        }
        do {
            let listening = try runBlocking { try await server.listening() }
            if let path = listening.socketPath { console.writeLine("Device API on the Unix socket \(path)") }
            if let tcp = listening.tcp { console.writeLine("Device API on http://\(tcp)/api/v1, web companion on http://\(tcp)/") }
        } catch {
            console.writeLine("warning: the device API could not start: \(error). The device goes on without it; see docs/API.md.")
            running.cancel()
            return nil
        }
        return DaemonAPIServer(server: server, running: running)
    }

    func stop() {
        let server = self.server
        try? runBlocking { await server.shutdown() }
        running.cancel()
    }
}
