/// What a vibration is for, as timelines, logs and the runtime name it. A contract between the engine
/// and its runners (the runtime keeps the instant a Passive boundary's pattern really fired), so a
/// type rather than a loose string: a change of spelling cannot silently break the match.
public struct VibrationLabel: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The label as written in timelines (`replay`'s `cue`, the motor log).
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    public init(stringLiteral text: String) {
        self.text = text
    }

    public var description: String { text }

    /// A Passive boundary: the interval's own pattern H(I), played at `start + k × interval`.
    public static let passiveBoundary = VibrationLabel("interval")

    /// Reproduction: the mark that begins the presented interval (`HapticCue.presentationMark`).
    public static let presentedStart = VibrationLabel("presented-start")

    /// Reproduction: the mark that ends the presented interval.
    public static let presentedEnd = VibrationLabel("presented-end")

    /// A fixed cue (`ready`, `session-done`, …).
    public static func cue(_ cue: HapticCue) -> VibrationLabel { VibrationLabel(cue.name) }

    /// A preset offered in the idle menu, announced by its H(I).
    public static func preset(_ interval: TrainingInterval) -> VibrationLabel { VibrationLabel("preset \(interval)") }
}
