/// The battery as `status`, the state file, `GET /device`, the page and the status bar show it: its
/// level, whether it charges, which of the rules' levels it is at and, at or below the stop level, the
/// reason no session starts. Absent everywhere on a board without a battery.
public struct BatteryStatus: Hashable, Sendable {
    /// Which threshold the level has reached (`normal` also while on external power).
    public enum Level: String, Hashable, Sendable, CaseIterable {
        case normal
        case low
        case stop
        case critical
    }

    public var percent: Int
    public var charge: BatteryReading.Charge
    public var level: Level
    /// Why no session starts (the stop level reached while discharging); nil otherwise.
    public var reason: String?

    public init(percent: Int, charge: BatteryReading.Charge, level: Level, reason: String? = nil) {
        self.percent = percent
        self.charge = charge
        self.level = level
        self.reason = reason
    }

    /// `battery 12 % (discharging, low)` — the one-line form of the text surfaces.
    public var line: String {
        "battery \(percent) % (\(charge.rawValue)\(level == .normal ? "" : ", \(level.rawValue)"))"
    }
}

extension BatteryStatus {
    /// The state file's and the API's `battery` member.
    public var json: JSONValue {
        .object([
            ("percent", .int(percent)),
            ("charge", .string(charge.rawValue)),
            ("level", .string(level.rawValue)),
            ("reason", reason.map { .string($0) } ?? .null),
        ])
    }
}
