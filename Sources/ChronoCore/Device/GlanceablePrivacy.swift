/// The privacy switch for glanceable surfaces (the `glanceable-privacy` setting; the original's "hide
/// sensitive text on the lock screen"). A state file is world-readable on tmpfs and a status bar is on
/// a screen anyone passing sees, so with the switch on they show what the device is doing — state,
/// mode, interval, attempt and boundary counts, the health log's and the sound's status — and nothing
/// of how well the person did: no feedback (its signed error and zone), no Time Acuity score.
///
/// The one place that decides what is hidden: the state file's writer applies it to the file's JSON,
/// and `status --format waybar` to what it read (the file, or the store's last session) before drawing.
public enum GlanceablePrivacy {
    /// The state file's member saying whether the switch was on when the file was written, so a reader
    /// tells a withheld score from a session that has none.
    public static let member = "glanceable_privacy"
    /// Top-level members that carry a result: the last attempt's feedback (`+1.2s late · good`).
    public static let withheldMembers: Set<String> = ["last_feedback"]
    /// The members of `last_session` that carry a result: its Time Acuity score.
    public static let withheldLastSessionMembers: Set<String> = ["time_acuity_score"]

    /// A state file's JSON as a glanceable surface may show it: unchanged when `hidden` is false; else
    /// every withheld member is null (kept, so the keys are the same either way). Any other value is
    /// returned as it is.
    public static func shown(_ status: JSONValue, hidden: Bool) -> JSONValue {
        guard hidden, case .object(let members) = status else { return status }
        return .object(members.map { key, value in
            if withheldMembers.contains(key) { return (key, .null) }
            if key == "last_session", case .object(let inner) = value {
                return (key, .object(inner.map { withheldLastSessionMembers.contains($0.0) ? ($0.0, .null) : $0 }))
            }
            return (key, value)
        })
    }

    /// The same for a state file read as a dictionary (a reader that parsed it with Foundation):
    /// withheld members are removed.
    public static func shown(_ status: [String: Any], hidden: Bool) -> [String: Any] {
        guard hidden else { return status }
        var result = status
        for key in withheldMembers { result.removeValue(forKey: key) }
        if var last = result["last_session"] as? [String: Any] {
            for key in withheldLastSessionMembers { last.removeValue(forKey: key) }
            result["last_session"] = last
        }
        return result
    }
}
