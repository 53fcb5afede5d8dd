import ChronoCore
import ChronoStore
import ChronoSync
import Foundation

/// The device's two conversations with a collector (docs/SYNC.md): enrolling once, and pushing
/// everything pending. Shared by `sync add`/`sync now` and the daemon's pusher; blocking on the store
/// and the network, so never on the session loop.
public struct SyncExchange: Sendable {
    let store: ChronoStore
    let transport: any CollectorTransport
    /// The wall clock for the status's times (a value, so tests decide it).
    var now: @Sendable () -> Int64
    /// This machine's binding (`MachineBinding`), read once; a value, so tests play two machines.
    public var machine: String?

    /// An exchange with the collector behind `transport`. `now` and `machine` are seams for tests
    /// (a fixed clock, two machines); the product leaves them at the wall clock and this machine.
    public init(store: ChronoStore, transport: any CollectorTransport,
                now: @escaping @Sendable () -> Int64 = { LocalTimeZone.nowUnixNanoseconds() },
                machine: String? = MachineBinding.current()) {
        self.store = store
        self.transport = transport
        self.now = now
        self.machine = machine
    }

    /// Before enrolling: a data directory copied from another machine — or any, with `asNewDevice` —
    /// becomes a new device (`ChronoStore.becomeNewSyncDevice`). The new device ID when it did.
    public func prepareEnrolment(asNewDevice: Bool) throws -> String? {
        let copied = try store.syncMachineState(current: machine) == .copied
        guard asNewDevice || copied else { return nil }
        return try store.becomeNewSyncDevice(binding: machine)
    }

    /// What one push did. Its counts come from receipts that passed `SyncReplyValidation` (each at
    /// most a batch's size); they are still added with saturation, so no count from outside can trap.
    public struct Summary: Sendable {
        var accepted = 0
        var duplicates = 0
        var pending = 0
        /// Sessions the collector refused one by one (acknowledged, not stored there), with its reason.
        public var refusedSessions: [SyncRefusedSession] = []
        public var preferences = SyncPreferenceResult(applied: [], refused: [])
        /// The study assignment the collector's receipt changed, in words ("study sleep-2026@1 assigned
        /// to P017", "study assignment removed"); nil when it stayed as it was.
        public var study: String?
        /// Why the assignment the collector sent was refused (the device keeps the one it had).
        public var studyRefused: String?
        var sent: Int { Self.adding(Self.adding(accepted, duplicates), refusedSessions.count) }
        public var line: String {
            let refused = refusedSessions.isEmpty ? "" : ", \(refusedSessions.count) refused by the collector"
            return "sent \(CountText.of(sent, "session")) (\(accepted) new, \(duplicates) already there\(refused)); \(pending) pending"
        }

        /// One line per session the collector refused: its id, rule and reason (escaped: the collector's words).
        public var refusedLines: [String] {
            refusedSessions.map { "the collector refused session \($0.sessionID) (\($0.rule)): \(TerminalSafeText.sanitized($0.reason, keepNewlines: false))" }
        }

        /// `a + b`, held at `Int.max` instead of trapping.
        static func adding(_ a: Int, _ b: Int) -> Int {
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? .max : sum
        }

        /// Adds one validated receipt's counts.
        mutating func add(_ receipt: SyncReceipt) {
            accepted = Self.adding(accepted, receipt.accepted)
            duplicates = Self.adding(duplicates, receipt.duplicates)
            refusedSessions += receipt.refused ?? []
        }
    }

    /// Enrols with the collector using a one-time code and keeps the grant. A refusal is recorded
    /// for `sync status` like a failed push.
    public func enrol(url: CollectorURL, code: String, board: String, softwareVersion: String) async throws -> SyncEnrolment {
        do {
            return try await requestEnrolment(url: url, code: code, board: board, softwareVersion: softwareVersion)
        } catch let failure as SyncFailure {
            try? store.recordSyncFailure(code: failure.kind.rawValue, message: failure.description, nowUnixNanoseconds: now())
            throw failure
        }
    }

    private func requestEnrolment(url: CollectorURL, code: String, board: String, softwareVersion: String) async throws -> SyncEnrolment {
        let request = EnrolmentRequest(code: code, deviceID: try store.syncDeviceID(), board: board, softwareVersion: softwareVersion)
        let (status, body) = try await transport.post(SyncProtocol.enrolPath, body: try Self.encoder.encode(request), bearer: nil)
        guard status == 200 || status == 201 else { throw Self.refusal(status, body, during: "the enrolment") }
        guard let decoded = try? JSONDecoder().decode(EnrolmentGrant.self, from: body) else {
            throw SyncFailure(kind: .notACollector, detail: "the answer to the enrolment is not an enrolment grant")
        }
        guard decoded.protocolVersion == SyncProtocol.version else {
            throw SyncFailure(kind: .protocolMismatch, detail: "the collector answered with protocol \(decoded.protocolVersion), this device speaks \(SyncProtocol.version)")
        }
        let grant: EnrolmentGrant
        do { grant = try SyncReplyValidation.validated(decoded) } catch {
            throw SyncFailure(kind: .invalidReply, detail: "the enrolment grant from the collector at \(url) is refused: \(error.problem)")
        }
        let enrolment = SyncEnrolment(collectorURL: url.description, deviceKey: grant.key, collectorID: grant.collectorID,
                                      deviceName: grant.deviceName, enrolledUnixNanoseconds: now())
        try store.saveSyncEnrolment(enrolment, machineBinding: machine)
        return enrolment
    }

    /// Pushes every pending session in batches (at least one exchange, so preferences travel even
    /// when nothing is pending), moving the cursor after each receipt. A failure is recorded in the
    /// store and thrown; what was acknowledged before it stays acknowledged.
    public func pushAll(enrolment: SyncEnrolment) async throws -> Summary {
        do {
            return try await push(enrolment)
        } catch let failure as SyncFailure {
            try? store.recordSyncFailure(code: failure.kind.rawValue, message: failure.description, nowUnixNanoseconds: now())
            throw failure
        }
    }

    private func push(_ enrolment: SyncEnrolment) async throws -> Summary {
        var summary = Summary()
        var limit = SyncProtocol.maximumSessionsPerBatch
        let deviceID = try store.syncDeviceID()
        switch try store.syncMachineState(current: machine) {
        case .copied:
            // The enrolment and key here are the other machine's device: never push as it.
            throw SyncFailure(kind: .copiedDataDirectory, detail: "this data directory seems copied from another machine: its device ID \(deviceID) is bound to the machine it enrolled on, so this machine does not push as that device")
        case .unbound:
            // Enrolled before bindings existed: this machine, pushing now, is taken as its own.
            if let machine { try store.bindSyncDevice(to: machine) }
        case .sameMachine, .unknownMachine:
            break
        }
        var first = true
        while true {
            let outbox = try store.syncOutboxBatch(limit: limit)
            if !first && outbox.sessions.isEmpty && outbox.through == outbox.after { break }
            first = false
            let batch = SyncBatch(deviceID: deviceID, cursorAfter: outbox.after, cursorThrough: outbox.through,
                                  sessions: outbox.sessions, preferences: try store.syncPreferences(),
                                  consent: try store.studyConsent().map(SyncedConsent.init))
            let (status, body) = try await transport.post(SyncProtocol.batchesPath, body: try Self.encoder.encode(batch), bearer: enrolment.deviceKey)
            if status == 413, outbox.sessions.count > 1 {
                // Too large for the collector: half as many sessions, until one session is refused alone.
                limit = max(1, outbox.sessions.count / 2)
                continue
            }
            guard status == 200 else { throw Self.refusal(status, body, during: "a batch") }
            guard let decoded = try? JSONDecoder().decode(SyncReceipt.self, from: body) else {
                throw SyncFailure(kind: .notACollector, detail: "the answer to a batch is not a sync receipt")
            }
            guard decoded.protocolVersion == SyncProtocol.version else {
                throw SyncFailure(kind: .protocolMismatch, detail: "the collector answered with protocol \(decoded.protocolVersion), this device speaks \(SyncProtocol.version)")
            }
            // The one validator, before the store is touched: a refused receipt changes nothing here.
            let receipt: SyncReceipt
            do { receipt = try SyncReplyValidation.validated(decoded, for: batch) } catch {
                throw SyncFailure(kind: .invalidReply, detail: "the receipt from the collector at \(TerminalSafeText.sanitized(enrolment.collectorURL, keepNewlines: false)) is refused: \(error.problem)")
            }
            let applied = try store.recordSyncSuccess(acknowledgedThrough: receipt.acknowledgedThrough, preferences: receipt.preferences,
                                                      nowUnixNanoseconds: now())
            summary.add(receipt)
            summary.preferences.applied += applied.applied
            summary.preferences.refused = applied.refused
            keepStudy(receipt.study, into: &summary)
            // A batch that went through lets the next one grow again.
            limit = min(SyncProtocol.maximumSessionsPerBatch, limit * 2)
        }
        summary.pending = try store.syncState().pending
        return summary
    }

    /// The receipt's study assignment, kept (docs/STUDIES.md, "On the device"): a new one replaces the
    /// kept one, the same one changes nothing, none means the participant was unassigned. A refused one
    /// leaves the kept one as it was, so the device goes on running what it had.
    private func keepStudy(_ study: SyncedStudyAssignment?, into summary: inout Summary) {
        do {
            guard let study else {
                if try store.removeStudyAssignment() { summary.study = "study assignment removed by the collector" }
                return
            }
            if try store.keepStudyAssignment(study, nowUnixNanoseconds: now()) == .assigned {
                summary.study = "study \(study.protocolName)@\(study.protocolVersion) assigned to \(study.participant)"
            }
        } catch {
            summary.studyRefused = "\(error)"
        }
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// The failure for an error answer, in the collector's words when it gave them.
    static func refusal(_ status: Int, _ body: Data, during what: String) -> SyncFailure {
        let error = ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?["error"] as? [String: Any]
        return SyncFailure.classifying(httpStatus: status, code: error?["code"] as? String, message: error?["message"] as? String, during: what)
    }
}
