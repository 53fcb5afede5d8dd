/// One push from a device: completed sessions after the device's cursor, and the device's stamped
/// preferences. Sent again unchanged after a failure; the collector's answer is the same for a
/// replay (it ingests by session UUID).
public struct SyncBatch: Codable, Hashable, Sendable {
    public var protocolVersion: Int
    /// The device's own UUID, fixed at enrolment (the key says who sends; this must agree).
    public var deviceID: String
    /// The device's outbox positions this batch covers, `(after, through]`; the device moves its
    /// cursor to `through` only when the collector acknowledges it.
    public var cursorAfter: Int64
    public var cursorThrough: Int64
    public var sessions: [SyncedSession]
    /// Every synced setting with its Lamport stamp (see `PreferenceStamp`); may be empty.
    public var preferences: [StampedPreference]
    /// The person's newest consent decision on the assigned study (docs/STUDIES.md, "Consent"), in
    /// every batch; absent before any, and from older devices (an older collector ignores it).
    public var consent: SyncedConsent?

    public init(protocolVersion: Int = SyncProtocol.version, deviceID: String, cursorAfter: Int64, cursorThrough: Int64,
                sessions: [SyncedSession], preferences: [StampedPreference], consent: SyncedConsent? = nil) {
        self.protocolVersion = protocolVersion
        self.deviceID = deviceID
        self.cursorAfter = cursorAfter
        self.cursorThrough = cursorThrough
        self.sessions = sessions
        self.preferences = preferences
        self.consent = consent
    }

    enum CodingKeys: String, CodingKey {
        case protocolVersion = "protocol"
        case deviceID = "device_id"
        case cursorAfter = "cursor_after"
        case cursorThrough = "cursor_through"
        case sessions, preferences
        case consent
    }
}

/// The collector's answer to a batch.
public struct SyncReceipt: Codable, Hashable, Sendable {
    public var protocolVersion: Int
    /// Sessions new to the collector.
    public var accepted: Int
    /// Sessions it already had (a resend or a replayed batch): not stored twice.
    public var duplicates: Int
    /// Echoes the batch's `cursorThrough`: the device may move its cursor here.
    public var acknowledgedThrough: Int64
    /// The merged preferences for this device (the winners of `PreferenceMerge`); the device applies
    /// the ones that won over its own.
    public var preferences: [StampedPreference]
    /// The study assignment of the device's participant on this collector (issue 24's contract item
    /// 6); absent when there is none, and always from collectors older than studies.
    public var study: SyncedStudyAssignment?
    /// Sessions of the batch the collector refused one by one (a study tag that is not the device's
    /// own participant's, docs/SYNC.md "Study tags at ingest"): not stored there, acknowledged with
    /// the rest so they never block the outbox. Absent when none, and from older collectors.
    public var refused: [SyncRefusedSession]?

    public init(protocolVersion: Int = SyncProtocol.version, accepted: Int, duplicates: Int, acknowledgedThrough: Int64,
                preferences: [StampedPreference], study: SyncedStudyAssignment? = nil, refused: [SyncRefusedSession]? = nil) {
        self.protocolVersion = protocolVersion
        self.accepted = accepted
        self.duplicates = duplicates
        self.acknowledgedThrough = acknowledgedThrough
        self.preferences = preferences
        self.study = study
        self.refused = refused
    }

    enum CodingKeys: String, CodingKey {
        case protocolVersion = "protocol"
        case accepted, duplicates
        case acknowledgedThrough = "acknowledged_through"
        case preferences
        case study
        case refused
    }
}

/// One session a collector refused on its own while taking the rest of the batch: its id, the rule
/// it broke (`session_study_participant`, `session_study_protocol`) and the reason in a sentence.
public struct SyncRefusedSession: Codable, Hashable, Sendable {
    public var sessionID: String
    public var rule: String
    public var reason: String

    public init(sessionID: String, rule: String, reason: String) {
        self.sessionID = sessionID
        self.rule = rule
        self.reason = reason
    }

    enum CodingKeys: String, CodingKey {
        case sessionID = "session_id"
        case rule, reason
    }
}

/// A device asking to join a collector with the one-time code `collector enrol NAME` printed.
public struct EnrolmentRequest: Codable, Hashable, Sendable {
    public var protocolVersion: Int
    public var code: String
    /// The UUID the device made for itself (kept in its store; the same for every collector).
    public var deviceID: String
    /// The device's board, shown beside the enrolment name on the collector.
    public var board: String
    public var softwareVersion: String

    public init(protocolVersion: Int = SyncProtocol.version, code: String, deviceID: String, board: String, softwareVersion: String) {
        self.protocolVersion = protocolVersion
        self.code = code
        self.deviceID = deviceID
        self.board = board
        self.softwareVersion = softwareVersion
    }

    enum CodingKeys: String, CodingKey {
        case protocolVersion = "protocol"
        case code
        case deviceID = "device_id"
        case board
        case softwareVersion = "software_version"
    }
}

/// The collector's answer to an enrolment: the device's own key, shown once.
public struct EnrolmentGrant: Codable, Hashable, Sendable {
    public var protocolVersion: Int
    public var collectorID: String
    /// The name the study team gave at `collector enrol NAME` (e.g. a participant code).
    public var deviceName: String
    public var key: String

    public init(protocolVersion: Int = SyncProtocol.version, collectorID: String, deviceName: String, key: String) {
        self.protocolVersion = protocolVersion
        self.collectorID = collectorID
        self.deviceName = deviceName
        self.key = key
    }

    enum CodingKeys: String, CodingKey {
        case protocolVersion = "protocol"
        case collectorID = "collector_id"
        case deviceName = "device_name"
        case key
    }
}
