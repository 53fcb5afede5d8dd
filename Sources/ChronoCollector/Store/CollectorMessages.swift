/// Sentences both stores say the same way.
enum CollectorMessages {
    static func unknownDevice(_ name: String, enrolled: [String]) -> String {
        let known = enrolled.isEmpty ? "no device is enrolled yet" : "enrolled: " + enrolled.joined(separator: ", ")
        return "No enrolled device is called '\(name)' (\(known)). `chronoception collector devices` lists them."
    }

    static func revoked(_ name: String) -> String {
        "This device's key was revoked on the collector (device '\(name)'). Enrol it again with a new code: `chronoception collector enrol \(name)` on the collector, then `chronoception sync add URL --code CODE` here."
    }
}
