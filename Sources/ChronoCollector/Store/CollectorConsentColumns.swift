import ChronoCore

/// A device's consent columns (`device.consent_*`, schema version 7) read back into the core's
/// record, for both stores. The columns were written only from a validated decision, all together;
/// a row with any of them missing or unreadable reads as no decision.
public enum CollectorConsentColumns {
    /// Every device's newest consent decision, by device ID (the tidy export's consent columns).
    public static func byDevice(_ store: any CollectorStore) async throws -> [String: StudyConsent.Record] {
        var consents: [String: StudyConsent.Record] = [:]
        for device in try await store.devices() { consents[device.id] = device.consent }
        return consents
    }

    static func record(decision: String?, decided: Int64?, protocolName: String?, version: Int?, digest: String?) -> StudyConsent.Record? {
        guard let decision = decision.flatMap(StudyConsent.Decision.init(rawValue:)), let decided, let protocolName, let version, let digest else { return nil }
        return StudyConsent.Record(decision: decision, decidedUnixNanoseconds: decided, protocolName: protocolName, protocolVersion: version, textDigest: digest)
    }
}
