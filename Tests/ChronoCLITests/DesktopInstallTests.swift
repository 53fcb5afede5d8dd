import ChronoStore
import ChronoSync
import Foundation
import Testing
@testable import ChronoCLI

/// A desktop install (issue 35 item 4): scripts/install-desktop (what scripts/setup runs after the
/// build) into a temporary prefix — the link on the PATH, the completions, the user unit, the desktop
/// entry — and `settings set <TAB>`'s names and values, through the generated bash completion too.
/// The man page's generate-manual build is left out here (CHRONOCEPTION_SETUP_NO_MAN=1).
@Suite("Desktop install: link, completions, user unit, desktop entry")
struct DesktopInstallTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static func shell(_ script: String, environment: [String: String] = [:]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = URL(fileURLWithPath: repository)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test("install-desktop puts the program, its completions, the user unit and the desktop entry under the prefix")
    func install() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let prefix = NSTemporaryDirectory() + "chrono-desktop-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let installed = try Self.shell("scripts/install-desktop '\(binary)'",
                                       environment: ["CHRONOCEPTION_SETUP_PREFIX": prefix, "CHRONOCEPTION_SETUP_NO_MAN": "1"])
        #expect(installed.status == 0, "\(installed.errors)")
        #expect(installed.errors.contains("setup: start it at every login: systemctl --user enable --now chronoception"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: prefix + "/bin/chronoception") == binary)
        for path in ["/share/bash-completion/completions/chronoception", "/share/zsh/site-functions/_chronoception",
                     "/share/fish/vendor_completions.d/chronoception.fish"] {
            let text = try String(contentsOfFile: prefix + path, encoding: .utf8)
            #expect(text.contains("default-mode") && text.contains("glanceable-privacy"), "\(path) offers the setting names")
        }
        let unit = try String(contentsOfFile: prefix + "/systemd/user/chronoception.service", encoding: .utf8)
        #expect(unit.contains("\nExecStart=\(prefix)/bin/chronoception run\n"))
        #expect(unit.contains("\nEnvironment=CHRONOCEPTION_BOARDS_DIR=\(Self.repository)/boards\n"))
        #expect(unit.contains("\nWantedBy=default.target\n"))
        #expect(!unit.contains("@"))
        let entry = try String(contentsOfFile: prefix + "/share/applications/chronoception-companion.desktop", encoding: .utf8)
        #expect(entry.hasPrefix("[Desktop Entry]\nType=Application\nName=Chronoception\n"))
        #expect(entry.contains("\nExec=xdg-open http://127.0.0.1:8737/\n"))

        // bash, as at a prompt: `chronoception settings set fear-mode <TAB>` and `… default-mode r<TAB>`.
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let line = words.joined(separator: " ")
            let result = try Self.shell("""
                source '\(prefix)/share/bash-completion/completions/chronoception'
                PATH='\(prefix)/bin':$PATH; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
                COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
                _chronoception chronoception '\(words.last ?? "")' '\(words.dropLast().last ?? "")'
                printf '%s\\n' "${COMPREPLY[@]}"
                """)
            #expect(result.status == 0, "\(result.errors)")
            return result.output.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["chronoception", "settings", "set", "fear-mode", ""]) == ["on", "off"])
        #expect(try complete(["chronoception", "settings", "set", "default-mode", "r"]) == ["reproduction"])
        #expect(try complete(["chronoception", "settings", "set", "wall-"]) == ["wall-clock-check"])
    }

    @Test("settings set completes each setting's values; every value offered is one the setting accepts")
    func settingValues() throws {
        #expect(SettingCompletion.values(["chronoception", "settings", "set", "auto-start", ""], 4, "") == ["on", "off"])
        #expect(SettingCompletion.values(["chronoception", "settings", "set", "default-mode", "p"], 4, "p") == ["passive"])
        #expect(SettingCompletion.values(["chronoception", "settings", "set", "nosuch", ""], 4, "") == [])
        #expect(SettingCompletion.values(["chronoception", "settings", "set", "health-log-file", ""], 4, "") == [])
        let location = StoreLocation(directory: "/tmp/chrono-completion")
        var values = Dictionary(uniqueKeysWithValues: SettingKey.allCases.map { ($0, $0.defaultValue(location: location)) })
        values[.fearMode] = "on"  // so that default-mode fear is accepted too
        let settings = StoreSettings(values: values, healthFailure: nil)
        for key in SettingKey.allCases {
            for value in key.suggestedValues {
                #expect((try? key.canonicalValue(value, current: settings)) != nil, "\(key.rawValue) \(value)")
            }
        }
    }
}
