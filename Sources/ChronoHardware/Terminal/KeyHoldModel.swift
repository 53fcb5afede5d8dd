/// Turns keystrokes from a terminal into button edges (pure: instants come in as values).
///
/// A terminal reports key presses only — never releases — and a held key arrives as a stream of
/// repeats: the first after the keyboard's auto-repeat delay (250 ms on the Linux console, 500–660 ms
/// in X and Wayland desktops by default), then one every 1/rate (25–30 per second: 33–40 ms). So:
/// - A press key arriving while the key is up is a **press**, stamped with its arrival instant: that
///   is the mark, and it is exact whatever happens next.
/// - The same key arriving again while it is held is a **repeat**, not a second press: the key is still
///   down. Before any repeat has been seen it counts as one if it comes within `firstRepeatWindow`
///   (which must exceed the keyboard's repeat delay); after that, within `repeatWindow` (which must
///   exceed the repeat period).
/// - When that window passes without a keystroke, the key has been let go: a **release** is produced,
///   stamped with the instant the window ended — the first moment the release is known. Stamping it
///   earlier would put it before deadlines the loop has already handled.
///
/// Consequences, documented in docs/RUNTIME.md: holding space for the long-press time (1.5 s) is a
/// long press, recognised at press + 1.5 s as on a real button; a tap is recognised `firstRepeatWindow`
/// after it (the mark is still the keystroke), so feedback on the desktop comes about 0.7 s after the
/// tap; a hold counts as long once held for the long-press time minus `repeatWindow`; two taps of the
/// same key closer together than `firstRepeatWindow` are one press. A different press key while one is
/// held releases the first and presses again.
public struct KeyHoldModel: Sendable, Equatable {
    /// The longest a key may take to send its first repeat and still count as held.
    public var firstRepeatWindow: Int64
    /// The longest gap between later repeats of a held key.
    public var repeatWindow: Int64

    public static let defaultFirstRepeatWindowNanoseconds: Int64 = 700_000_000
    public static let defaultRepeatWindowNanoseconds: Int64 = 150_000_000

    private var heldKey: UInt8?
    private var repeating = false
    private var lastKeystroke: Int64 = 0

    public init(firstRepeatWindow: Int64 = defaultFirstRepeatWindowNanoseconds,
                repeatWindow: Int64 = defaultRepeatWindowNanoseconds) {
        self.firstRepeatWindow = firstRepeatWindow
        self.repeatWindow = repeatWindow
    }

    /// Whether a press key is held now.
    public var isHeld: Bool { heldKey != nil }

    /// When the held key counts as released if no keystroke comes first; nil when no key is held.
    public var releaseDeadline: Int64? {
        guard heldKey != nil else { return nil }
        return lastKeystroke + (repeating ? repeatWindow : firstRepeatWindow)
    }

    /// A press key arrived at `instant`.
    public mutating func keystroke(_ key: UInt8, at instant: Int64) -> [ButtonEdge] {
        var edges = advance(to: instant)
        if let held = heldKey {
            if held == key {
                repeating = true
                lastKeystroke = instant
                return edges
            }
            edges.append(ButtonEdge(.released, at: instant))
        }
        heldKey = key
        repeating = false
        lastKeystroke = instant
        edges.append(ButtonEdge(.pressed, at: instant))
        return edges
    }

    /// Time has reached `instant`: a held key whose window has passed is released.
    public mutating func advance(to instant: Int64) -> [ButtonEdge] {
        guard let deadline = releaseDeadline, deadline <= instant else { return [] }
        heldKey = nil
        repeating = false
        return [ButtonEdge(.released, at: deadline)]
    }
}
