import ChronoCommandLine
import ChronoCore
import Foundation

/// The card's `UpdateSystem`: Debian's `rauc` client (talking to `rauc-service` over D-Bus, as root)
/// and `systemctl`. Each program's own words are kept in the failure it gives, since they name the
/// cause (RAUC's "signature verification failed", "Compatible mismatch").
public struct RaucSystem: UpdateSystem {
    public var rauc = "/usr/bin/rauc"
    public var systemctl = "/usr/bin/systemctl"
    public var systemConf = "/etc/rauc/system.conf"

    public init() {}

    public func compatible() throws(CommandFailure) -> String {
        guard let data = FileManager.default.contents(atPath: systemConf), data.count <= 65_536 else {
            throw CommandFailure(message: "Cannot read \(systemConf): this card has no RAUC configuration. Updates are for the Chronoception card image (docs/IMAGE.md).")
        }
        var inSystem = false
        for raw in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") { inSystem = line == "[system]"; continue }
            if inSystem, line.hasPrefix("compatible=") { return String(line.dropFirst("compatible=".count)) }
        }
        throw CommandFailure(message: "\(systemConf) names no compatible= in its [system] section.")
    }

    public func describe(_ bundle: String) throws(CommandFailure) -> String {
        try run(rauc, ["info", "--output-format=json", bundle], what: "rauc info").output
    }

    public func install(_ bundle: String, progress: @escaping @Sendable (Int) -> Void) throws(CommandFailure) {
        _ = try run(rauc, ["install", bundle], what: "rauc install") { line in
            if let percent = RaucProgressLine.percent(line) { progress(percent) }
        }
    }

    public func markGood() throws(CommandFailure) { _ = try run(rauc, ["status", "mark-good"], what: "rauc status mark-good") }
    public func markOtherBad() throws(CommandFailure) { _ = try run(rauc, ["status", "mark-bad", "other"], what: "rauc status mark-bad other") }

    public func reboot(tryboot: Bool) throws(CommandFailure) {
        _ = try run(systemctl, tryboot ? ["reboot", "0 tryboot"] : ["reboot"], what: "systemctl reboot")
    }

    public func serviceIsActive() -> Bool {
        (try? run(systemctl, ["is-active", "--quiet", "chronoception.service"], what: "systemctl is-active")) != nil
    }

    /// Runs a program to its end; each line of its standard output goes to `line` as it comes. A
    /// non-zero exit is a failure carrying the last lines the program wrote on standard error.
    private func run(_ program: String, _ arguments: [String], what: String,
                     line: (String) -> Void = { _ in }) throws(CommandFailure) -> (output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let collected = ErrorText()
        errors.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData) }
        do { try process.run() } catch {
            throw CommandFailure(message: "Cannot run \(program): \(error.localizedDescription). Is the `rauc` package installed (the card image has it)?")
        }
        var text = Data(), pending = Data()
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text.append(chunk)
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                line(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...newline)
            }
        }
        process.waitUntilExit()
        errors.fileHandleForReading.readabilityHandler = nil
        collected.append(errors.fileHandleForReading.readDataToEndOfFile())
        let errorText = collected.text
        guard process.terminationStatus == 0 else {
            let last = errorText.split(separator: "\n").suffix(3).joined(separator: " ")
            throw CommandFailure(message: "\(what) exited with status \(process.terminationStatus)\(last.isEmpty ? "" : ": \(TerminalSafeText.sanitized(last, keepNewlines: false))").")
        }
        return (String(decoding: text, as: UTF8.self), errorText)
    }

    /// Standard error as it arrives on the pipe's own thread, kept to its last 64 KiB.
    private final class ErrorText: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func append(_ chunk: Data) {
            lock.lock(); defer { lock.unlock() }
            data.append(chunk)
            if data.count > 65_536 { data = data.suffix(65_536) }
        }
        var text: String {
            lock.lock(); defer { lock.unlock() }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
