import ChronoSync

/// Why the collector refused or failed something. Every case carries a sentence naming the problem
/// and the fix; the sync routes turn the refusals into `SyncRefusalCode`s, the command line into one
/// `error:` line.
public enum CollectorError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The enrolment code is unknown, used or expired (403 `code_refused`).
    case codeRefused(String)
    /// No key, an unknown or revoked key, or a key of another device (401 `key_refused`).
    case keyRefused(String)
    /// A session or preference in the batch is not valid; nothing of the batch was kept (422 `invalid_batch`).
    case invalidBatch(String)
    /// The batch is over the protocol's limits (413 `batch_too_large`).
    case batchTooLarge(String)
    /// The other end speaks another protocol version (409 `protocol_mismatch`).
    case protocolMismatch(String)
    /// A code redeemed by a device ID that is enrolled and not revoked (409 `device_enrolled`): one
    /// row per physical device, so the enrolled one is never renamed or re-keyed by another.
    case deviceEnrolled(String)
    /// The store is full or read-only (507 `collector_full`).
    case full(String)
    /// A value given by a person was refused (a name, a setting, an expiry).
    case invalidValue(String)
    /// No device of that name.
    case unknownDevice(String)
    /// The database cannot be reached or logged into.
    case unreachable(String)
    /// The database holds another schema version, or is not a collector's.
    case schemaMismatch(String)
    /// Any other database failure.
    case database(String)

    public var description: String {
        switch self {
        case .codeRefused(let text), .keyRefused(let text), .invalidBatch(let text), .batchTooLarge(let text),
             .protocolMismatch(let text), .deviceEnrolled(let text), .full(let text), .invalidValue(let text), .unknownDevice(let text),
             .unreachable(let text), .schemaMismatch(let text), .database(let text):
            return text
        }
    }

    /// The protocol's refusal code for the cases a device can meet.
    public var refusalCode: SyncRefusalCode? {
        switch self {
        case .codeRefused: return .codeRefused
        case .keyRefused: return .keyRefused
        case .invalidBatch: return .invalidBatch
        case .batchTooLarge: return .batchTooLarge
        case .protocolMismatch: return .protocolMismatch
        case .deviceEnrolled: return .deviceEnrolled
        case .full: return .collectorFull
        default: return nil
        }
    }
}
