import ChronoSync

/// The collector a device is enrolled with (`chronoception sync add`).
public struct SyncEnrolment: Hashable, Sendable {
    /// `http://host:port` (a path prefix is kept), as given to `sync add`.
    public var collectorURL: String
    /// The device's bearer key; never printed.
    public var deviceKey: String
    public var collectorID: String
    /// The name the collector knows this device by.
    public var deviceName: String
    public var enrolledUnixNanoseconds: Int64

    public init(collectorURL: String, deviceKey: String, collectorID: String, deviceName: String, enrolledUnixNanoseconds: Int64) {
        self.collectorURL = collectorURL
        self.deviceKey = deviceKey
        self.collectorID = collectorID
        self.deviceName = deviceName
        self.enrolledUnixNanoseconds = enrolledUnixNanoseconds
    }
}

/// The device's sync state as `sync status` shows it.
public struct SyncState: Hashable, Sendable {
    public var deviceID: String
    public var enrolment: SyncEnrolment?
    /// The highest outbox position the collector acknowledged.
    public var cursor: Int64
    /// Completed sessions numbered after the cursor: not yet acknowledged.
    public var pending: Int
    public var lastSuccessUnixNanoseconds: Int64?
    public var lastAttemptUnixNanoseconds: Int64?
    /// Failed attempts since the last success (the retry schedule's input).
    public var consecutiveFailures: Int
    /// A `SyncFailureKind` raw value, with the line that was printed for it.
    public var lastFailureCode: String?
    public var lastFailureMessage: String?
    /// A preference from the collector this device refused (`SettingKey.canonicalValue`'s words).
    public var preferenceProblem: String?
}

/// One batch read from the outbox: the positions `(after, through]` and their sessions in order.
public struct SyncOutboxBatch: Hashable, Sendable {
    public var after: Int64
    public var through: Int64
    public var sessions: [SyncedSession]
}

/// What applying the collector's preferences did.
public struct SyncPreferenceResult: Hashable, Sendable {
    /// `key = value` for each setting changed.
    public var applied: [String]
    /// One line per preference refused (not applied), naming the key and the reason.
    public var refused: [String]

    public init(applied: [String] = [], refused: [String] = []) {
        self.applied = applied
        self.refused = refused
    }
}
