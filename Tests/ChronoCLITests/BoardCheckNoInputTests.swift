import Foundation
import Testing

/// `board check keyboard` on a machine without /dev/input (a server, a container: CI) names the missing
/// input devices and the `input` group, rather than "found no keyboard with KEY_SPACE" alone.
@Suite(.enabled(if: !FileManager.default.fileExists(atPath: "/dev/input"), "this machine has /dev/input (EvdevNoInputTests cover it with a folder of their own)"))
struct BoardCheckNoInputTests {
    @Test func boardCheckKeyboardNamesTheMissingInputDevices() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let result = try FullDiskCommandTests.run(binary, ["board", "check", "keyboard", "--no-press"])
        #expect(result.status == 1)
        let lines = result.output.split(separator: "\n").map(String.init)
        let failed = try #require(lines.firstIndex { $0.hasPrefix("[FAIL] button:") })
        #expect(lines[failed] == "[FAIL] button: found no keyboard with KEY_SPACE: there is no /dev/input on this machine, so no input device at all")
        #expect(lines[failed + 1] == "       Fix: plug in a keyboard (or the input device the board names); in a container or a virtual machine, pass the host's input devices through; and so that this user may read them, join the `input` group (`sudo usermod -aG input $USER`), then log in again (docs/HARDWARE.md)")
    }
}
