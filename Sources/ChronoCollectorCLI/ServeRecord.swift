import ChronoAPI
import ChronoCommandLine
import ChronoCollector
import ChronoStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a running `serve` listens, written while it serves so that `enrol` prints the URL devices
/// reach it at (the port `serve` really listens on, not the default). Kept beside the store it serves:
/// in the SQLite data directory (`collector.listening`), or for a PostgreSQL store in the runtime
/// directory. One small JSON object: `{"pid": N, "listen": "ADDR:PORT"}`; a record whose process has
/// gone (a `serve` killed with SIGKILL) is ignored.
enum ServeRecord {
    static let fileName = "collector.listening"

    /// The record's path for the store these options name.
    static func path(for options: CollectorStoreOptions, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if options.database != nil {
            let runtime = (APIServerConfiguration.defaultSocketPath(environment: environment) as NSString).deletingLastPathComponent
            return runtime + "/collector-postgres.listening"
        }
        guard let location = try? StoreLocation.resolve(explicit: options.dataDirectory, environment: environment, runningAsService: false) else { return nil }
        return location.directory + "/" + fileName
    }

    /// Writes the record (best effort: without it `enrol` says it assumed the default port).
    static func write(_ tcp: TCPAddress, to path: String) {
        let text = "{\"pid\": \(getpid()), \"listen\": \"\(tcp)\"}\n"
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Removes the record if it is this process's.
    static func remove(at path: String) {
        if read(at: path)?.pid == getpid() { unlink(path) }
    }

    /// The address a live `serve` wrote, or nil (no record, unreadable, or its process has gone).
    static func listening(at path: String) -> TCPAddress? {
        guard let record = read(at: path), kill(record.pid, 0) == 0 || errno == EPERM else { return nil }
        return record.listen
    }

    private static func read(at path: String) -> (pid: pid_t, listen: TCPAddress)? {
        guard let data = FileManager.default.contents(atPath: path), data.count < 4096,
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let pid = (object["pid"] as? NSNumber)?.int32Value, pid > 0,
              let text = object["listen"] as? String, let address = try? TCPAddress(parsing: text) else { return nil }
        return (pid, address)
    }
}

/// The collector URL `enrol` prints in the device's `sync add` command: `--url` as given; else where the
/// running `serve` listens (this machine's name for a wildcard address); else serve's default port,
/// with a note saying it is a guess. A loopback-only collector gets a note too: no other machine
/// reaches it.
enum EnrolURL {
    static func shown(explicit: String?, listening: TCPAddress?, hostName: String) -> (url: String, note: String?) {
        if let explicit { return (explicit, nil) }
        guard let listening else {
            let port = CollectorServerConfiguration.defaultPort
            return ("http://\(hostName):\(port)",
                    "No collector is serving this store now, so the URL assumes serve's default port \(port); if devices reach the collector at another address, give it with --url.")
        }
        if ["0.0.0.0", "::", ""].contains(listening.host) {
            return ("http://\(hostName):\(listening.port)", nil)
        }
        if listening.isLoopback {
            return ("http://\(listening)",
                    "The collector listens on loopback only (\(listening)): only a device on this machine reaches it. For devices on the network, serve with --listen 0.0.0.0:\(listening.port).")
        }
        return ("http://\(listening)", nil)
    }
}
