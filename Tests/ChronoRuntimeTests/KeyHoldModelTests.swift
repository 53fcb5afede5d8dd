import ChronoHardware
import Testing

/// The desktop button's model of a terminal's keystrokes (no key-up events, auto-repeat for a held key).
@Suite("Terminal key hold model")
struct KeyHoldModelTests {
    let ms: Int64 = 1_000_000
    let space = UInt8(ascii: " ")

    @Test("A single keystroke is a press at its arrival and a release when the first-repeat window passes")
    func tap() {
        var model = KeyHoldModel(firstRepeatWindow: 700 * ms, repeatWindow: 150 * ms)
        #expect(model.keystroke(space, at: 1000 * ms) == [ButtonEdge(.pressed, at: 1000 * ms)])
        #expect(model.advance(to: 1500 * ms).isEmpty)
        #expect(model.releaseDeadline == 1700 * ms)
        #expect(model.advance(to: 1700 * ms) == [ButtonEdge(.released, at: 1700 * ms)])
        #expect(!model.isHeld)
    }

    @Test("Auto-repeat of a held key is one long hold, not more presses")
    func heldKey() {
        var model = KeyHoldModel(firstRepeatWindow: 700 * ms, repeatWindow: 150 * ms)
        var edges = model.keystroke(space, at: 0)
        // First repeat after a 500 ms delay, then every 33 ms until 1.6 s.
        var instant: Int64 = 500 * ms
        while instant <= 1600 * ms {
            edges += model.keystroke(space, at: instant)
            instant += 33 * ms
        }
        #expect(edges == [ButtonEdge(.pressed, at: 0)])
        let last = instant - 33 * ms
        #expect(model.releaseDeadline == last + 150 * ms)
        #expect(model.advance(to: last + 150 * ms) == [ButtonEdge(.released, at: last + 150 * ms)])
    }

    @Test("A keystroke after the key was let go is a new press")
    func secondPress() {
        var model = KeyHoldModel(firstRepeatWindow: 700 * ms, repeatWindow: 150 * ms)
        _ = model.keystroke(space, at: 0)
        let edges = model.keystroke(space, at: 5000 * ms)
        #expect(edges == [ButtonEdge(.released, at: 700 * ms), ButtonEdge(.pressed, at: 5000 * ms)])
    }

    @Test("Another press key while one is held releases it and presses again")
    func otherKey() {
        var model = KeyHoldModel(firstRepeatWindow: 700 * ms, repeatWindow: 150 * ms)
        _ = model.keystroke(space, at: 0)
        let edges = model.keystroke(0x0D, at: 100 * ms)
        #expect(edges == [ButtonEdge(.released, at: 100 * ms), ButtonEdge(.pressed, at: 100 * ms)])
    }
}
