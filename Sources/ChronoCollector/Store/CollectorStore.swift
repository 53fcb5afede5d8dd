import ChronoSync

/// The collector's store: devices, enrolment codes, device keys (by SHA-256), sessions with their
/// attempts and boundaries, per-device stamped preferences and readers' keys. Two implementations
/// with the same schema meaning and their own migrations: `SQLiteCollectorStore` (the embedded
/// default) and `PostgresCollectorStore` (a study's server). The contract suite in
/// Tests/ChronoCollectorTests runs against both.
///
/// Every method throws `CollectorError` only. Ingest is one transaction per batch.
public protocol CollectorStore: Sendable {
    /// Where the data is, for messages (a path, or a URL without its password).
    var location: String { get }

    /// This collector's UUID, made with its schema.
    func collectorID() async throws -> String

    /// Stores a new one-time code for a device to be called `name`; refuses a name in use by an
    /// enrolled device that is not revoked, or by a pending code that has not expired.
    func addEnrolment(_ enrolment: PendingEnrolment, nowUnixNanoseconds: Int64) async throws
    /// Spends a code: one transaction that checks it is unused and unexpired, marks it used, and
    /// enrols the device (or re-enrols a revoked one, with a new key, keeping its sessions). Throws
    /// `codeRefused` for a bad code, and `deviceEnrolled` — the code unspent, the device untouched —
    /// when the ID is enrolled and not revoked: one row per physical device.
    func redeemEnrolment(codeSHA256: String, request: EnrolmentRequest, keySHA256: String, nowUnixNanoseconds: Int64) async throws -> CollectorDevice
    /// The device a key belongs to (revoked devices too; the caller refuses those).
    func device(keySHA256: String) async throws -> CollectorDevice?

    /// Stores a validated batch for `deviceID` in one transaction: new sessions inserted, known ones
    /// counted as duplicates, preferences merged, last-seen updated. The device must exist and not be
    /// revoked (checked again inside the transaction).
    func ingest(_ plan: IngestPlan, deviceID: String, nowUnixNanoseconds: Int64) async throws -> SyncReceipt

    /// Every enrolled device (revoked ones too), by name.
    func devices() async throws -> [CollectorDevice]
    /// Revokes the non-revoked device called `name`.
    func revokeDevice(named name: String, nowUnixNanoseconds: Int64) async throws -> CollectorDevice
    func sessions(_ query: CollectorSessionQuery) async throws -> [CollectorSession]

    /// A device's stamped preferences, by key.
    func preferences(deviceNamed name: String) async throws -> (device: CollectorDevice, preferences: [StampedPreference])
    /// Sets a preference for a device from the collector: validated by the device's own rules
    /// (`SettingKey.canonicalValue`), stamped with the next Lamport clock, origin collector.
    func setPreference(deviceNamed name: String, key: SettingKey, value: String) async throws -> StampedPreference

    func addReaderKey(_ key: ReaderKey, keySHA256: String) async throws
    func readerKey(keySHA256: String) async throws -> ReaderKey?
    func readerKeys() async throws -> [ReaderKey]
    /// Deletes the reader key whose ID is `idOrName`, else the one key called `idOrName`, so it is
    /// refused (`key_unknown`) from then on. Throws `invalidValue` when nothing matches, or when the
    /// name is on several keys (revoke one by its ID).
    func revokeReaderKey(_ idOrName: String) async throws -> ReaderKey

    /// Keeps a validated protocol's document under its (name, version), unless that pair is held: the
    /// same fingerprint is `unchanged`, another is a `conflict` (nothing changes; a changed protocol is
    /// a new version). docs/STUDIES.md.
    func loadStudyProtocol(name: String, version: Int, document: String, fingerprint: String, nowUnixNanoseconds: Int64) async throws -> StudyProtocolLoad
    /// Every loaded protocol, by name then version.
    func studyProtocols() async throws -> [StoredStudyProtocol]
    /// Assigns a loaded protocol (the highest version when none is given) to a participant, with the
    /// protocol's next participant index; restores an earlier assignment of the same protocol (index,
    /// seed and start as they were). Throws `invalidValue` for an unknown protocol, or a participant
    /// who follows another protocol now.
    func assignStudy(_ request: StudyAssignRequest, nowUnixNanoseconds: Int64) async throws -> (record: StudyAssignmentRecord, change: StudyAssignChange)
    /// Ends a participant's active assignment (kept, marked unassigned; its sessions stay).
    func unassignStudy(participant: String, nowUnixNanoseconds: Int64) async throws -> StudyAssignmentRecord
    /// Every active assignment with its standing at `now`, by participant: the plan from the stored
    /// document, completions from the sessions stored with the assignment's tag.
    func studyStatus(nowUnixNanoseconds: Int64) async throws -> [StudyStatusRow]
    /// The active assignment of the device's participant, as the sync reply carries it; nil when the
    /// device has no participant or the participant none.
    func studyAssignment(deviceID: String) async throws -> SyncedStudyAssignment?

    /// Releases connections; the store is not used afterwards.
    func close() async
}
