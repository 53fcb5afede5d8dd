import ChronoCore
import CEvdev
import Foundation
import Testing
@testable import ChronoHardware

/// The evdev button's decoding of a written event stream, fed on into the session core's gesture
/// recogniser as the loop does (edge stamps become the gestures' instants).
@Suite("evdev key decoding")
struct EvdevDecodingTests {
    static let space: UInt16 = 57
    static let b: UInt16 = 48

    func ms(_ value: Int64) -> Int64 { value * 1_000_000 }
    func key(_ value: Int32, at milliseconds: Int64, code: UInt16 = space, resync: Bool = false) -> EvdevEvent {
        .key(code, value, at: ms(milliseconds), resync: resync)
    }

    /// Edges into the recogniser, then time passes to `until` milliseconds.
    func gestures(_ edges: [ButtonEdge], until milliseconds: Int64, debounce: Int64 = 0) -> [Gesture] {
        var recognizer = GestureRecognizer(settings: GestureSettings(debounce: .milliseconds(debounce), longPress: .milliseconds(1500)))
        var gestures: [Gesture] = []
        for edge in edges {
            gestures += recognizer.handle(RawButtonEdge(pressed: edge.direction == .pressed,
                                                        at: MonotonicInstant(nanoseconds: edge.monotonicNanoseconds)))
        }
        return gestures + recognizer.advance(to: MonotonicInstant(nanoseconds: ms(milliseconds)))
    }

    func instant(_ milliseconds: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: ms(milliseconds)) }

    @Test("press, auto-repeats, release: two edges at the kernel's stamps; the tap is known at its release")
    func pressRepeatRelease() {
        var decoder = EvdevKeyDecoder(keyCode: Self.space)
        let edges = decoder.decode([key(1, at: 1000), key(2, at: 1250), key(2, at: 1283), key(0, at: 1300)])
        #expect(edges == [ButtonEdge(.pressed, at: ms(1000)), ButtonEdge(.released, at: ms(1300))])
        // No key-hold window: the tap is recognised from the release edge itself.
        #expect(gestures(edges, until: 1300) == [.tap(pressedAt: instant(1000), releasedAt: instant(1300))])
    }

    @Test("a held key is a held button: repeats never end it, the long press is exact, its release is no tap")
    func heldKeyIsLongPress() {
        var decoder = EvdevKeyDecoder(keyCode: Self.space)
        let repeats = (0..<60).map { key(2, at: 250 + Int64($0) * 33) }
        let edges = decoder.decode([key(1, at: 0)] + repeats + [key(0, at: 2400)])
        #expect(edges.map(\.direction) == [.pressed, .released])
        #expect(gestures(edges, until: 3000) == [.longPress(pressedAt: instant(0), recognizedAt: instant(1500))])
    }

    @Test("SYN_DROPPED: the resynchronised level becomes one edge at the drop's stamp")
    func droppedThenResyncedRelease() {
        var decoder = EvdevKeyDecoder(keyCode: Self.space)
        var edges = decoder.decode([key(1, at: 100)])
        // The release was lost in the overflow; libevdev's sync reports the key up, stamped at the drop.
        edges += decoder.decode([EvdevEvent(.dropped, at: ms(180)), key(0, at: 180, resync: true)])
        #expect(edges == [ButtonEdge(.pressed, at: ms(100)), ButtonEdge(.released, at: ms(180))])
        #expect(decoder.droppedCount == 1)
        #expect(!decoder.isPressed)
        #expect(gestures(edges, until: 2000) == [.tap(pressedAt: instant(100), releasedAt: instant(180))])
    }

    @Test("SYN_DROPPED with the key back where it was: no edge; a press seen twice is one press")
    func droppedWithNoNetChange() {
        var decoder = EvdevKeyDecoder(keyCode: Self.space)
        let edges = decoder.decode([
            key(1, at: 10), EvdevEvent(.dropped, at: ms(20)), // press and release lost; libevdev syncs nothing
            key(1, at: 40), key(1, at: 41), key(0, at: 90),   // a duplicate press does not make a second edge
        ])
        #expect(edges == [ButtonEdge(.pressed, at: ms(10)), ButtonEdge(.released, at: ms(90))])
        #expect(decoder.droppedCount == 1)
    }

    @Test("other keys are not the button, but the last one pressed is remembered for board check")
    func otherKeys() {
        var decoder = EvdevKeyDecoder(keyCode: Self.space)
        #expect(decoder.decode([key(1, at: 5, code: Self.b), key(0, at: 9, code: Self.b)]).isEmpty)
        #expect(decoder.lastOtherKeyPressed == Self.b)
    }

    @Test("a key already held when the device opens gives no press; its release reaches the core, which ignores it")
    func heldAtOpen() {
        var decoder = EvdevKeyDecoder(keyCode: Self.space, initiallyPressed: true)
        let edges = decoder.decode([key(2, at: 10), key(0, at: 50), key(1, at: 400), key(0, at: 500)])
        #expect(edges == [ButtonEdge(.released, at: ms(50)), ButtonEdge(.pressed, at: ms(400)), ButtonEdge(.released, at: ms(500))])
        #expect(gestures(edges, until: 1000) == [.tap(pressedAt: instant(400), releasedAt: instant(500))])
    }

    @Test("the shim's flat events: EV_KEY and SYN_DROPPED kept with their stamps, other types skipped")
    func shimEvents() {
        let keyEvent = chrono_evdev_event(type: chrono_evdev_type_key(), code: 57, value: 1, timestamp_ns: 1_234_567_000, resync: true)
        #expect(EvdevEvent(keyEvent) == .key(57, 1, at: 1_234_567_000, resync: true))
        let dropped = chrono_evdev_event(type: chrono_evdev_type_syn(), code: chrono_evdev_code_syn_dropped(), value: 0,
                                         timestamp_ns: 9_000, resync: false)
        #expect(EvdevEvent(dropped) == EvdevEvent(.dropped, at: 9_000))
        let report = chrono_evdev_event(type: chrono_evdev_type_syn(), code: 0, value: 0, timestamp_ns: 9_000, resync: false)
        #expect(EvdevEvent(report) == nil)
    }

    @Test("key names as board files write them")
    func keyNames() {
        #expect(EvdevKeyName.code(for: "space") == 57)
        #expect(EvdevKeyName.code(for: "KEY_SPACE") == 57)
        #expect(EvdevKeyName.code(for: "b") == 48)
        #expect(EvdevKeyName.code(for: "F13") == 183)
        #expect(EvdevKeyName.code(for: "btn_0") == 256)
        #expect(EvdevKeyName.code(for: "left") == 105) // KEY_LEFT before BTN_LEFT
        #expect(EvdevKeyName.code(for: "spacebar") == nil)
        #expect(EvdevKeyName.boardName(of: 57) == "space")
        #expect(EvdevKeyName.boardName(of: 256) == "btn_0")
    }

    @Test("no input devices: the error says no such device and what to plug in")
    func noDevices() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("evdev-empty-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A regular file named like an event node is not an input device: skipped, not listed.
        FileManager.default.createFile(atPath: folder + "/event0", contents: Data("x".utf8))
        let finder = EvdevDeviceFinder(inputFolder: folder)
        #expect(finder.scan(keyCode: 57).devices.isEmpty)
        for reference in [EvdevDeviceReference.firstKeyboard, .name("FootSwitch"), .path(folder + "/by-id/usb-pedal-event-kbd")] {
            do {
                _ = try EvdevButton(input: EvdevInput(device: reference, keyCode: 57, grab: false), finder: finder)
                Issue.record("opened \(reference)")
            } catch {
                #expect(error.kind == .noSuchDevice)
                // Nothing opened as an input device: the fix is a device (and the input group), not a board key.
                #expect(error.noInput == .noneOpened(folder, count: 1))
                #expect(error.fix.contains("plug in a keyboard") && error.fix.contains("sudo usermod -aG input $USER"))
            }
        }
        do {
            _ = try EvdevButton(path: folder + "/event0", keyCode: 57, grab: false)
            Issue.record("opened a regular file")
        } catch {
            #expect(error.kind == .notAnInputDevice)
        }
    }
}
