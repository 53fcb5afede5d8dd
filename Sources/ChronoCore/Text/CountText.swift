/// A count with its noun, the noun singular for exactly one: "1 session", "0 sessions", "3 sessions".
/// One rule for every message that counts, so none says "sent 1 sessions".
public enum CountText {
    /// `count` and `singular`, or `plural` (default `singular` + "s") for any count but 1.
    public static func of(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
    }
}
