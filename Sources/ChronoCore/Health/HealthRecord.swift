/// A metadata value of a health record, with its JSON type.
public enum HealthMetadataValue: Hashable, Sendable {
    case int(Int)
    case double(Double)
    case bool(Bool)
    case string(String)

    public var json: JSONValue {
        switch self {
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        case .bool(let value): return .bool(value)
        case .string(let value): return .string(value)
        }
    }

    /// The text form used in Apple Health's export.xml (`1`/`0` for booleans, as Apple writes them).
    public var exportText: String {
        switch self {
        case .int(let value): return String(value)
        case .double(let value): return JSONValue.numberText(value)
        case .bool(let value): return value ? "1" : "0"
        case .string(let value): return value
        }
    }
}

/// One Mindful Session record of the health log (SPEC §4), the Linux stand-in for a HealthKit sample.
public struct HealthRecord: Hashable, Sendable {
    public static let type = "HKCategoryTypeIdentifierMindfulSession"
    public static let sourceName = "Chronoception"
    /// `chronoception_version`: bumped whenever a metadata key is added or changes meaning.
    public static let schemaVersion = 1
    /// `chronoception_version` of Reproduction's records: 2 adds the mode `reproduction` and its key
    /// `mean_ratio`. The records of the first three modes are unchanged (no key of theirs was added or
    /// changed meaning), so they keep 1 and stay byte for byte what they were.
    public static let reproductionSchemaVersion = 2
    /// `chronoception_version` of a record whose session's results were withheld when it was written
    /// (a study block without feedback): 3 adds `results_withheld` and leaves out every result key.
    public static let withheldSchemaVersion = 3

    public var startDate: WallTime
    public var endDate: WallTime
    /// The board the session ran on (`device`).
    public var device: String
    /// Ordered metadata: the keys of SPEC §4 for the session's mode.
    public var metadata: [(key: String, value: HealthMetadataValue)]
    /// The session's UUID (also `HKMetadataKeySyncIdentifier`).
    public var sessionID: String

    public static func == (lhs: HealthRecord, rhs: HealthRecord) -> Bool { lhs.jsonLine == rhs.jsonLine }
    public func hash(into hasher: inout Hasher) { hasher.combine(jsonLine) }

    public func metadataValue(_ key: String) -> HealthMetadataValue? {
        metadata.first { $0.key == key }?.value
    }

    /// The record as JSON: `type`, `sourceName`, `device`, `startDate`, `endDate` (ISO 8601 with
    /// milliseconds and offset), `metadata` — the names Apple Health's export uses for the same fields.
    public var json: JSONValue {
        .object([
            ("type", .string(Self.type)),
            ("sourceName", .string(Self.sourceName)),
            ("device", .string(device)),
            ("startDate", .string(startDate.iso8601)),
            ("endDate", .string(endDate.iso8601)),
            ("metadata", .object(metadata.map { ($0.key, $0.value.json) })),
        ])
    }

    /// One line of the JSON Lines health log (no trailing newline).
    public var jsonLine: String { json.compactText }
}
