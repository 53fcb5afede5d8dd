import ChronoCore

/// The person's consent decision as a batch carries it (`SyncBatch.consent`, docs/SYNC.md): the newest
/// decision the device keeps (`StudyConsent.Record`), sent with every batch so the collector always
/// holds the latest. Absent before any decision, and from devices older than consent; a collector
/// older than consent ignores it (unknown keys are not read).
public struct SyncedConsent: Codable, Hashable, Sendable {
    /// `accepted`, `declined` or `withdrawn`; text on the wire so that a value this build does not
    /// know is refused with its name rather than as undecodable JSON.
    public var decision: String
    public var decidedUnixNanoseconds: Int64
    public var protocolName: String
    public var protocolVersion: Int
    /// SHA-256 of the consent text answered, 64 lowercase hex digits (`StudyConsent.textDigest`).
    public var textSHA256: String

    public init(decision: String, decidedUnixNanoseconds: Int64, protocolName: String, protocolVersion: Int, textSHA256: String) {
        self.decision = decision
        self.decidedUnixNanoseconds = decidedUnixNanoseconds
        self.protocolName = protocolName
        self.protocolVersion = protocolVersion
        self.textSHA256 = textSHA256
    }

    /// The wire form of a kept decision.
    public init(_ record: StudyConsent.Record) {
        self.init(decision: record.decision.rawValue, decidedUnixNanoseconds: record.decidedUnixNanoseconds, protocolName: record.protocolName,
                  protocolVersion: record.protocolVersion, textSHA256: record.textDigest)
    }

    /// The decision checked, the one validator of a decision that came from a device: a known
    /// decision, a wall-clock time in range, the protocol's name and version as a protocol's, a digest
    /// of SHA-256's form. The error is a sentence naming the field (the collector refuses the batch).
    public func validated() throws(SyncConsentError) -> StudyConsent.Record {
        guard let known = StudyConsent.Decision(rawValue: decision) else {
            throw SyncConsentError(message: "consent.decision '\(TerminalSafeText.sanitized(decision, keepNewlines: false).prefix(32))' is not accepted, declined or withdrawn")
        }
        guard TimeLimits.isAcceptedWallClock(unixNanoseconds: decidedUnixNanoseconds) else {
            throw SyncConsentError(message: "consent.decided_unix_ns \(decidedUnixNanoseconds) is outside the years 1970–2099")
        }
        if let problem = StudyNames.problem(protocolName, what: "consent.protocol_name") { throw SyncConsentError(message: problem) }
        guard StudyLimits.versions.contains(protocolVersion) else {
            throw SyncConsentError(message: "consent.protocol_version \(protocolVersion) is outside \(StudyLimits.versions.lowerBound)…\(StudyLimits.versions.upperBound)")
        }
        guard textSHA256.utf8.count == 64, textSHA256.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw SyncConsentError(message: "consent.text_sha256 is not 64 lowercase hexadecimal digits")
        }
        return StudyConsent.Record(decision: known, decidedUnixNanoseconds: decidedUnixNanoseconds, protocolName: protocolName,
                                   protocolVersion: protocolVersion, textDigest: textSHA256)
    }

    enum CodingKeys: String, CodingKey {
        case decision
        case decidedUnixNanoseconds = "decided_unix_ns"
        case protocolName = "protocol_name"
        case protocolVersion = "protocol_version"
        case textSHA256 = "text_sha256"
    }
}

/// Why a collector refuses the consent decision a batch carries.
public struct SyncConsentError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
