import ArgumentParser
import ChronoAPI
import ChronoCommandLine
import ChronoCollector
import ChronoCore
import ChronoStore
import ChronoSync
import Foundation

/// `chronoception-collector` (also reached as `chronoception collector`): serves the sync routes and the
/// collector's pages over many devices' sessions, and manages devices, their preferences and exports
/// (docs/SYNC.md, docs/COLLECTOR.md). A program of its own so the device's binary stays small.
public struct ChronoceptionCollector: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "chronoception-collector",
        abstract: "Collect many devices' sessions: serve the sync routes and pages, enrol and revoke devices, export.",
        version: Version.line(program: "chronoception-collector"),
        subcommands: [Serve.self, Enrol.self, Devices.self, Revoke.self, Preferences.self, Export.self, Keys.self, Analysis.self, ProtocolCommand.self],
        defaultSubcommand: Serve.self)

    public init() {}

    /// Runs the collector's command line and exits with its status (docs/EXIT-CODES.md), as
    /// `chronoception` does.
    public static func runAndExit(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        CommandLineEntry.runAndExit(Self.self, arguments)
    }

    /// Parses and runs `arguments`; returns the exit status instead of exiting (for tests).
    static func execute(_ arguments: [String]) -> Int32 {
        CommandLineEntry.execute(Self.self, arguments)
    }

    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve until Ctrl-C: the sync routes, the collector's API and pages (TCP 127.0.0.1:8738 and a Unix socket by default).")
        @OptionGroup var store: CollectorStoreOptions
        @Option(help: "TCP address, ADDR:PORT (default 127.0.0.1:8738). Devices on a network need e.g. 0.0.0.0:8738; the read API then needs a reader key from beyond loopback.")
        var listen: String?
        @Option(name: .customLong("socket"), help: "Unix socket path (default: $XDG_RUNTIME_DIR/chronoception/collector.sock, else /run/chronoception/collector.sock).")
        var socketPath: String?
        @Flag(help: "Do not open the Unix socket.") var noSocket = false
        // Refused enrolment attempts a minute, per address and in all (tests of the limit; default 10 and 120).
        @Option(name: .customLong("enrolments-per-minute"), help: .hidden) var enrolmentsPerMinute: Int?

        func run() throws {
            // Before the server exists, so its connection caps are drawn from the raised limit.
            let descriptors = DescriptorLimit.raiseToHardLimit()
            let tcp: TCPAddress
            do { tcp = try listen.map { try TCPAddress(parsing: $0) } ?? TCPAddress(host: "127.0.0.1", port: CollectorServerConfiguration.defaultPort) } catch {
                throw CommandFailure(message: (error as? APIError)?.message ?? String(describing: error), status: .usage)
            }
            let socket = noSocket ? nil : (socketPath ?? APIServerConfiguration.defaultSocketPath().replacingOccurrences(of: "/api.sock", with: "/collector.sock"))
            var settings = CollectorServerConfiguration(socketPath: socket, tcp: tcp, stopOnSignals: true,
                                                             utcOffsetSeconds: { LocalTimeZone.utcOffsetSeconds(atUnixSeconds: LocalTimeZone.nowUnixNanoseconds() / 1_000_000_000) })
            if let enrolmentsPerMinute, enrolmentsPerMinute > 0 {
                settings.refusedEnrolmentsPerMinutePerAddress = enrolmentsPerMinute
                settings.refusedEnrolmentsPerMinute = enrolmentsPerMinute
            }
            let configuration = settings
            let record = ServeRecord.path(for: store)
            try withCollectorStore(store) { opened in
                let server = CollectorServer(store: opened, configuration: configuration)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await server.run() }
                    let listening: APIServer.Listening
                    do {
                        listening = try await group.awaitListening("The collector") { try await server.listening() }
                    } catch let failure as ServerStartFailure {
                        throw CommandFailure(message: failure.description, status: .deviceUnavailable)
                    }
                    if let record, let tcp = listening.tcp { ServeRecord.write(tcp, to: record) }
                    defer { if let record { ServeRecord.remove(at: record) } }
                    print("Collector store: \(opened.location)")
                    print(descriptors.line)
                    if let path = listening.socketPath { print("Collector API on the Unix socket \(path)") }
                    if let tcp = listening.tcp {
                        let devices = EnrolURL.shown(explicit: nil, listening: tcp, hostName: ProcessInfo.processInfo.hostName).url
                        print("Sync routes on http://\(tcp)\(SyncProtocol.batchesPath) (devices: `chronoception sync add \(devices) --code CODE`)")
                        print("Collector pages on http://\(tcp)/ and API on http://\(tcp)/api/v1")
                    }
                    print("Stop with Ctrl-C.")
                    fflush(nil)
                    try await group.next()
                    group.cancelAll()
                }
            }
        }
    }

    struct Enrol: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "enrol",
            abstract: "Make a one-time enrolment code for a device and print the command to run on it.")
        @Argument(help: "The device's name on this collector (a participant code, \"Anna's Pi\").") var name: String
        @Option(help: "The participant the device belongs to (progress per participant adds up their devices).") var participant: String?
        @Option(help: "How long the code stays valid: 30d, 12h, 90m (default 30d; at most 365d).") var expires = "30d"
        @Option(help: "The collector's URL as devices reach it, for the printed command (default: where the running serve listens, http://HOST:PORT; without one, port 8738).") var url: String?
        @OptionGroup var store: CollectorStoreOptions

        func run() throws {
            let name: String, participant: String?, seconds: Int64
            do {
                name = try CollectorCredentials.validName(self.name)
                participant = try self.participant.map(CollectorCredentials.validName)
                seconds = try ExpiryText.seconds(expires)
            } catch { throw CollectorFailure.wrap(error) }
            let code = CollectorCredentials.newCode()
            let target = EnrolURL.shown(explicit: url, listening: ServeRecord.path(for: store).flatMap(ServeRecord.listening(at:)),
                                       hostName: ProcessInfo.processInfo.hostName)
            try withCollectorStore(store) { opened in
                let now = LocalTimeZone.nowUnixNanoseconds()
                let expiry = now + seconds * 1_000_000_000
                try await opened.addEnrolment(PendingEnrolment(
                    codeSHA256: CollectorCredentials.codeDigest(code)!, name: name, participant: participant,
                    createdUnixNanoseconds: now, expiresUnixNanoseconds: expiry), nowUnixNanoseconds: now)
                print("One-time enrolment code for \(shown(name))\(participant.map { " (participant \(shown($0)))" } ?? ""), valid until \(CollectorTimeText.utc(expiry)):")
                print("  \(code)")
                print("On the device, run:")
                print("  chronoception sync add \(target.url) --code \(code)")
                if let note = target.note { print(note) }
                print("The code is shown only now and works once; the collector keeps only its digest.")
            }
        }
    }

    struct Devices: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "devices", abstract: "List enrolled devices: last seen, sessions, revoked.")
        @OptionGroup var store: CollectorStoreOptions

        func run() throws {
            try withCollectorStore(store) { opened in
                let devices = try await opened.devices()
                guard !devices.isEmpty else {
                    print("No device is enrolled. `chronoception-collector enrol NAME` makes a code for one.")
                    return
                }
                for line in DeviceTable.lines(devices) { print(line) }
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revoke a device's key: its batches are refused from now on (its sessions stay).")
        @Argument(help: "The device's name (from `collector devices`).") var name: String
        @OptionGroup var store: CollectorStoreOptions

        func run() throws {
            try withCollectorStore(store) { opened in
                let device = try await opened.revokeDevice(named: name, nowUnixNanoseconds: LocalTimeZone.nowUnixNanoseconds())
                print("Revoked \(shown(device.name)) (\(shown(device.id))); its \(device.sessionCount) session\(device.sessionCount == 1 ? "" : "s") stay. To take it back, `chronoception-collector enrol \(TerminalSafeText.sanitized(device.name, keepNewlines: false))` and enrol it again.")
            }
        }
    }
}

/// `chronoception-collector devices` as lines: a header and one row per device, columns padded to
/// their widest cell. Every cell a device sent or a person typed (name, participant, board, ID) goes
/// through `TerminalSafeText` first, so a board of `\u{1B}[2J` prints as text instead of clearing the
/// screen, and the widths are those of what is printed.
enum DeviceTable {
    static func lines(_ devices: [CollectorDevice]) -> [String] {
        let rows = [["Name", "Participant", "Board", "Sessions", "Refused", "Consent", "Last seen", "State", "Device ID"]] + devices.map { device in
            [device.name, device.participant ?? "—", device.board, String(device.sessionCount), String(device.refusedSessionCount),
             consentCell(device.consent), CollectorTimeText.utc(device.lastSeenUnixNanoseconds),
             device.revokedUnixNanoseconds.map { "revoked " + CollectorTimeText.utc($0) } ?? "enrolled", device.id]
                .map { TerminalSafeText.sanitized($0, keepNewlines: false) }
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }
    }
}

extension DeviceTable {
    /// The device's newest consent decision: `accepted sleep-2026@1`, `withdrawn sleep-2026@1 (study stopped)`, or `—`.
    static func consentCell(_ consent: StudyConsent.Record?) -> String {
        guard let consent else { return "—" }
        return "\(consent.decision.rawValue) \(consent.protocolName)@\(consent.protocolVersion)" + (consent.decision == .accepted ? "" : " (study stopped)")
    }
}

/// Text from a device or a person, quoted for a line on the terminal (`TerminalSafeText.quoted`).
func shown(_ text: String) -> String { TerminalSafeText.quoted(text, limit: 80) }

/// `30d`, `12h`, `90m` as seconds, from a minute to a year.
enum ExpiryText {
    static func seconds(_ text: String) throws(CollectorError) -> Int64 {
        let units: [Character: Int64] = ["d": 86_400, "h": 3_600, "m": 60]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Int64(text.dropLast()), count > 0 else {
            throw .invalidValue("--expires takes a count and a unit, e.g. 30d, 12h or 90m; got '\(text)'.")
        }
        let seconds = count.multipliedReportingOverflow(by: unit)
        guard !seconds.overflow, (60...366 * 86_400).contains(seconds.partialValue) else {
            throw .invalidValue("--expires is from 1m to 365d; got '\(text)'.")
        }
        return seconds.partialValue
    }
}
