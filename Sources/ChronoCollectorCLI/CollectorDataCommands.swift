import ArgumentParser
import ChronoAPI
import ChronoCommandLine
import ChronoCollector
import ChronoCore
import ChronoStore
import ChronoSync
import Foundation

extension ChronoceptionCollector {
    struct Preferences: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "preferences",
            abstract: "Show or set a device's synced preferences (they reach it with its next batch).",
            subcommands: [Show.self, SetPreference.self])

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "show", abstract: "A device's preferences with their Lamport stamps.")
            @Argument(help: "The device's name.") var name: String
            @OptionGroup var store: CollectorStoreOptions

            func run() throws {
                try withCollectorStore(store) { opened in
                    let (device, preferences) = try await opened.preferences(deviceNamed: name)
                    guard !preferences.isEmpty else {
                        print("\(shown(device.name)) has sent no preferences and none were set here. `chronoception-collector preferences set \(TerminalSafeText.sanitized(device.name, keepNewlines: false)) KEY VALUE` sets one.")
                        return
                    }
                    // Keys and values came from the device: shown as text.
                    let keys = preferences.map { TerminalSafeText.sanitized($0.key, keepNewlines: false) }
                    let width = keys.map(\.count).max() ?? 0
                    for (key, preference) in zip(keys, preferences) {
                        print(key + String(repeating: " ", count: width - key.count) + "  \(TerminalSafeText.sanitized(preference.value, keepNewlines: false))  (clock \(preference.clock), from the \(preference.origin.rawValue))")
                    }
                }
            }
        }

        struct SetPreference: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "set", abstract: "Set a synced preference for a device, checked by the device's own rules.")
            @Argument(help: "The device's name.") var name: String
            @Argument(help: "A synced setting: \(PreferenceMerge.syncedKeys.sorted().joined(separator: ", ")).") var key: String
            @Argument(help: "Its value, as `chronoception settings set` takes it.") var value: String
            @OptionGroup var store: CollectorStoreOptions

            func run() throws {
                let setting: SettingKey
                do { setting = try CollectorPreferences.key(key) } catch { throw CollectorFailure.wrap(error) }
                try withCollectorStore(store) { opened in
                    let stamped = try await opened.setPreference(deviceNamed: name, key: setting, value: value)
                    print("\(stamped.key) = \(TerminalSafeText.sanitized(stamped.value, keepNewlines: false)) for \(shown(name)) (clock \(stamped.clock)); the device takes it with its next batch.")
                }
            }
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "export", abstract: "Export every device's sessions.", subcommands: [CSV.self, Tidy.self])

        struct CSV: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "csv",
                abstract: "CSV of every session of every device: the device's export columns with device_id, device_name and participant in front.")
            @Option(name: .shortAndLong, help: "Write to FILE instead of standard output.") var output: String?
            @Option(help: "Only this device (name or UUID).") var device: String?
            @Option(help: "Only this participant's devices.") var participant: String?
            @OptionGroup var store: CollectorStoreOptions

            func run() throws {
                let query = CollectorSessionQuery(device: device, participant: participant)
                let path = output
                // Checked before the store is opened: an export over its own database would replace
                // every device, key and session with CSV.
                if let path, let owner = try store.ownedFiles()?.owner(of: path) {
                    throw CommandFailure(message: "Will not write \(TerminalSafeText.quoted(path, limit: 200)): it is \(owner), and the export would replace it. The file was left as it was. Give a path outside the collector's data directory files with -o.",
                                         status: .outputIsStore)
                }
                try withCollectorStore(store) { opened in
                    if query.device != nil || query.participant != nil,
                       let unknown = CollectorScope.unknown(query, among: try await opened.devices()) {
                        throw CommandFailure(message: unknown.message(lister: "`chronoception-collector devices`"), status: .usage)
                    }
                    let sessions = try await opened.sessions(query)
                    let withheld = try await CollectorWithheld.ids(sessions, nowUnixNanoseconds: LocalTimeZone.nowUnixNanoseconds(),
                                                                   assignment: { try await opened.studyAssignment(deviceID: $0) })
                    var text = ""
                    CollectorCSV.write(sessions, withheld: withheld) { text += $0 }
                    if let path {
                        try StudyCommandSupport.replace(path, with: text)
                        FileHandle.standardError.write(Data("Wrote \(sessions.count) session\(sessions.count == 1 ? "" : "s") to \(path).\n".utf8))
                    } else {
                        FileHandle.standardOutput.write(Data(text.utf8))
                    }
                }
            }
        }
    }

    struct Keys: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keys",
            abstract: "Keys for people and scripts reading the collector's API from beyond loopback.",
            subcommands: [List.self, Add.self, Revoke.self],
            defaultSubcommand: List.self)

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List reader keys (never their secrets).")
            @OptionGroup var store: CollectorStoreOptions

            func run() throws {
                try withCollectorStore(store) { opened in
                    let keys = try await opened.readerKeys()
                    if keys.isEmpty { print("No reader keys. `chronoception-collector keys add NAME` makes one.") }
                    for key in keys { print("\(key.id)  \(TerminalSafeText.sanitized(key.name, keepNewlines: false))  (made \(CollectorTimeText.utc(key.createdUnixNanoseconds)))") }
                }
            }
        }

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Make a reader key and print it once (send it as `Authorization: Bearer KEY`).")
            @Argument(help: "A name to recognise it by, e.g. \"analysis laptop\".") var name: String
            @OptionGroup var store: CollectorStoreOptions

            func run() throws {
                let name: String
                do { name = try CollectorCredentials.validName(self.name) } catch { throw CollectorFailure.wrap(error) }
                try withCollectorStore(store) { opened in
                    let secret = CollectorCredentials.newReaderKey()
                    let key = ReaderKey(id: Secrets.keyID(), name: name, createdUnixNanoseconds: LocalTimeZone.nowUnixNanoseconds())
                    try await opened.addReaderKey(key, keySHA256: CollectorCredentials.keyDigest(secret))
                    print("Reader key \(key.id) for \(shown(key.name)):")
                    print(secret)
                    print("It is shown only now; the collector keeps only its digest.")
                }
            }
        }

        struct Revoke: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Revoke a reader key: it is refused (key_unknown) from now on.")
            @Argument(help: "The key's ID or name (from `collector keys list`); a name must be on one key only.") var key: String
            @OptionGroup var store: CollectorStoreOptions

            func run() throws {
                let idOrName = key
                try withCollectorStore(store) { opened in
                    let revoked = try await opened.revokeReaderKey(idOrName)
                    print("Revoked reader key \(revoked.id) (\(shown(revoked.name))); requests with it are refused from now on.")
                }
            }
        }
    }
}
