/// The zones of the last attempts as one compact strip, oldest first: `G` green, `Y` yellow, `R` red.
/// Letters rather than colours so that the strip reads the same on any terminal, in a log or a screen
/// reader; the companion may colour them.
public enum ZoneStrip {
    /// How many attempts the strip shows (and Time Acuity per interval is computed over).
    public static let length = 20

    public static func render(_ zones: [ErrorZone]) -> String {
        String(zones.map(letter))
    }

    public static func letter(_ zone: ErrorZone) -> Character {
        switch zone {
        case .green: return "G"
        case .yellow: return "Y"
        case .red: return "R"
        }
    }
}
