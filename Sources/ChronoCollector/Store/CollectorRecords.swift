import ChronoCore
import ChronoSync

/// An enrolled device as the collector lists it.
public struct CollectorDevice: Hashable, Sendable {
    /// The device's own UUID (the same for every collector it joins).
    public var id: String
    /// The name given at `collector enrol NAME` (a participant code, "Anna's Pi").
    public var name: String
    public var participant: String?
    public var board: String
    public var softwareVersion: String
    public var enrolledUnixNanoseconds: Int64
    /// Set once revoked: its key is refused from then on.
    public var revokedUnixNanoseconds: Int64?
    /// The last accepted batch.
    public var lastSeenUnixNanoseconds: Int64?
    /// Sessions stored from this device.
    public var sessionCount: Int
    /// Sessions from this device refused at ingest for their study tag (`IngestStudyTags`: another
    /// participant's, or a protocol its participant was never assigned).
    public var refusedSessionCount: Int
    /// The newest consent decision the device synced (`StudyConsent`); nil before one, and from
    /// devices older than consent. A declined or withdrawn one means the study is stopped there.
    public var consent: StudyConsent.Record?

    public init(id: String, name: String, participant: String?, board: String, softwareVersion: String,
                enrolledUnixNanoseconds: Int64, revokedUnixNanoseconds: Int64?, lastSeenUnixNanoseconds: Int64?, sessionCount: Int,
                refusedSessionCount: Int = 0) {
        self.id = id
        self.name = name
        self.participant = participant
        self.board = board
        self.softwareVersion = softwareVersion
        self.enrolledUnixNanoseconds = enrolledUnixNanoseconds
        self.revokedUnixNanoseconds = revokedUnixNanoseconds
        self.lastSeenUnixNanoseconds = lastSeenUnixNanoseconds
        self.sessionCount = sessionCount
        self.refusedSessionCount = refusedSessionCount
    }

    public var isRevoked: Bool { revokedUnixNanoseconds != nil }
}

/// A one-time enrolment code waiting for its device (stored by digest only).
public struct PendingEnrolment: Hashable, Sendable {
    public var codeSHA256: String
    public var name: String
    public var participant: String?
    public var createdUnixNanoseconds: Int64
    public var expiresUnixNanoseconds: Int64

    public init(codeSHA256: String, name: String, participant: String?, createdUnixNanoseconds: Int64, expiresUnixNanoseconds: Int64) {
        self.codeSHA256 = codeSHA256
        self.name = name
        self.participant = participant
        self.createdUnixNanoseconds = createdUnixNanoseconds
        self.expiresUnixNanoseconds = expiresUnixNanoseconds
    }
}

/// A stored session with the device it came from.
public struct CollectorSession: Hashable, Sendable {
    public var deviceID: String
    public var deviceName: String
    public var participant: String?
    /// Exactly what the device sent.
    public var session: SyncedSession
    public var receivedUnixNanoseconds: Int64

    public init(deviceID: String, deviceName: String, participant: String?, session: SyncedSession, receivedUnixNanoseconds: Int64) {
        self.deviceID = deviceID
        self.deviceName = deviceName
        self.participant = participant
        self.session = session
        self.receivedUnixNanoseconds = receivedUnixNanoseconds
    }
}

/// Which sessions a read wants. Every filter is optional; results are in start order (oldest first).
public struct CollectorSessionQuery: Hashable, Sendable {
    /// A device's name or UUID.
    public var device: String?
    public var participant: String?
    /// Sessions started at or after this instant.
    public var sinceUnixNanoseconds: Int64?
    public var mode: String?
    /// Only the newest `limit` sessions (still returned oldest first).
    public var limit: Int?

    public init(device: String? = nil, participant: String? = nil, sinceUnixNanoseconds: Int64? = nil, mode: String? = nil, limit: Int? = nil) {
        self.device = device
        self.participant = participant
        self.sinceUnixNanoseconds = sinceUnixNanoseconds
        self.mode = mode
        self.limit = limit
    }
}

/// A key a person (or a script) uses to read the collector's API from beyond loopback.
public struct ReaderKey: Hashable, Sendable {
    public var id: String
    public var name: String
    public var createdUnixNanoseconds: Int64

    public init(id: String, name: String, createdUnixNanoseconds: Int64) {
        self.id = id
        self.name = name
        self.createdUnixNanoseconds = createdUnixNanoseconds
    }
}
