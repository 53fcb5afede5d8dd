import ChronoCore
import GRDB

/// The person's consent decision (`study_consent`): kept when the page's Accept, Decline or Withdraw
/// is taken, read by the daemon's snapshot (`StudyConsent.standing`), sent to the collector in every
/// sync batch (docs/STUDIES.md, "Consent").
extension ChronoStore {
    /// The kept decision, nil before any.
    public func studyConsent() throws(StoreError) -> StudyConsent.Record? {
        let row = try read { db in try Row.fetchOne(db, sql: "SELECT * FROM study_consent") }
        guard let row else { return nil }
        let text: String = row["decision"]
        guard let decision = StudyConsent.Decision(rawValue: text) else {
            throw .invalidValue("The kept consent decision '\(text)' is not accepted, declined or withdrawn; answer the consent again on the device's page.")
        }
        return StudyConsent.Record(decision: decision, decidedUnixNanoseconds: row["decided_unix_ns"], protocolName: row["protocol_name"],
                                   protocolVersion: row["protocol_version"], textDigest: row["text_sha256"])
    }

    /// Where consent stands for the kept assignment (nil: no study assigned).
    public func studyConsentStanding() throws(StoreError) -> StudyConsent.Standing? {
        guard let kept = try studyAssignment() else { return nil }
        return StudyConsent.standing(of: kept.assignment.studyProtocol, record: try studyConsent())
    }

    /// Takes `decision` on the kept assignment's consent at `now`, as `StudyConsent.decide` allows it,
    /// and keeps it (replacing the decision before). Refused with the reason when no study is
    /// assigned or the rule does not allow it now.
    @discardableResult
    public func decideStudyConsent(_ decision: StudyConsent.Decision, nowUnixNanoseconds now: Int64) throws(StoreError) -> StudyConsent.Record {
        guard let kept = try studyAssignment() else {
            throw .invalidValue("No study is assigned to this device, so there is no consent to answer.")
        }
        let record: StudyConsent.Record
        switch StudyConsent.decide(decision, for: kept.assignment.studyProtocol, current: try studyConsent(), atUnixNanoseconds: now) {
        case .success(let decided): record = decided
        case .failure(let refusal): throw .invalidValue(refusal.message)
        }
        try write { db in
            try db.execute(sql: """
                INSERT INTO study_consent (singleton, decision, decided_unix_ns, protocol_name, protocol_version, text_sha256)
                VALUES (1, ?, ?, ?, ?, ?)
                ON CONFLICT (singleton) DO UPDATE SET decision = excluded.decision, decided_unix_ns = excluded.decided_unix_ns,
                    protocol_name = excluded.protocol_name, protocol_version = excluded.protocol_version, text_sha256 = excluded.text_sha256
                """, arguments: [record.decision.rawValue, record.decidedUnixNanoseconds, record.protocolName, record.protocolVersion, record.textDigest])
        }
        return record
    }
}
