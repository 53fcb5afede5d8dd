import ArgumentParser
import ChronoCommandLine
import ChronoCore
import ChronoDevice
import ChronoRuntime
import ChronoStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `chronoception update`: the card's updates without reflashing (docs/IMAGE.md, "Updates"). `status`
/// is for anyone; `install` is for the person with root on the card; `boot` and `confirm` are what the
/// card's own units run at each boot.
struct UpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Update the card's system from a signed bundle, and see how the last update went.",
        subcommands: [UpdateStatusCommand.self, UpdateInstallCommand.self, UpdateBootCommand.self, UpdateConfirmCommand.self])
}

/// Where an update's parts are: the service's data directory (the record, the store) and the device API.
struct UpdatePlaceOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "The device service's data directory (default: /var/lib/chronoception).")
    var dataDirectory: String = StoreLocation.serviceDirectory

    @OptionGroup var socket: SocketOption

    func slotUpdate() -> SlotUpdate {
        let client = socket.client
        return SlotUpdate(
            system: RaucSystem(), store: StoreLocation(directory: dataDirectory), booted: BootedSlot.read(), running: .running,
            now: { let now = LocalTimeZone.nowUnixNanoseconds(); return WallTime(unixNanoseconds: now, utcOffsetSeconds: LocalTimeZone.utcOffsetSeconds(atUnixSeconds: now / 1_000_000_000)) }, probe: { DeviceProbe.read(client) },
            say: { try? StandardOutput.write($0 + "\n"); try? StandardOutput.flush() }, pause: { Thread.sleep(forTimeInterval: $0) },
            uptime: { Double(MonotonicClock.now().nanoseconds) / 1e9 })
    }
}

extension DeviceProbe {
    /// `GET /device` through the Unix socket; nil when nothing answers.
    static func read(_ client: DeviceAPIClient) -> DeviceProbe? {
        guard let reply = try? runBlocking({ try await client.request(.GET, "/device") }), reply.status == 200,
              let device = reply.json["device"] as? [String: Any], let state = device["state"] as? String else { return nil }
        let update = device["update"] as? [String: Any]
        return DeviceProbe(state: state, sessionInProgress: device["session_in_progress"] as? Bool ?? (reply.json["session_in_progress"] as? Bool ?? false),
                           updatePhase: update?["phase"] as? String)
    }
}

/// `chronoception update status`: the running version and slot, and the last update in words.
struct UpdateStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the running version, the slot it booted from and how the last update went.")

    @Flag(help: "Print it as one JSON object.") var json = false
    @Option(name: .customLong("data-dir"), help: "The device service's data directory (default: /var/lib/chronoception).")
    var dataDirectory: String = StoreLocation.serviceDirectory

    func run() throws {
        let slot = BootedSlot.read()
        let reading = UpdateRecordFile(directory: dataDirectory).read()
        let running = ReleaseVersion.running
        if json {
            var update: JSONValue = .null
            if let record = reading.record, case .object(var members) = record.json {
                members.append(("line", .string(record.line(running: running))))
                update = .object(members)
            }
            var members: [(String, JSONValue)] = [("version", .string(running.description)), ("slot", slot.map { .string($0.rawValue) } ?? .null), ("update", update)]
            if case .refused(let reason) = reading { members.append(("record_refused", .string(reason))) }
            print(JSONValue.object(members).prettyText)
            return
        }
        print(slot.map { "Chronoception \(running) on slot \($0.rawValue)." } ?? "Chronoception \(running) (this machine is not a two-slot card; updates are for the Raspberry Pi image).")
        switch reading {
        case .none: print("No update has been installed on this card.")
        case .record(let record):
            print(record.line(running: running))
            print("Started \(record.started.localMinuteText)\(record.finished.map { ", finished \($0.localMinuteText)" } ?? "").")
        case .refused(let reason): throw CommandFailure(message: "The update record cannot be read: \(reason).")
        }
    }
}

/// `chronoception update install FILE|URL`: checks a bundle and installs it into the other slot.
struct UpdateInstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Install a signed bundle (.raucb) into the other slot and restart into it; it becomes the card's system once it has come up.")

    @Argument(help: "The bundle: a file, or an http(s):// URL RAUC streams it from.") var bundle: String
    @Flag(help: "Install a version older than (or the same as) the running one.") var allowDowngrade = false
    @Flag(help: "Do not restart at the end (restart later with `systemctl reboot '0 tryboot'`).") var noReboot = false
    @OptionGroup var place: UpdatePlaceOptions

    /// The bundle argument as RAUC gets it: an absolute path of a regular file, or an http(s) URL of
    /// printable characters; anything else is refused here.
    static func bundleSource(_ text: String, currentDirectory: String = FileManager.default.currentDirectoryPath) throws(ValidationError) -> String {
        guard !text.isEmpty, text.utf8.count <= 2048, !text.unicodeScalars.contains(where: { TerminalSafeText.isUnsafe($0) || $0 == " " }) else {
            throw ValidationError("The bundle must be a file's path or an http(s):// URL of at most 2,048 printable characters, not \(TerminalSafeText.quoted(text)).")
        }
        if text.contains("://") {
            guard text.hasPrefix("https://") || text.hasPrefix("http://") else {
                throw ValidationError("Only http:// and https:// URLs can be streamed, not \(TerminalSafeText.quoted(text)).")
            }
            return text
        }
        let path = text.hasPrefix("/") ? text : currentDirectory + "/" + text
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw ValidationError("No bundle file at \(TerminalSafeText.quoted(path, limit: 200)); give the path of a .raucb that scripts/build-image wrote.")
        }
        return path
    }

    func validate() throws { _ = try Self.bundleSource(bundle) }

    func run() throws {
        guard getuid() == 0 else {
            throw CommandFailure(message: "Installing an update needs root (RAUC writes the other slot): run `sudo chronoception update install \(bundle)`.", status: .usage)
        }
        try place.slotUpdate().install(bundle: try Self.bundleSource(bundle), allowDowngrade: allowDowngrade, restart: !noReboot)
    }
}

/// `chronoception update boot`: run by chronoception-update-boot.service before the device service.
struct UpdateBootCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boot",
        abstract: "At boot, before the device service: notice a trial, a confirmed switch, a rollback or a cut install (the card's unit runs it).")
    @OptionGroup var place: UpdatePlaceOptions

    func run() throws { try place.slotUpdate().boot() }
}

/// `chronoception update confirm`: run by chronoception-update-confirm.service once the service started.
struct UpdateConfirmCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "confirm",
        abstract: "On a new slot's trial boot: mark it good once the device is up, or restart into the old slot (the card's unit runs it).")
    @Option(help: "Seconds the new slot has to come up before the card goes back (default 300).") var within: Double = SlotUpdate.confirmationBound
    @OptionGroup var place: UpdatePlaceOptions

    func validate() throws {
        guard within.isFinite, (10...3600).contains(within) else { throw ValidationError("--within must be 10 to 3,600 seconds.") }
    }

    func run() throws { try place.slotUpdate().confirm(within: within) }
}
