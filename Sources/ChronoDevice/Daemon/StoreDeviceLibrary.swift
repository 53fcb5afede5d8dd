import ChronoCore
import ChronoHardware
import ChronoRuntime
import ChronoStore
import ChronoSync
import Synchronization

/// Makes the store the daemon's `DeviceLibrary`: prepares `DeviceSnapshot`s (the next configuration,
/// presets in frecency order with their H(I), the current settings' session defaults, the health
/// status) from the store, the settings, the board file and the command line, through
/// `SessionResolver`. Called off the loop only (by `SnapshotKeeper`); blocking on the database here
/// never delays the loop.
///
/// It is also a `SessionRecorder`, handed each start record on the writer thread before the daemon's
/// refresh (which the runtime posts behind the records), so it knows the session the daemon ran last
/// without a query, and when the command line's first-session choices and a changed default end.
final class StoreDeviceLibrary: DeviceLibrary, SessionRecorder {
    private struct State {
        var board: BoardTiming
        /// The command line's session choices apply to the first idle tap only.
        var firstFromFlags = true
        var lastSessionID: String?
        var lastConfiguration: SessionConfiguration?
        /// The settings' session defaults as last seen, to notice `settings set default-…`.
        var seenDefaults: [String]?
        var defaultsChangedSinceLast = false
        var lastGood: DeviceSnapshot?
    }

    let store: ChronoStore
    private let flags: SessionFlags
    /// The board name or file path the board was loaded by: SIGHUP reads the same source again.
    private let boardSource: String
    private let state: Mutex<State>
    /// Where notices go (the daemon's console).
    private let report: @Sendable (String) -> Void
    /// The card's update record beside the store, and the slot this boot started from.
    private let updateFile: UpdateRecordFile
    private let bootedSlot: BootSlot?
    /// The last refusal of the update record said on the console (said once, not at every snapshot).
    private let saidUpdateRefusal = Mutex<String?>(nil)

    /// `boardSource`: the name or path `board` was loaded by (`--board`'s value); nil: its name.
    init(store: ChronoStore, flags: SessionFlags, board: BoardConfiguration, boardSource: String? = nil,
         bootedSlot: BootSlot? = nil, report: @escaping @Sendable (String) -> Void) {
        self.store = store
        updateFile = UpdateRecordFile(directory: store.location.directory)
        self.bootedSlot = bootedSlot
        self.flags = flags
        self.boardSource = boardSource ?? board.name
        state = Mutex(State(board: BoardTiming(board)))
        self.report = report
    }

    func prepareSnapshot() -> DeviceSnapshot {
        let now = LocalTimeZone.nowUnixNanoseconds() / 1_000_000_000
        let settings: StoreSettings
        do {
            settings = try store.settings()
        } catch {
            report("The settings cannot be read (\(error)); the device goes on with the last ones it had.")
            return state.withLock { $0.lastGood } ?? Self.fallback
        }
        let ranked = (try? store.rankedPresets(nowUnixSeconds: now))
            ?? [RankedPreset(interval: .builtInPreset, score: 0, useCount: 0, lastUsedUnixSeconds: nil)]
        // H(I) is assigned by use (SPEC §2): only intervals that have been used get a saved pattern;
        // the others are shown with the pattern they would get now, which may change until first used.
        var patterns = (try? store.patternBook(ranked: ranked.filter { $0.useCount > 0 }, nowUnixSeconds: now))
            ?? (try? store.savedPatternBook()) ?? IntervalPatternBook()
        let storedLast = (try? store.lastConfiguration()) ?? nil
        let health = HealthNotes.stateText(settings: settings, store: store)
        let newestCompleted = (try? store.sessionPage(SessionQuery(status: .completed, limit: 1)))?.sessions.first
        let lastCompleted = newestCompleted.map(DeviceState.LastSession.init)
        let study = studyStanding()
        let recentCompletions = recentCompletedSessions()
        let lastCompletedStudy = newestCompleted.flatMap { try? store.session(id: $0.sessionID).study }
        let update = updateStanding()
        // Only the first snapshot of this process needs the store's times (see below).
        let firstSnapshot = state.withLock { $0.seenDefaults == nil }
        let changedBeforeStart = firstSnapshot && SessionResolver.defaultsChangedAfterLastSession(
            lastStartedUnixSeconds: ((try? store.sessionPage(SessionQuery(limit: 1)))?.sessions.first).map { $0.startedAt.unixNanoseconds / 1_000_000_000 },
            defaultsWrittenUnixSeconds: (try? store.lastWritten(Self.sessionDefaultKeys)) ?? nil)
        return state.withLock { state in
            let defaultsNow = Self.sessionDefaultKeys.map { settings[$0] }
            if let seen = state.seenDefaults, seen != defaultsNow { state.defaultsChangedSinceLast = true }
            // A process that has just started has seen no change itself: a default written after the
            // last session (before this start) still wins over repeating that session.
            if state.seenDefaults == nil, changedBeforeStart { state.defaultsChangedSinceLast = true }
            state.seenDefaults = defaultsNow
            var flags = self.flags
            if !state.firstFromFlags {
                flags.mode = nil
                flags.interval = nil
                flags.attempts = nil
                flags.repetitions = nil
            }
            let book = patterns
            let last = state.lastConfiguration ?? storedLast
            let next = (try? SessionResolver.nextConfiguration(
                firstFromFlags: state.firstFromFlags, flags: flags, settings: settings.session, board: state.board,
                last: last, defaultsChangedSinceLast: state.defaultsChangedSinceLast,
                pattern: { book.pattern(for: $0) })) ?? last ?? Self.fallback.nextConfiguration
            var presets = ranked.map(\.interval)
            if !presets.contains(next.interval) { presets.insert(next.interval, at: 0) }
            patterns.assign(ranked: presets)
            var nextWithPattern = next
            if let pattern = patterns.pattern(for: next.interval) { nextWithPattern.intervalPattern = pattern }
            var snapshot = DeviceSnapshot(
                nextConfiguration: nextWithPattern, lastSessionID: state.lastSessionID, presets: presets, patterns: patterns,
                defaults: SessionResolver.defaults(flags: flags, settings: settings.session, board: state.board),
                healthStatus: health, fearAllowed: SessionResolver.fearPermission(flags: flags, settings: settings.session).allowed,
                lastCompleted: lastCompleted)
            snapshot.glanceablePrivacy = settings.glanceablePrivacy
            snapshot.lastCompletedID = newestCompleted?.sessionID
            snapshot.study = study
            snapshot.lastCompletedStudy = lastCompletedStudy
            snapshot.batteryThresholds = settings.batteryThresholds
            snapshot.reminders = settings.reminders
            (snapshot.update, snapshot.updateRefusal) = update
            snapshot.recentCompletions = recentCompletions
            state.lastGood = snapshot
            return snapshot
        }
    }

    /// The kept study assignment with the positions the store has completed (nil: none assigned). A
    /// kept assignment that cannot be read is said once per snapshot and treated as none: the person's
    /// own sessions go on.
    private func studyStanding() -> StudyStanding? {
        do {
            guard let kept = try store.studyAssignment() else { return nil }
            let plan = kept.assignment
            let done = try store.completedStudySessions(protocolName: plan.studyProtocol.name, protocolVersion: plan.studyProtocol.version,
                                                        participant: plan.participant)
            let consent = StudyConsent.standing(of: plan.studyProtocol, record: try store.studyConsent())
            return StudyStanding(assignment: plan, completions: done.map(\.completion), consent: consent)
        } catch {
            report("The study assignment cannot be read (\(error)); sessions run outside the study until it can.")
            return nil
        }
    }

    /// The local starts of the sessions completed since yesterday's local midnight (today's count
    /// against the daily goal; yesterday's too, so the count is right across midnight until the next
    /// snapshot). A store that cannot be read counts none.
    private func recentCompletedSessions() -> [String: WallTime] {
        let now = LocalTimeZone.nowUnixNanoseconds()
        let today = WallTime(unixNanoseconds: now, utcOffsetSeconds: LocalTimeZone.utcOffsetSeconds(atUnixSeconds: now / 1_000_000_000)).localDayNumber
        let query = SessionQuery(status: .completed, fromDay: CalendarDay(daysSinceEpoch: today - 1), limit: 500)
        let lines = (try? store.sessionPage(query))?.sessions ?? []
        return Dictionary(lines.map { ($0.sessionID, $0.startedAt) }, uniquingKeysWith: { first, _ in first })
    }

    /// SIGHUP: the board file again, by the name or path it was first loaded by (its long press and
    /// debounce; lines and drivers need a restart).
    func reload() {
        do {
            let board = try UsableBoard.load(boardSource)
            state.withLock { $0.board = BoardTiming(board) }
        } catch {
            report("SIGHUP: the board file \(boardSource) cannot be read (\(error)); keeping the one loaded before.")
        }
    }

    func sessionStarted(_ start: SessionStartRecord) {
        state.withLock { state in
            state.firstFromFlags = false
            // A study's planned session is not the person's own: what a tap starts outside the study
            // stays the person's last choice (the daemon knows its study session by its tag).
            guard start.study == nil else { return }
            state.defaultsChangedSinceLast = false
            state.lastSessionID = start.sessionID
            state.lastConfiguration = start.configuration
        }
    }

    func sessionFinished(_ finish: SessionFinishRecord) {}

    /// The settings whose change makes the idle tap start the defaults instead of the last session.
    static let sessionDefaultKeys: [SettingKey] = [.defaultMode, .defaultInterval, .defaultAttempts, .defaultRepetitions]

    private static var fallback: DeviceSnapshot {
        DeviceSnapshot(nextConfiguration: try! SessionConfiguration(mode: .challenge, interval: .builtInPreset),
                       lastSessionID: nil, presets: [.builtInPreset], patterns: IntervalPatternBook(),
                       defaults: SessionDefaults(), healthStatus: "failing: the store cannot be read", fearAllowed: false)
    }

    /// The update record as the state shows it, and whether it holds sessions. A file the validator
    /// refuses holds nothing (said once on the console): a broken record must not stop the device.
    private func updateStanding() -> (DeviceState.Update?, String?) {
        switch updateFile.read() {
        case .none:
            return (nil, nil)
        case .record(let record):
            return (DeviceState.Update(record: record, running: .running, slot: bootedSlot), record.sessionRefusal)
        case .refused(let reason):
            let first = saidUpdateRefusal.withLock { said in
                defer { said = reason }
                return said != reason
            }
            if first { report("The update record is ignored: \(reason).") }
            return (nil, nil)
        }
    }

}
