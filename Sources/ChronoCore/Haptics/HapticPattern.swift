/// The building blocks of every vibration (SPEC §2, haptic vocabulary).
///
/// Two families that never mix, so a cue can never be mistaken for an interval's pattern:
/// - interval patterns H(I) use `short` (80 ms) and `long` (300 ms) pulses, 150 ms apart;
/// - fixed cues use `tick` (40 ms, 60 ms apart: a quick rattle) and `buzz` (600 ms);
/// - Reproduction's presented interval is bounded by two `mark`s (100 ms each), a third family so that
///   the two boundaries of a presented sample are felt as neither a cue nor an interval's pattern.
public enum HapticElement: String, Hashable, Sendable, CaseIterable {
    case short = "S"
    case long = "L"
    case tick = "t"
    case buzz = "B"
    case mark = "M"

    /// How long the motor is on for this element.
    public var onTime: TimeSpan {
        switch self {
        case .short: return .milliseconds(80)
        case .long: return .milliseconds(300)
        case .tick: return .milliseconds(40)
        case .buzz: return .milliseconds(600)
        case .mark: return .milliseconds(100)
        }
    }

    /// The pause after this element when another follows.
    public var gapAfter: TimeSpan {
        self == .tick ? .milliseconds(60) : .milliseconds(150)
    }
}

/// A vibration: a sequence of elements, played from a given instant.
public struct HapticPattern: Hashable, Sendable, CustomStringConvertible {
    public let elements: [HapticElement]

    public init(_ elements: [HapticElement]) {
        self.elements = elements
    }

    /// Parses the notation of `description`, e.g. `S L S` or `SLS`.
    public init?(notation: String) {
        var parsed: [HapticElement] = []
        for character in notation where character != " " && character != "-" {
            guard let element = HapticElement(rawValue: String(character)) else { return nil }
            parsed.append(element)
        }
        guard !parsed.isEmpty else { return nil }
        elements = parsed
    }

    /// Compact notation: `S L S` (short, long, short).
    public var description: String { elements.map(\.rawValue).joined(separator: " ") }

    /// From the first on-edge to the last off-edge.
    public var duration: TimeSpan {
        var total = TimeSpan.zero
        for (position, element) in elements.enumerated() {
            total = total + element.onTime
            if position < elements.count - 1 { total = total + element.gapAfter }
        }
        return total
    }

    /// The longest single stretch the motor is on.
    public var longestOnTime: TimeSpan { elements.map(\.onTime).max() ?? .zero }

    /// Whether this pattern is made of interval-pattern elements only.
    public var isIntervalPattern: Bool { elements.allSatisfy { $0 == .short || $0 == .long } }

    /// The motor edges of this pattern when it starts at `start`.
    public func edges(startingAt start: MonotonicInstant) -> [MotorEdge] {
        var edges: [MotorEdge] = []
        var cursor = start
        for (position, element) in elements.enumerated() {
            edges.append(MotorEdge(on: true, at: cursor))
            cursor = cursor + element.onTime
            edges.append(MotorEdge(on: false, at: cursor))
            if position < elements.count - 1 { cursor = cursor + element.gapAfter }
        }
        return edges
    }
}

/// Switching the motor on or off at an instant.
public struct MotorEdge: Hashable, Sendable {
    public var on: Bool
    public var at: MonotonicInstant

    public init(on: Bool, at: MonotonicInstant) {
        self.on = on
        self.at = at
    }
}
