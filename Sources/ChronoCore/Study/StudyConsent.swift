/// Consent before a study (SPEC §11, docs/STUDIES.md "Consent"): the one rule that says, from the
/// assigned protocol and the decision the device keeps, whether the person still has to be asked,
/// has accepted, has declined or has withdrawn. Pure: the device's store keeps the decision, the
/// daemon, the API and the page ask this rule, and the collector receives the decision by sync.
///
/// A decision is bound to the consent text it answered, by the SHA-256 digest of that text, not only
/// to the protocol's version: a new version whose consent text changed asks again, and a new version
/// with the same text keeps the answer given.
public enum StudyConsent {
    /// What the person answered.
    public enum Decision: String, Hashable, Sendable, CaseIterable {
        /// The person read the text and agreed: study sessions may run.
        case accepted
        /// The person did not agree: the study is stopped on this device.
        case declined
        /// The person agreed and later took it back (Settings): the study is stopped on this device.
        case withdrawn
    }

    /// A decision as the device keeps and syncs it: what, when (wall clock), and the protocol and
    /// consent text it answered.
    public struct Record: Hashable, Sendable {
        public var decision: Decision
        public var decidedUnixNanoseconds: Int64
        public var protocolName: String
        public var protocolVersion: Int
        /// `StudyConsent.textDigest` of the consent text the person answered.
        public var textDigest: String

        public init(decision: Decision, decidedUnixNanoseconds: Int64, protocolName: String, protocolVersion: Int, textDigest: String) {
            self.decision = decision
            self.decidedUnixNanoseconds = decidedUnixNanoseconds
            self.protocolName = protocolName
            self.protocolVersion = protocolVersion
            self.textDigest = textDigest
        }
    }

    /// Where consent stands for the assigned protocol.
    public enum Standing: String, Hashable, Sendable, CaseIterable {
        /// The protocol has no consent text: nothing to ask.
        case notNeeded = "not_needed"
        /// The person has not answered this protocol's consent text yet: no study session starts.
        case needed
        case accepted
        case declined
        case withdrawn

        /// Whether the study's planned sessions may start.
        public var allowsStudySessions: Bool { self == .notNeeded || self == .accepted }

        /// Whether the person stopped the study on this device (declined or withdrew).
        public var stopsStudy: Bool { self == .declined || self == .withdrawn }
    }

    /// The lowercase hexadecimal SHA-256 of the text's UTF-8 bytes (64 characters).
    public static func textDigest(_ text: String) -> String {
        SHA256.digest(Array(text.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Where consent stands for a protocol named `protocolName` with `consentText` (nil: none), given
    /// the kept decision. A decision answers this protocol when it names the same protocol and the
    /// digest of the same text; any other decision (another protocol, a changed text) asks again.
    public static func standing(protocolName: String, consentText: String?, record: Record?) -> Standing {
        guard let consentText else { return .notNeeded }
        guard let record, record.protocolName == protocolName, record.textDigest == textDigest(consentText) else { return .needed }
        switch record.decision {
        case .accepted: return .accepted
        case .declined: return .declined
        case .withdrawn: return .withdrawn
        }
    }

    /// Where consent stands for `studyProtocol` given the kept decision.
    public static func standing(of studyProtocol: StudyProtocol, record: Record?) -> Standing {
        standing(protocolName: studyProtocol.name, consentText: studyProtocol.consent, record: record)
    }

    /// Why `decision` cannot be taken now (nil: it can). Accept and decline answer a consent that is
    /// needed; withdraw takes back one that was accepted.
    public static func refusal(of decision: Decision, standing: Standing) -> String? {
        switch (decision, standing) {
        case (_, .notNeeded):
            return "This study asks for no consent: its protocol has no consent text."
        case (.accepted, .needed), (.declined, .needed), (.withdrawn, .accepted):
            return nil
        case (.withdrawn, .needed):
            return "Consent has not been given yet: accept or decline it instead."
        case (.withdrawn, _):
            return "Consent is already \(standing.rawValue): there is nothing to withdraw."
        case (_, _):
            return "Consent was already answered (\(standing.rawValue)); withdraw it in Settings to stop the study."
        }
    }

    /// The record of `decision` for `studyProtocol` at `now`, when the rule allows it (else the reason).
    public static func decide(_ decision: Decision, for studyProtocol: StudyProtocol, current record: Record?,
                              atUnixNanoseconds now: Int64) -> Result<Record, ConsentRefusal> {
        let standing = standing(of: studyProtocol, record: record)
        if let reason = refusal(of: decision, standing: standing) { return .failure(ConsentRefusal(message: reason, standing: standing)) }
        return .success(Record(decision: decision, decidedUnixNanoseconds: now, protocolName: studyProtocol.name,
                               protocolVersion: studyProtocol.version, textDigest: textDigest(studyProtocol.consent ?? "")))
    }

    /// Why a consent decision was not taken, in a sentence, with the standing it met.
    public struct ConsentRefusal: Error, Hashable, Sendable {
        public var message: String
        public var standing: Standing
    }
}
