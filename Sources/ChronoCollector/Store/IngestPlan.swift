import ChronoCore
import ChronoSync

/// A batch checked before any store is touched: every session rebuilt with the core's validation,
/// every preference value checked by the device's own setting rules. One bad session refuses the
/// whole batch (`invalid_batch` naming it), so a batch is stored entirely or not at all.
public struct IngestPlan: Sendable {
    /// One session with what the collector derives from it at ingest (kept as columns so a study
    /// team can query them in SQL; never trusted from the wire).
    public struct Session: Sendable {
        public var wire: SyncedSession
        public var outcome: SessionOutcome
        public var startedUnixNanoseconds: Int64
        public var endedUnixNanoseconds: Int64
        /// Challenge and Fear with attempts; nil for Passive.
        public var metrics: SessionMetrics?
    }

    public var batch: SyncBatch
    public var sessions: [Session]
    /// The batch's preferences for synced keys, values in canonical form; other keys are left out
    /// (a newer device may sync more settings than this collector knows).
    public var preferences: [StampedPreference]
    /// The device's newest consent decision (`SyncedConsent.validated`); nil when the batch has none.
    public var consent: StudyConsent.Record?

    public static func validate(_ batch: SyncBatch) throws(CollectorError) -> IngestPlan {
        guard batch.protocolVersion == SyncProtocol.version else {
            throw .protocolMismatch("This collector speaks sync protocol \(SyncProtocol.version); the batch is protocol \(batch.protocolVersion). Upgrade the older end.")
        }
        guard batch.sessions.count <= SyncProtocol.maximumSessionsPerBatch else {
            throw .batchTooLarge("A batch holds at most \(SyncProtocol.maximumSessionsPerBatch) sessions; this one has \(batch.sessions.count). Send smaller batches.")
        }
        guard CollectorCredentials.isUUID(batch.deviceID) else {
            throw .invalidBatch("device_id '\(batch.deviceID)' is not a UUID.")
        }
        guard batch.cursorAfter >= 0, batch.cursorThrough >= batch.cursorAfter else {
            throw .invalidBatch("cursor_through \(batch.cursorThrough) is before cursor_after \(batch.cursorAfter), or cursor_after is negative.")
        }
        var sessions: [Session] = []
        sessions.reserveCapacity(batch.sessions.count)
        for var wire in batch.sessions {
            let outcome: SessionOutcome
            do { outcome = try wire.validatedOutcome() } catch { throw .invalidBatch(error.description) }
            wire.id = wire.canonicalID
            let anchor = wire.anchor
            sessions.append(Session(
                wire: wire, outcome: outcome,
                startedUnixNanoseconds: anchor.unixNanoseconds(at: outcome.startedAt),
                endedUnixNanoseconds: anchor.unixNanoseconds(at: outcome.endedAt),
                metrics: outcome.mode.usesAttempts && !outcome.attempts.isEmpty ? outcome.metrics : nil))
        }
        var preferences: [StampedPreference] = []
        for preference in batch.preferences where PreferenceMerge.syncedKeys.contains(preference.key) {
            guard let key = SettingKey(rawValue: preference.key) else { continue }
            guard PreferenceMerge.acceptsClock(preference.clock) else {
                throw .invalidBatch("preference \(preference.key): clock \(preference.clock) is outside 0…\(PreferenceMerge.maximumClock).")
            }
            let value: String
            do { value = try CollectorPreferences.canonical(key, preference.value, fearModeOn: true) } catch {
                throw .invalidBatch("preference \(preference.key): \(error.description)")
            }
            preferences.append(StampedPreference(key: preference.key, value: value, clock: preference.clock, origin: preference.origin))
        }
        var consent: StudyConsent.Record?
        if let synced = batch.consent {
            do { consent = try synced.validated() } catch { throw .invalidBatch(error.message + ".") }
        }
        return IngestPlan(batch: batch, sessions: sessions, preferences: preferences, consent: consent)
    }
}
