/// A raw level change of the button, already corrected for polarity, with its own timestamp.
public struct RawButtonEdge: Hashable, Sendable {
    public var pressed: Bool
    public var at: MonotonicInstant

    public init(pressed: Bool, at: MonotonicInstant) {
        self.pressed = pressed
        self.at = at
    }
}

/// What the user did with the button.
public enum Gesture: Hashable, Sendable {
    /// Pressed and released before the long-press threshold. `pressedAt` is the mark.
    case tap(pressedAt: MonotonicInstant, releasedAt: MonotonicInstant)
    /// Held down for the long-press threshold; recognised while still held, at `recognizedAt`.
    case longPress(pressedAt: MonotonicInstant, recognizedAt: MonotonicInstant)
}

/// The timing of button gestures. The defaults are the device's.
public struct GestureSettings: Hashable, Sendable {
    /// Edges within this window after an accepted change are the same bounce burst.
    public var debounce: TimeSpan
    /// Holding this long is a long press (≥, not >).
    public var longPress: TimeSpan

    public static let defaultDebounce = TimeSpan.milliseconds(30)
    public static let defaultLongPress = TimeSpan.milliseconds(1500)

    public init(debounce: TimeSpan = defaultDebounce, longPress: TimeSpan = defaultLongPress) {
        self.debounce = debounce
        self.longPress = longPress
    }
}

/// Turns raw button edges into taps and long presses (pure; time comes in with the events).
///
/// Debounce: the first edge that changes the level is accepted at once, at its own timestamp, and
/// opens a lockout of `debounce`; edges inside the lockout only update the raw level. If the level at
/// the end of the lockout differs from the accepted one, that change is accepted then, stamped with
/// the edge that produced it. So a 5-edge bounce burst is one press whose mark is the first edge.
///
/// Tap vs long press: a press released before `longPress` is a tap (reported on release, marked at the
/// press edge); a press held for `longPress` is a long press, reported at press + `longPress` while
/// still held, and its release is not a tap.
public struct GestureRecognizer: Hashable, Sendable {
    public let settings: GestureSettings

    private var stablePressed = false
    private var rawPressed = false
    private var rawChangedAt = MonotonicInstant.zero
    private var lockoutUntil: MonotonicInstant?
    private var pressedAt: MonotonicInstant?
    private var longPressReported = false

    public init(settings: GestureSettings = GestureSettings()) {
        self.settings = settings
    }

    /// Whether the button is (debounced) down.
    public var isPressed: Bool { stablePressed }

    /// The next instant at which `advance(to:)` may produce a gesture.
    public var nextDeadline: MonotonicInstant? {
        var candidates: [MonotonicInstant] = []
        if let lockoutUntil, rawPressed != stablePressed { candidates.append(lockoutUntil) }
        if stablePressed, !longPressReported, let pressedAt { candidates.append(pressedAt + settings.longPress) }
        return candidates.min()
    }

    /// Feeds one raw edge. Deadlines up to and including the edge's instant are handled first.
    public mutating func handle(_ edge: RawButtonEdge) -> [Gesture] {
        var gestures = advance(to: edge.at)
        guard edge.pressed != rawPressed else { return gestures }
        rawPressed = edge.pressed
        rawChangedAt = edge.at
        if let lockoutUntil, edge.at < lockoutUntil { return gestures }
        lockoutUntil = edge.at + settings.debounce
        gestures += accept(pressed: edge.pressed, at: edge.at)
        return gestures
    }

    /// Lets time pass to `now`, producing the gestures whose deadlines fall at or before it.
    public mutating func advance(to now: MonotonicInstant) -> [Gesture] {
        var gestures: [Gesture] = []
        while let deadline = nextDeadline, deadline <= now {
            if stablePressed, !longPressReported, let pressedAt, pressedAt + settings.longPress == deadline {
                longPressReported = true
                gestures.append(.longPress(pressedAt: pressedAt, recognizedAt: deadline))
            } else if let lockout = lockoutUntil, lockout == deadline {
                // The burst settled on the other level: accept it, stamped with the edge that caused it.
                let stamp = rawChangedAt
                let followOn = stamp + settings.debounce
                lockoutUntil = followOn > lockout ? followOn : nil
                gestures += accept(pressed: rawPressed, at: stamp)
            } else {
                break
            }
        }
        return gestures
    }

    private mutating func accept(pressed: Bool, at instant: MonotonicInstant) -> [Gesture] {
        stablePressed = pressed
        if pressed {
            pressedAt = instant
            longPressReported = false
            return []
        }
        defer { pressedAt = nil }
        guard let start = pressedAt, !longPressReported else { return [] }
        if instant - start >= settings.longPress {
            // Released exactly at or after the threshold without a deadline having fired: still a long press.
            longPressReported = true
            return [.longPress(pressedAt: start, recognizedAt: start + settings.longPress)]
        }
        return [.tap(pressedAt: start, releasedAt: instant)]
    }
}
