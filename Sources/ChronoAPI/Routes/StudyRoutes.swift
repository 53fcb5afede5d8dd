import ChronoCore
import ChronoStore
import Hummingbird

/// The assigned study's consent (docs/STUDIES.md, "Consent"): what the page shows before the study's
/// first session (the protocol's name, description and consent text, and where consent stands), and
/// the person's answer — accept or decline while it is needed, withdraw later from Settings. The
/// decision is kept in the store (`decideStudyConsent`, by the core's `StudyConsent` rule); the
/// daemon's snapshot follows the store, and the next sync takes it to the collector.
enum StudyRoutes {
    static func add(to group: RouterGroup<APIRequestContext>, _ state: APIState) {
        group.get("study/consent") { _, _ in
            JSONResponse.ok(try await state.withStore { try consentJSON($0) })
        }
        group.post("study/consent") { request, context in
            let decision = try decisionFromBody(try await JSONBody.read(request, context: context))
            let now = state.nowUnixNanoseconds
            let answer: Result<JSONValue, APIError> = try await state.withStore { store in
                guard let kept = try store.studyAssignment() else {
                    return .failure(APIError(.conflict, "no_study", "No study is assigned to this device, so there is no consent to answer."))
                }
                if case .failure(let refusal) = StudyConsent.decide(decision, for: kept.assignment.studyProtocol, current: try store.studyConsent(),
                                                                    atUnixNanoseconds: now) {
                    return .failure(APIError(.conflict, "consent_not_open", refusal.message))
                }
                try store.decideStudyConsent(decision, nowUnixNanoseconds: now)
                return .success(try consentJSON(store))
            }
            let answered = try answer.get()
            // The page reads GET /device next: the device's state must already carry the decision.
            await state.device.takeStoreChanges()
            return JSONResponse.ok(answered)
        }
    }

    /// `{"decision": "accept"}`, `"decline"` or `"withdraw"`: the one answer a request may carry.
    static func decisionFromBody(_ body: JSONBody) throws(APIError) -> StudyConsent.Decision {
        try body.only(["decision"])
        switch try body.string("decision") {
        case "accept"?: return .accepted
        case "decline"?: return .declined
        case "withdraw"?: return .withdrawn
        case let other:
            let given = other.map { "'\($0.prefix(32))'" } ?? "nothing"
            throw APIError.badRequest("\"decision\" must be \"accept\", \"decline\" or \"withdraw\"; got \(given).")
        }
    }

    /// `{"study": null}` without an assignment; else the protocol's name, version, description and
    /// consent text, where consent stands, and the kept decision when it answers this protocol's text.
    static func consentJSON(_ store: ChronoStore) throws(StoreError) -> JSONValue {
        guard let kept = try store.studyAssignment() else { return .object([("study", .null)]) }
        let studyProtocol = kept.assignment.studyProtocol
        let record = try store.studyConsent()
        let standing = StudyConsent.standing(of: studyProtocol, record: record)
        let answered = standing == .needed || standing == .notNeeded ? nil : record
        return .object([("study", .object([
            ("protocol", .string(studyProtocol.name)),
            ("version", .int(studyProtocol.version)),
            ("description", studyProtocol.description.map { .string($0) } ?? .null),
            ("consent_text", studyProtocol.consent.map { .string($0) } ?? .null),
            ("consent", .string(standing.rawValue)),
            ("decision", answered.map { decision in
                .object([
                    ("decision", .string(decision.decision.rawValue)),
                    ("decided_at", .string(WallTime(unixNanoseconds: decision.decidedUnixNanoseconds,
                                                    utcOffsetSeconds: LocalTimeZone.utcOffsetSeconds(atUnixSeconds: decision.decidedUnixNanoseconds / 1_000_000_000)).iso8601)),
                    ("version", .int(decision.protocolVersion)),
                ])
            } ?? .null),
        ]))])
    }
}
