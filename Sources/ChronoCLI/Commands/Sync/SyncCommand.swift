import ArgumentParser
import ChronoCommandLine
import ChronoCore
import ChronoDevice
import ChronoStore
import ChronoSync
import Foundation

/// `chronoception sync add|now|status|remove`: this device's side of sync with a collector
/// (docs/SYNC.md). Every subcommand takes `--data-dir` and ends with an exit status a script can use
/// (docs/EXIT-CODES.md: 68 unreachable, 77 key or code refused, 79 refused by the collector).
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Send completed sessions to a collector and receive its preferences.",
        discussion: "Enrol once with `sync add URL --code CODE` (the code comes from `chronoception-collector enrol NAME`); `chronoception run` then pushes in the background, and `sync now` pushes once.",
        subcommands: [Add.self, Now.self, Status.self, Remove.self], defaultSubcommand: Status.self)

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Enrol this device with a collector (one at a time).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The collector: http://HOST:PORT or https://HOST[:PORT].") var url: String
        @Option(help: "The one-time code `chronoception-collector enrol NAME` printed.") var code: String
        @Option(help: "The board named to the collector (default: this machine's, as `run` picks it).") var board: String?
        @Flag(help: "Enrol with a new device ID: for a data directory copied from another device that the copy check cannot see (a machine without /etc/machine-id), when the collector answers device_enrolled.") var asNewDevice = false

        func run() throws {
            try reportingFailures {
                let collector: CollectorURL
                do { collector = try CollectorURL(parsing: url) } catch { throw CommandFailure(message: String(describing: error), status: .usage) }
                let trimmed = code.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty, trimmed.count <= 200, !trimmed.contains(where: \.isNewline) else {
                    throw CommandFailure(message: "--code is empty or not a code; give the one-time code `chronoception-collector enrol NAME` printed.", status: .usage)
                }
                let store = try self.store.openWritableStore()
                let exchange = SyncExchange(store: store, transport: CollectorClient(url: collector))
                let copied = try store.syncMachineState(current: exchange.machine) == .copied
                if let existing = try store.syncEnrolment(), !copied {
                    throw CommandFailure(message: "this device is already enrolled with \(existing.collectorURL) as '\(existing.deviceName)'; run `chronoception sync remove` first to change collectors.", status: .usage)
                }
                if let renewed = try exchange.prepareEnrolment(asNewDevice: asNewDevice) {
                    print(copied
                          ? "this data directory seems copied from another machine (its device ID is bound to the machine it enrolled on): enrolling this machine as a new device, device ID \(renewed)"
                          : "enrolling as a new device, device ID \(renewed)")
                }
                let boardName = board ?? BoardDrivers.defaultBoardName()
                let enrolment = try runBlocking { try await exchange.enrol(url: collector, code: trimmed, board: boardName, softwareVersion: Version.packageVersion) }
                let pending = try store.syncState().pending
                print("enrolled with \(enrolment.collectorURL) as '\(TerminalSafeText.sanitized(enrolment.deviceName, keepNewlines: false))'; \(CountText.of(pending, "session")) pending (`chronoception sync now` sends \(pending == 1 ? "it" : "them"); `chronoception run` does it in the background)")
            }
        }
    }

    struct Now: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send everything pending now and apply the collector's preferences.")
        @OptionGroup var store: StoreOptions

        func run() throws {
            try reportingFailures {
                let store = try self.store.openWritableStore()
                let enrolment = try requireEnrolment(store)
                let url: CollectorURL
                do { url = try CollectorURL(parsing: enrolment.collectorURL) } catch { throw CommandFailure(message: String(describing: error), status: .usage) }
                let exchange = SyncExchange(store: store, transport: CollectorClient(url: url))
                let summary = try runBlocking { try await exchange.pushAll(enrolment: enrolment) }
                print(summary.line)
                if !summary.preferences.applied.isEmpty {
                    print("preferences from the collector: " + TerminalSafeText.sanitized(summary.preferences.applied.joined(separator: ", "), keepNewlines: false))
                }
                for refused in summary.preferences.refused {
                    printError("warning: " + TerminalSafeText.sanitized(refused, keepNewlines: false))
                }
                if let study = summary.study { print(TerminalSafeText.sanitized(study, keepNewlines: false)) }
                if let refused = summary.studyRefused { printError("warning: " + TerminalSafeText.sanitized(refused, keepNewlines: false)) }
                for line in summary.refusedLines { printError("warning: " + line) }
            }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "What is pending, when sync last succeeded, and why it fails.")
        @OptionGroup var store: StoreOptions
        @Flag(help: "Machine-readable output: one object.") var json = false

        func run() throws {
            try reportingFailures {
                let store = try self.store.openStore()
                let state = try store.syncState()
                let copied = try store.syncMachineState(current: MachineBinding.current()) == .copied
                if json {
                    print(SyncStatusText.json(state, copied: copied).prettyText)
                } else {
                    for line in SyncStatusText.lines(state, copied: copied) { print(TerminalSafeText.sanitized(line, keepNewlines: false)) }
                }
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Forget the collector and its key (sessions stay on this device).")
        @OptionGroup var store: StoreOptions

        func run() throws {
            try reportingFailures {
                let store = try self.store.openWritableStore()
                guard let removed = try store.removeSyncEnrolment() else {
                    print("not enrolled with a collector; nothing to remove")
                    return
                }
                print("removed \(removed.collectorURL); the collector keeps what it received, and every session here is sent again after the next `sync add`")
            }
        }
    }
}

/// The enrolment, or the one-line failure telling how to make one.
func requireEnrolment(_ store: ChronoStore) throws -> SyncEnrolment {
    guard let enrolment = try store.syncEnrolment() else {
        throw CommandFailure(message: "this device is not enrolled with a collector; run `chronoception sync add http://HOST:PORT --code CODE` first (the code comes from `chronoception-collector enrol NAME`).", status: .usage)
    }
    return enrolment
}
