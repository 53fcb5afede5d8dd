import Testing
@testable import ChronoCore

@Suite("Gesture recogniser: debounce, tap and long press")
struct GestureRecognizerTests {
    func ms(_ value: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: value * 1_000_000) }
    func edge(_ pressed: Bool, _ at: Int64) -> RawButtonEdge { RawButtonEdge(pressed: pressed, at: ms(at)) }

    func feed(_ edges: [RawButtonEdge], until end: Int64, settings: GestureSettings = GestureSettings()) -> [Gesture] {
        var recognizer = GestureRecognizer(settings: settings)
        var gestures: [Gesture] = []
        for edge in edges { gestures += recognizer.handle(edge) }
        gestures += recognizer.advance(to: ms(end))
        return gestures
    }

    @Test("a 5-edge bounce burst is one press marked at its first edge")
    func bounceBurst() {
        let gestures = feed([edge(true, 1000), edge(false, 1003), edge(true, 1007), edge(false, 1012), edge(true, 1020),
                             edge(false, 1200)], until: 5000)
        #expect(gestures == [.tap(pressedAt: ms(1000), releasedAt: ms(1200))])
    }

    @Test("release bounces are one release")
    func releaseBounce() {
        let gestures = feed([edge(true, 0), edge(false, 300), edge(true, 305), edge(false, 310)], until: 5000)
        #expect(gestures == [.tap(pressedAt: ms(0), releasedAt: ms(300))])
    }

    @Test("a press shorter than the debounce window is still a tap, released at its own edge")
    func veryShortTap() {
        let gestures = feed([edge(true, 100), edge(false, 110)], until: 1000)
        #expect(gestures == [.tap(pressedAt: ms(100), releasedAt: ms(110))])
    }

    @Test("holding for the threshold is a long press, recognised while held; its release is no tap")
    func longPress() {
        var recognizer = GestureRecognizer()
        #expect(recognizer.handle(edge(true, 0)).isEmpty)
        #expect(recognizer.nextDeadline == ms(1500))
        #expect(recognizer.advance(to: ms(1499)).isEmpty)
        #expect(recognizer.advance(to: ms(1500)) == [.longPress(pressedAt: ms(0), recognizedAt: ms(1500))])
        #expect(recognizer.handle(edge(false, 2500)).isEmpty)
    }

    @Test("released one nanosecond before the threshold is a tap; at the threshold a long press")
    func thresholdEdge() {
        let justTap = feed([RawButtonEdge(pressed: true, at: .zero), RawButtonEdge(pressed: false, at: MonotonicInstant(nanoseconds: 1_499_999_999))], until: 3000)
        #expect(justTap == [.tap(pressedAt: .zero, releasedAt: MonotonicInstant(nanoseconds: 1_499_999_999))])
        let atThreshold = feed([edge(true, 0), edge(false, 1500)], until: 3000)
        #expect(atThreshold == [.longPress(pressedAt: ms(0), recognizedAt: ms(1500))])
    }

    @Test("the long-press threshold is configurable")
    func configurable() {
        let gestures = feed([edge(true, 0), edge(false, 900)], until: 3000,
                            settings: GestureSettings(debounce: .milliseconds(20), longPress: .milliseconds(800)))
        #expect(gestures == [.longPress(pressedAt: ms(0), recognizedAt: ms(800))])
    }

    @Test("repeated edges of the same level are ignored")
    func duplicates() {
        let gestures = feed([edge(true, 0), edge(true, 100), edge(false, 200), edge(false, 250)], until: 1000)
        #expect(gestures == [.tap(pressedAt: ms(0), releasedAt: ms(200))])
    }
}
