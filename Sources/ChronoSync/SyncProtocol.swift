/// The device-to-collector sync protocol (docs/SYNC.md): its version, its routes and its limits, in
/// one place for both ends. A device pushes completed sessions in batches; a collector ingests them
/// idempotently by session UUID and answers with the merged preferences.
public enum SyncProtocol {
    /// The wire version both ends put in every request and answer. A collector refuses a version it
    /// does not speak with `protocol_mismatch` (HTTP 409), so neither end guesses.
    public static let version = 1

    /// `POST` an `EnrolmentRequest` (no key: the one-time code is the credential) → `EnrolmentGrant`.
    public static let enrolPath = "/api/v1/sync/enrol"
    /// `POST` a `SyncBatch` with `Authorization: Bearer <device key>` → `SyncReceipt`.
    public static let batchesPath = "/api/v1/sync/batches"

    /// Sessions per batch: small enough that a batch is one short transaction on a Pi's SD card and
    /// one request well under the body limit, large enough that catching up after a long partition
    /// takes few round trips.
    public static let maximumSessionsPerBatch = 200
    /// The largest request body a collector reads (a full batch of 99-attempt sessions is ~2 MiB).
    public static let maximumBodyBytes = 8 * 1024 * 1024

    /// A device's retry delays while the collector cannot be reached: doubling from 5 s to 15 min.
    /// Deterministic on purpose (the device adds its own jitter from its ID), so a test can state it.
    public static func retryDelaySeconds(afterFailures failures: Int) -> Int {
        guard failures > 0 else { return 0 }
        let doubled = 5 << min(failures - 1, 10)
        return min(doubled, 15 * 60)
    }
}

/// Why a collector refused a request: the `code` of its `{"error": {"code", "message"}}` answer,
/// which a device turns into one line naming the fix (`sync status`).
public enum SyncRefusalCode: String, Codable, Sendable, CaseIterable {
    /// 401: no key, an unknown key, or a revoked one. Fix: enrol again with a new code.
    case keyRefused = "key_refused"
    /// 403: the one-time enrolment code is unknown, used or expired. Fix: ask for a new code.
    case codeRefused = "code_refused"
    /// 409: the collector speaks another protocol version. Fix: upgrade the older end.
    case protocolMismatch = "protocol_mismatch"
    /// 409 at enrolment: this device ID is already enrolled (not revoked) under a name; the code is not
    /// spent and the enrolled device is left as it was. A copied data directory meets it: the copy
    /// enrols as a new device (`sync add` makes it a new ID); the device itself is revoked first.
    case deviceEnrolled = "device_enrolled"
    /// 413: the batch is over the size limits. The device halves its batch and retries.
    case batchTooLarge = "batch_too_large"
    /// 422: a session in the batch is not valid (named in the message); nothing of the batch is kept.
    case invalidBatch = "invalid_batch"
    /// 507: the collector's store is full or read-only. Fix: on the collector (disk, database).
    case collectorFull = "collector_full"
}
