import ChronoCore

/// A vibration the loop is to play: when it is due, and its pulses relative to that instant.
///
/// Built from a `HapticPattern` (cues, H(I)) or from raw pulses (the timing benchmark's 1 ms ticks).
/// Two planned vibrations are the same when label, due instant and pulses are: that is how a vibration
/// predicted ahead of its deadline is recognised when the engine really asks for it.
public struct PlannedVibration: Hashable, Sendable {
    /// One stretch of "motor on", relative to `due`.
    public struct Pulse: Hashable, Sendable {
        public var offset: TimeSpan
        public var length: TimeSpan

        public init(offset: TimeSpan, length: TimeSpan) {
            self.offset = offset
            self.length = length
        }
    }

    public var label: VibrationLabel
    /// When the felt vibration should begin.
    public var due: MonotonicInstant
    public var pulses: [Pulse]

    /// When its last pulse ends (`due` for a vibration without pulses).
    public var end: MonotonicInstant {
        pulses.map { due + $0.offset + $0.length }.max() ?? due
    }

    public init(label: VibrationLabel, due: MonotonicInstant, pulses: [Pulse]) {
        self.label = label
        self.due = due
        self.pulses = pulses
    }

    /// The pattern's on/off edges (`HapticPattern.edges(startingAt:)`) as pulses.
    public init(pattern: HapticPattern, label: VibrationLabel, due: MonotonicInstant) {
        var pulses: [Pulse] = []
        var onAt: MonotonicInstant?
        for edge in pattern.edges(startingAt: due) {
            if edge.on {
                onAt = edge.at
            } else if let start = onAt {
                pulses.append(Pulse(offset: start - due, length: edge.at - start))
                onAt = nil
            }
        }
        self.init(label: label, due: due, pulses: pulses)
    }

    /// From the first on-edge to the last off-edge.
    public var duration: TimeSpan {
        pulses.map { $0.offset + $0.length }.max() ?? .zero
    }
}
