/// The record's file form: one JSON object, members in a fixed order, and its one validator.
extension UpdateRecord {
    /// The name of the file beside the store (the daemon's data-directory watcher sees it: it starts
    /// with `chronoception`).
    public static let fileName = "chronoception-update.json"

    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("format", .int(Self.formatVersion)),
            ("phase", .string(phase.rawValue)),
            ("from_version", .string(fromVersion.description)),
            ("to_version", .string(toVersion.description)),
            ("from_slot", .string(fromSlot.rawValue)),
            ("to_slot", .string(toSlot.rawValue)),
            ("started", .string(started.iso8601)),
        ]
        if let finished { members.append(("finished", .string(finished.iso8601))) }
        if let progress { members.append(("progress", .int(progress))) }
        if let reason { members.append(("reason", .string(reason))) }
        return .object(members)
    }

    /// The text of the file: the JSON object and a newline.
    public var fileText: String { json.prettyText + "\n" }

    /// Why a file's text is not a record, in words that name the file's fault.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The record a file's text holds, or a `Refusal`: the file is at most 4 KiB of one JSON object of
    /// format 1, with every member known, of its type and in range (`to_slot` the other slot, `progress`
    /// 0–100 and only while installing, a `reason` only when failed or rolled back).
    public init(fileText text: String) throws(Refusal) {
        func refuse(_ words: String) -> Refusal { Refusal(description: "\(Self.fileName): \(words)") }
        guard text.utf8.count <= 4096 else { throw refuse("longer than 4 KiB") }
        guard let value = JSONValue(parsing: text), case .object(let members) = value else { throw refuse("not a JSON object") }
        let known: Set<String> = ["format", "phase", "from_version", "to_version", "from_slot", "to_slot", "started", "finished", "progress", "reason"]
        if let stranger = members.first(where: { !known.contains($0.0) }) { throw refuse("unknown member \(stranger.0.debugDescription)") }
        guard Set(members.map(\.0)).count == members.count else { throw refuse("a member is given twice") }
        func string(_ key: String) throws(Refusal) -> String? {
            guard let member = value[key] else { return nil }
            guard case .string(let text) = member else { throw refuse("\(key) is not a string") }
            return text
        }
        func required(_ key: String) throws(Refusal) -> String {
            guard let text = try string(key) else { throw refuse("\(key) is missing") }
            return text
        }
        guard case .int(let format)? = value["format"], format == Int64(Self.formatVersion) else { throw refuse("format is not \(Self.formatVersion)") }
        guard let phase = Phase(rawValue: try required("phase")) else { throw refuse("phase is not one of \(Phase.allCases.map(\.rawValue).joined(separator: ", "))") }
        guard let from = ReleaseVersion(try required("from_version")) else { throw refuse("from_version is not a version") }
        guard let to = ReleaseVersion(try required("to_version")) else { throw refuse("to_version is not a version") }
        guard let fromSlot = BootSlot(rawValue: try required("from_slot")) else { throw refuse("from_slot is not A or B") }
        guard try required("to_slot") == fromSlot.other.rawValue else { throw refuse("to_slot is not the other slot than from_slot") }
        guard let started = WallTime(parsing: try required("started")) else { throw refuse("started is not a time") }
        var finished: WallTime?
        if let text = try string("finished") {
            guard let time = WallTime(parsing: text), time >= started else { throw refuse("finished is not a time after started") }
            finished = time
        }
        var progress: Int?
        if let member = value["progress"] {
            guard case .int(let number) = member, (0...100).contains(number), phase == .installing else {
                throw refuse("progress must be 0 to 100, and only while installing")
            }
            progress = Int(number)
        }
        let reason = try string("reason")
        if let reason {
            guard phase == .failed || phase == .rolledBack, reason.count <= Self.reasonLimit, reason == Self.keepable(reason) else {
                throw refuse("reason must be one safe line of at most \(Self.reasonLimit) characters, and only when failed or rolled back")
            }
        }
        self.init(phase: phase, fromVersion: from, toVersion: to, fromSlot: fromSlot, started: started,
                  finished: finished, progress: progress, reason: reason)
    }
}
