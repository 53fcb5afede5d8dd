import ArgumentParser
import ChronoAPI
import ChronoStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `chronoception companion [--data-dir D] [--listen ADDR:PORT]`: the device API and the web companion
/// over a data directory, without a device (`NoDevice`): review and configure away from the board.
struct CompanionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "companion",
        abstract: "Serve the web companion and the device API over a data directory (no device).")

    @OptionGroup var store: StoreOptions

    @Option(help: "TCP address to listen on, ADDR:PORT (default 127.0.0.1:8737; 0.0.0.0:8737 opens it to the network, which then needs a key).")
    var listen: String = TCPAddress.loopbackDefault.description

    @Option(help: "Unix socket path (default: none for the companion).")
    var socket: String?

    func run() throws {
        try reportingFailures {
            let tcp: TCPAddress
            do { tcp = try TCPAddress(parsing: listen) } catch let error as APIError { throw CommandFailure(message: error.message) }
            let opened = try store.openStore()
            let server = APIServer(store: opened, device: NoDevice(),
                                   configuration: APIServerConfiguration(socketPath: socket, tcp: tcp, stopOnSignals: true))
            let finished = DispatchSemaphore(value: 0)
            let failure = FailureBox()
            Task {
                do { try await server.run() } catch { failure.set(error) }
                finished.signal()
            }
            Task {
                guard let listening = try? await server.listening(), let address = listening.tcp else { return }
                let host = address.isLoopback ? address.host : "THIS-MACHINE'S-ADDRESS"
                say("Companion: http://\(host.contains(":") ? "[\(host)]" : host):\(address.port)/")
                if !address.isLoopback {
                    say("From another machine, open once: http://\(host):\(address.port)\(server.makeLoginPath()) (a one-time login link, valid ten minutes)")
                }
            }
            finished.wait()
            if let error = failure.get() { throw CommandFailure(error) }
        }
    }
}

/// A line on standard output, written at once (print buffers when the output is a file or a pipe,
/// and whoever started the companion waits for its address).
private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The server task's error, handed to the waiting command thread.
private final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var error: (any Error)?
    func set(_ error: any Error) { lock.lock(); self.error = error; lock.unlock() }
    func get() -> (any Error)? { lock.lock(); defer { lock.unlock() }; return error }
}
