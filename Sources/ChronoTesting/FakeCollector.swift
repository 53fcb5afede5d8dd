import ChronoSync
import Foundation

/// An in-process stand-in for a collector's sync routes, for the device's tests: it answers exactly
/// what docs/SYNC.md says a collector answers (ingest by session UUID, the preference merge, the
/// error codes), and lets a test make it refuse, shrink its batch limit or lose its answers.
public final class FakeCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var state = State()

    public struct State: Sendable {
        /// Codes `enrol` accepts, each once.
        public var codes: Set<String> = []
        /// Keys it accepts, by device ID.
        public var keys: [String: String] = [:]
        /// Every session stored, by UUID.
        public var sessions: [String: SyncedSession] = [:]
        /// Preferences held for devices (one device in these tests).
        public var preferences: [StampedPreference] = []
        /// Batches received (sizes), in order, including refused ones.
        public var batchSizes: [Int] = []
        /// Sessions above this in one batch are answered 413.
        public var maximumSessionsPerBatch = SyncProtocol.maximumSessionsPerBatch
        /// When set, every batch is answered with this status and refusal code.
        public var refusal: (status: Int, code: String)?
        /// How many of the next batches are stored but answered with a 500 (the answer "lost").
        public var loseAnswers = 0
        /// The study assignment every receipt carries (`SyncReceipt.study`); nil: none.
        public var study: SyncedStudyAssignment?
        /// The newest consent decision a batch carried (`SyncBatch.consent`); nil before one.
        public var consent: SyncedConsent?
        /// A hostile collector: when set, a batch it stores is answered (200) with this body, made
        /// from the batch and the receipt it would have sent.
        public var receiptBody: (@Sendable (SyncBatch, SyncReceipt) -> Data)?
        /// A hostile collector: when set, an enrolment it grants is answered (200) with this body.
        public var grantBody: Data?
    }

    /// The collector's own id in its grants.
    public static let collectorID = "00000000-0000-4000-8000-00000000fa4e"

    public init(codes: Set<String> = []) {
        state.codes = codes
    }

    /// Reads or changes the state.
    public func with<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    /// Answers one POST: the status and the JSON body.
    public func handle(path: String, body: Data, bearer: String?) -> (status: Int, body: Data) {
        with { state in
            switch path {
            case SyncProtocol.enrolPath: return Self.enrol(&state, body)
            case SyncProtocol.batchesPath: return Self.batch(&state, body, bearer: bearer)
            default: return Self.error(404, "not_found", "no route \(path)")
            }
        }
    }

    private static func enrol(_ state: inout State, _ body: Data) -> (status: Int, body: Data) {
        guard let request = try? JSONDecoder().decode(EnrolmentRequest.self, from: body) else { return error(400, "invalid_batch", "not an enrolment request") }
        guard request.protocolVersion == SyncProtocol.version else { return error(409, SyncRefusalCode.protocolMismatch.rawValue, "protocol \(request.protocolVersion)") }
        guard state.codes.remove(request.code) != nil else { return error(403, SyncRefusalCode.codeRefused.rawValue, "the code is unknown, used or expired") }
        let key = "key-" + request.deviceID
        state.keys[request.deviceID] = key
        if let body = state.grantBody { return (200, body) }
        return (200, try! JSONEncoder().encode(EnrolmentGrant(collectorID: collectorID, deviceName: "participant-1", key: key)))
    }

    private static func batch(_ state: inout State, _ body: Data, bearer: String?) -> (status: Int, body: Data) {
        guard let batch = try? JSONDecoder().decode(SyncBatch.self, from: body) else { return error(422, SyncRefusalCode.invalidBatch.rawValue, "not a batch") }
        state.batchSizes.append(batch.sessions.count)
        if let refusal = state.refusal { return error(refusal.status, refusal.code, "refused by the test") }
        guard let bearer, state.keys[batch.deviceID] == bearer else { return error(401, SyncRefusalCode.keyRefused.rawValue, "unknown key") }
        guard batch.sessions.count <= state.maximumSessionsPerBatch else { return error(413, SyncRefusalCode.batchTooLarge.rawValue, "too many sessions") }
        for session in batch.sessions {
            do { _ = try session.validatedOutcome() } catch { return Self.error(422, SyncRefusalCode.invalidBatch.rawValue, error.description) }
        }
        var accepted = 0, duplicates = 0
        for session in batch.sessions {
            if state.sessions[session.id] == nil { state.sessions[session.id] = session; accepted += 1 } else {
                // As a collector does: a session sent again may bring a changed note, and nothing else changes.
                state.sessions[session.id]?.note = session.note
                duplicates += 1
            }
        }
        state.preferences = PreferenceMerge.merge(state.preferences, batch.preferences)
        if let consent = batch.consent { state.consent = consent }
        if state.loseAnswers > 0 {
            state.loseAnswers -= 1
            return error(500, "internal", "the answer was lost")
        }
        let receipt = SyncReceipt(accepted: accepted, duplicates: duplicates, acknowledgedThrough: batch.cursorThrough, preferences: state.preferences,
                                  study: state.study)
        if let body = state.receiptBody { return (200, body(batch, receipt)) }
        return (200, try! JSONEncoder().encode(receipt))
    }

    private static func error(_ status: Int, _ code: String, _ message: String) -> (status: Int, body: Data) {
        (status, try! JSONSerialization.data(withJSONObject: ["error": ["code": code, "message": message]]))
    }

    /// A change made on the collector: clock one above everything it has seen, origin collector.
    public func setPreference(_ key: String, _ value: String) {
        with { state in
            let clock = PreferenceMerge.nextClock(after: state.preferences)
            state.preferences = PreferenceMerge.merge(state.preferences, [StampedPreference(key: key, value: value, clock: clock, origin: .collector)])
        }
    }
}
