import Foundation
import Testing
@testable import ChronoHardware

/// Looking for the keyboard on a machine without input devices names what is missing — no /dev/input,
/// no event devices in it, or none that opened — and the `input` group, instead of "found no keyboard".
@Suite struct EvdevNoInputTests {
    static let keyboard = EvdevInput(device: .firstKeyboard, keyCode: 57, grab: false)
    static let fix = "plug in a keyboard (or the input device the board names); in a container or a virtual machine, "
        + "pass the host's input devices through; and so that this user may read them, "
        + "join the `input` group (`sudo usermod -aG input $USER`), then log in again (docs/HARDWARE.md)"

    func failure(folder: String, input: EvdevInput = Self.keyboard) -> EvdevError? {
        do {
            _ = try EvdevButton(input: input, finder: EvdevDeviceFinder(inputFolder: folder))
            return nil
        } catch {
            return error
        }
    }

    @Test func noInputFolderAtAll() throws {
        let folder = NSTemporaryDirectory() + "chronoception-no-input-\(UUID().uuidString)"
        let error = try #require(failure(folder: folder))
        #expect(error.kind == .noSuchDevice)
        #expect(error.noInput == .noFolder(folder))
        #expect(error.description == "button: found no keyboard with KEY_SPACE: there is no \(folder) on this machine, so no input device at all. Fix: \(Self.fix)")
    }

    @Test func anInputFolderWithoutEventDevices() throws {
        let folder = NSTemporaryDirectory() + "chronoception-no-events-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/by-id", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        FileManager.default.createFile(atPath: folder + "/mice", contents: Data())
        let error = try #require(failure(folder: folder))
        #expect(error.noInput == .noEventDevices(folder))
        #expect(error.description == "button: found no keyboard with KEY_SPACE: \(folder) has no event devices (\(folder)/event*), so no keyboard or other input device. Fix: \(Self.fix)")
        // A device named by path or by name says the same.
        let named = try #require(failure(folder: folder, input: EvdevInput(device: .name("FootSwitch"), keyCode: 57, grab: false)))
        #expect(named.detail == "no input device's name contains \"FootSwitch\": \(folder) has no event devices (\(folder)/event*), so no keyboard or other input device")
        #expect(named.fix == Self.fix)
        let byPath = try #require(failure(folder: folder, input: EvdevInput(device: .path(folder + "/by-id/usb-pedal-event-kbd"), keyCode: 57, grab: false)))
        #expect(byPath.noInput == .noEventDevices(folder))
    }

    @Test func eventNodesThatAreNotInputDevices() throws {
        let folder = NSTemporaryDirectory() + "chronoception-fake-events-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["event0", "event1"] { FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("x".utf8)) }
        let error = try #require(failure(folder: folder))
        #expect(error.description == "button: found no keyboard with KEY_SPACE: none of the 2 event devices in \(folder) opened as an input device. Fix: \(Self.fix)")
    }

    @Test func permissionDeniedPutsTheInputGroupFirst() {
        let error = EvdevError(kind: .permissionDenied, role: "button", device: "/dev/input/event0", detail: "d")
        #expect(error.fix.hasPrefix("this user may not read /dev/input/event*: join the `input` group (`sudo usermod -aG input $USER`), then log in again; "))
        #expect(error.fix.contains("61-chronoception-input.rules"))
    }

    @Test func someUnreadableDevicesAddTheGroupToTheBoardFix() {
        let error = EvdevError(kind: .noSuchDevice, role: "button", device: "first-keyboard", detail: "d", unreadable: 2)
        #expect(error.fix.hasSuffix(" If the device is one of those this user may not read, join the `input` group (`sudo usermod -aG input $USER`), then log in again."))
    }
}
