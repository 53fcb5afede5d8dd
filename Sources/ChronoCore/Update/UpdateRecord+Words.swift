/// What the device says about its last update: `status`, `GET /device`'s `update.line` and the page.
extension UpdateRecord {
    /// One sentence for a person, for the record as it stands while `running` runs.
    public func line(running: ReleaseVersion) -> String {
        switch phase {
        case .installing:
            return "Installing \(toVersion)\(progress.map { ": \($0) %" } ?? ""); no session starts until it is done."
        case .installed:
            return "\(toVersion) is installed; the device restarts into it."
        case .trying:
            return "Starting \(toVersion) for the first time; no session starts until it confirms."
        case .confirmed:
            return "Updated to \(toVersion)."
        case .rolledBack:
            return "The update to \(toVersion) did not start and was rolled back; \(running) is running."
        case .failed:
            return "The update to \(toVersion) failed\(reason.map { ": \($0)" } ?? ""); \(running) is running."
        }
    }

    /// Why a session does not start now (nil: the update does not hold sessions).
    public var sessionRefusal: String? {
        switch phase {
        case .installing, .installed: return "an update to \(toVersion) is installing; the device restarts when it is done."
        case .trying: return "\(toVersion) is starting for the first time; sessions start once it has confirmed itself."
        case .confirmed, .rolledBack, .failed: return nil
        }
    }
}
