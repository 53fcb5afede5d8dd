import ArgumentParser
import ChronoCommandLine
import ChronoCore
import ChronoStore
import ChronoSync

/// `chronoception settings list|get KEY|set KEY VALUE` (SPEC §6). The device and the session commands
/// read these as their defaults at the next session.
struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "List, read or change settings.",
        subcommands: [List.self, Get.self, Set.self], defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every setting with its value.")
        @OptionGroup var store: StoreOptions
        @Flag(help: "Machine-readable output: one object, setting names as keys.") var json = false

        func run() throws {
            try reportingFailures {
                let settings = try store.openStore().settings()
                if json {
                    print(JSONValue.object(SettingKey.allCases.map { key in
                        (key.rawValue, .string(key == .healthLogging ? settings.healthStatus : settings[key]))
                    }).prettyText)
                    return
                }
                let width = SettingKey.allCases.map(\.rawValue.count).max() ?? 0
                for key in SettingKey.allCases {
                    var value = settings[key]
                    if key == .healthLogging { value = settings.healthStatus }
                    print(TerminalSafeText.sanitized(key.rawValue.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value, keepNewlines: false))
                }
            }
        }
    }

    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One setting's value.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The setting.", completion: .list(SettingKey.allCases.map(\.rawValue))) var key: String

        func run() throws {
            try reportingFailures {
                let setting = try settingKey(key)
                let settings = try store.openStore().settings()
                print(TerminalSafeText.sanitized(setting == .healthLogging ? settings.healthStatus : settings[setting], keepNewlines: false))
            }
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change a setting (validated).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The setting.", completion: .list(SettingKey.allCases.map(\.rawValue))) var key: String
        @Argument(help: "The new value.", completion: .custom(SettingCompletion.values)) var value: String

        func run() throws {
            try reportingFailures {
                let setting = try settingKey(key)
                let stored = try store.openStore().setSetting(setting, to: value, nowUnixSeconds: nowUnixSeconds)
                print("\(setting.rawValue) = \(stored)")
            }
        }
    }
}

func settingKey(_ text: String) throws -> SettingKey {
    guard let key = SettingKey(rawValue: text) else {
        throw CommandFailure(message: "\(TerminalSafeText.quoted(text)) is not a setting. The settings, each with the values it takes:",
                             status: .usage, detail: SettingKey.allCases.map { "  \($0.rawValue): \($0.summary)" })
    }
    return key
}

/// What the shell offers for `settings set KEY <TAB>`: the named setting's suggested values, those
/// that begin with what is typed. The setting is the word before the one being completed.
enum SettingCompletion {
    @Sendable static func values(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard index > 0, index - 1 < words.count, let key = SettingKey(rawValue: words[index - 1]) else { return [] }
        return key.suggestedValues.filter { $0.hasPrefix(prefix) }
    }
}
