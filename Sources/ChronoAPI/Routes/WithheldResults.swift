import ChronoCore
import ChronoStore

/// A study block that withholds feedback keeps its sessions' results off every surface until the block
/// ends, or for good (docs/STUDIES.md, "On the device"): the API shows such a session's mode, interval,
/// counts and times, and `null` for every member that carries how well the person did, with
/// `results_withheld: true` (the member is there only then, so every other answer stays as it was). Which sessions are withheld is the store's answer
/// (`withheldResultSessionIDs`, decided by the core's `StudyStanding`); this only applies it.
enum WithheldResults {
    /// Members that carry a result, in a session (list item, detail, last session) or an attempt.
    static let members: Set<String> = [
        "time_acuity_score", "mean_abs_error_seconds", "mean_signed_error_seconds", "mean_ratio",
        "elapsed_seconds", "error_seconds", "percent_error", "zone", "feedback", "ratio", "reproduced_seconds",
        // The session record holds the press marks, from which every result follows.
        "record",
    ]

    /// The sessions withheld now, and those of them whose block shows them when it ends (the
    /// protocol's `reveal_at_block_end`, `StudyPlan.revealsAtBlockEnd`); the others are never shown
    /// on the device. Pages word the withholding by it ("when the block ends" or "never on this device").
    struct Withheld: Sendable {
        var ids: Set<String> = []
        var revealedAtBlockEnd: Set<String> = []

        func contains(_ id: String) -> Bool { ids.contains(id) }
    }

    /// The withheld sessions now. Only withheld sessions are read again for their study tag.
    static func ids(_ state: APIState) async throws -> Withheld {
        let now = state.nowUnixNanoseconds
        return try await state.withStore { store in
            let ids = try store.withheldResultSessionIDs(nowUnixNanoseconds: now)
            guard !ids.isEmpty, let plan = try store.studyAssignment()?.assignment.plan else { return Withheld(ids: ids) }
            var revealed: Set<String> = []
            for id in ids {
                if let tag = try store.session(id: id).study, plan.revealsAtBlockEnd(tag) { revealed.insert(id) }
            }
            return Withheld(ids: ids, revealedAtBlockEnd: revealed)
        }
    }

    /// A session's JSON as the API shows it: when withheld, every result member (its attempts' too)
    /// `null`, `results_withheld: true` and `results_revealed_at_block_end` (whether the block's end
    /// shows them); otherwise as it is.
    static func shown(_ session: JSONValue, withheld: Bool, revealedAtBlockEnd: Bool = false) -> JSONValue {
        guard withheld, case .object(let members) = session else { return session }
        return .object(members.map { key, value in
            if Self.members.contains(key) { return (key, .null) }
            if key == "attempts", case .array(let attempts) = value {
                return (key, .array(attempts.map { attempt in
                    guard case .object(let inner) = attempt else { return attempt }
                    return .object(inner.map { Self.members.contains($0.0) ? ($0.0, .null) : $0 })
                }))
            }
            return (key, value)
        } + [("results_withheld", .bool(true)), ("results_revealed_at_block_end", .bool(revealedAtBlockEnd))])
    }

    /// The same for the `session_id` the JSON names.
    static func shown(_ session: JSONValue, in withheld: Withheld) -> JSONValue {
        guard case .string(let id)? = session["session_id"] else { return session }
        return shown(session, withheld: withheld.contains(id), revealedAtBlockEnd: withheld.revealedAtBlockEnd.contains(id))
    }
}
