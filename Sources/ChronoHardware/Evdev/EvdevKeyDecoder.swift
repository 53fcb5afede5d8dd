/// Turns an input device's events into the button's edges for one key.
///
/// It keeps the key's level and emits an edge only when the level changes, so:
/// - auto-repeat (value 2) is ignored: a held key is a held button, and a long press is exact;
/// - after a SYN_DROPPED (events lost) the state libevdev resynchronises is applied as one level
///   change at the stamp libevdev gives it (the drop's), and nothing when the key ended where it was;
/// - a press or release seen twice in a row (one lost in the drop) does not make a second edge.
/// Pure and synchronous: the driver feeds it what it reads, a test feeds it a written stream.
public struct EvdevKeyDecoder: Sendable, Equatable {
    /// The EV_KEY code that is the button (KEY_SPACE is 57).
    public let keyCode: UInt16
    /// The level after the last event decoded.
    public private(set) var isPressed: Bool
    /// How many times the kernel reported lost events.
    public private(set) var droppedCount: Int = 0
    /// The last other key pressed, so a bring-up check can say which key the device really sends.
    public private(set) var lastOtherKeyPressed: UInt16?

    /// - Parameter initiallyPressed: the key's level when the device was opened (a key held at start
    ///   gives no press edge, as with the GPIO button).
    public init(keyCode: UInt16, initiallyPressed: Bool = false) {
        self.keyCode = keyCode
        self.isPressed = initiallyPressed
    }

    /// The edges in `events`, oldest first.
    public mutating func decode(_ events: [EvdevEvent]) -> [ButtonEdge] {
        var edges: [ButtonEdge] = []
        for event in events {
            switch event.kind {
            case .dropped:
                droppedCount += 1
            case .key(let code, let value) where code == keyCode:
                guard value == 0 || value == 1 else { continue } // 2: auto-repeat
                let pressed = value == 1
                guard pressed != isPressed else { continue }
                isPressed = pressed
                edges.append(ButtonEdge(pressed ? .pressed : .released, at: event.monotonicNanoseconds))
            case .key(let code, let value):
                if value == 1 { lastOtherKeyPressed = code }
            }
        }
        return edges
    }
}
