/// The display rule for durations (SPEC §1): under 60 s as `Ns`, from 60 s as `Nm Ns`; never `90s`.
/// Fractions are rounded to whole seconds, half away from zero, for display only.
public enum DurationText {
    /// Formats a non-negative whole number of seconds.
    public static func format(wholeSeconds: Int) -> String {
        let magnitude = abs(wholeSeconds)
        let sign = wholeSeconds < 0 ? "-" : ""
        if magnitude < 60 { return "\(sign)\(magnitude)s" }
        return "\(sign)\(magnitude / 60)m \(magnitude % 60)s"
    }

    /// Formats a duration in seconds after rounding it to whole seconds.
    public static func format(seconds: Double) -> String {
        format(wholeSeconds: Int(seconds.rounded(.toNearestOrAwayFromZero)))
    }

    /// Formats the magnitude of a signed span (the sign is said in words by the caller).
    public static func format(magnitudeOf span: TimeSpan) -> String {
        format(seconds: abs(span.seconds))
    }
}
