extension StudyProtocol {
    /// The protocol's meaning as JSON in one fixed form: every field written, defaults filled in,
    /// intervals in whole seconds, keys in a fixed order. Two documents that differ only in spacing,
    /// key order or spelled-out defaults have the same canonical form; the collector compares it to
    /// decide whether a (name, version) it already holds is being loaded again unchanged. It is itself a
    /// valid document that reads back as the same protocol.
    public var canonicalJSON: JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(name)), ("version", .int(version))]
        if let description { members.append(("description", .string(description))) }
        if let consent { members.append(("consent", .string(consent))) }
        members.append(("schedule", .object([
            ("sessions_per_day", .int(schedule.sessionsPerDay)), ("days", .int(schedule.days)),
            ("minimum_gap_minutes", .int(schedule.minimumGapMinutes)),
        ])))
        members.append(("blocks", .array(blocks.map { block in
            var fields: [(String, JSONValue)] = [
                ("name", .string(block.name)), ("condition", .string(block.condition)), ("mode", .string(block.mode.rawValue)),
                ("sessions", .int(block.sessions)), ("intervals", .array(block.intervals.map { .int($0.seconds) })),
                ("order", .string(block.order.rawValue)), (block.mode.usesAttempts ? "attempts" : "repetitions", .int(block.count)),
            ]
            if block.mode == .fear { fields.append(("fear_threshold", .double(block.fearThreshold))) }
            fields.append(("feedback", .string(block.feedback.rawValue)))
            // Only where the document may say it, so the canonical form reads back as the same protocol.
            if block.feedback == .withheld { fields.append(("reveal_at_block_end", .bool(block.revealAtBlockEnd))) }
            return .object(fields)
        })))
        return .object(members)
    }

    /// SHA-256 of the canonical form's compact text, in hexadecimal: the protocol's fingerprint.
    public var fingerprint: String { SHA256.hex(canonicalJSON.compactText) }
}
