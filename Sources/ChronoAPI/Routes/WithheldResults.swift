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
    ]

    /// The withheld sessions now.
    static func ids(_ state: APIState) async throws -> Set<String> {
        let now = state.nowUnixNanoseconds
        return try await state.withStore { try $0.withheldResultSessionIDs(nowUnixNanoseconds: now) }
    }

    /// A session's JSON as the API shows it: when withheld, every result member (its attempts' too)
    /// `null` and `results_withheld: true`; otherwise as it is.
    static func shown(_ session: JSONValue, withheld: Bool) -> JSONValue {
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
        } + [("results_withheld", .bool(true))])
    }

    /// The same for the `session_id` the JSON names.
    static func shown(_ session: JSONValue, in withheld: Set<String>) -> JSONValue {
        guard case .string(let id)? = session["session_id"] else { return session }
        return shown(session, withheld: withheld.contains(id))
    }
}
