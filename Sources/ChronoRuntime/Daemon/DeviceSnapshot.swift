import ChronoCore

/// Everything the device daemon needs between sessions, prepared off the loop thread (from the store,
/// the settings, the board file and the command line) and handed to the loop as one value, so the loop
/// never reads a database or a file to show the idle menu or start a session.
public struct DeviceSnapshot: Hashable, Sendable {
    /// What an idle tap starts now: fully resolved (H(I), timing, gestures, Fear threshold).
    public var nextConfiguration: SessionConfiguration
    /// The newest session the snapshot's source knew of when it was prepared (nil before any). The
    /// daemon compares it with the session it last ran: when the snapshot does not know that session
    /// yet, the daemon starts that session's configuration again (with `defaults` applied).
    public var lastSessionID: String?
    /// The presets in frecency order (at least the built-in one).
    public var presets: [TrainingInterval]
    /// H(I) of the presets.
    public var patterns: IntervalPatternBook
    /// The current settings' part of every session: timing, gestures, Fear threshold (`SessionResolver.defaults`).
    public var defaults: SessionDefaults
    /// `on`, `off`, `failing: <reason>`, or `held back: …` — shown in the state file.
    public var healthStatus: String
    /// The Fear rule's answer (`FearPermission`, from the flag and the `fear-mode` setting): without it
    /// the daemon refuses a Fear named in a request and runs a Fear from a tap as Challenge.
    public var fearAllowed: Bool
    /// The newest completed session (date, interval, score) for the state file's `last_session`
    /// (SPEC §8's glanceable surfaces); nil before the first.
    public var lastCompleted: DeviceState.LastSession?
    /// That session's id: tells the daemon when the store has caught up with a session it just completed.
    public var lastCompletedID: String?
    /// The `glanceable-privacy` setting, for the state file (`DeviceState.glanceablePrivacy`).
    public var glanceablePrivacy = false
    /// The `battery-low`, `battery-stop` and `battery-critical` settings (`BatteryMonitor`).
    public var batteryThresholds = BatteryThresholds.standard
    /// The assigned study (docs/STUDIES.md, "On the device"): its plan and the positions the store
    /// has as completed; nil when none is assigned. The loop asks it, at the wall-clock instant, what
    /// an idle tap starts and what the study line says.
    public var study: StudyStanding?
    /// The study tag of `lastCompleted` (nil: outside any study): whether its score may be shown is
    /// asked of `study` at the instant the state is published.
    public var lastCompletedStudy: StudyTag?
    /// The reminder settings (`ReminderRules` decides on the loop what is due).
    public var reminders = ReminderSettings()
    /// The local start of each session completed since yesterday's local midnight, by session id:
    /// today's count against the daily goal.
    public var recentCompletions: [String: WallTime] = [:]
    /// The card's last update (`UpdateRecord`, from its file beside the store) as the state shows it;
    /// nil when there is none. While it holds sessions, no session starts.
    public var update: DeviceState.Update?
    /// Why no session starts because of the update (`UpdateRecord.sessionRefusal`); nil: none.
    public var updateRefusal: String?

    public init(nextConfiguration: SessionConfiguration, lastSessionID: String?, presets: [TrainingInterval],
                patterns: IntervalPatternBook, defaults: SessionDefaults, healthStatus: String, fearAllowed: Bool,
                lastCompleted: DeviceState.LastSession? = nil) {
        self.nextConfiguration = nextConfiguration
        self.lastSessionID = lastSessionID
        self.presets = presets.isEmpty ? [.builtInPreset] : presets
        self.patterns = patterns
        self.defaults = defaults
        self.healthStatus = healthStatus
        self.fearAllowed = fearAllowed
        self.lastCompleted = lastCompleted
    }

    /// A configuration for `mode`, `interval` and `count` (nil: the defaults' count for the mode),
    /// with the current settings applied (`SessionResolver`) and the interval's H(I) from the presets.
    public func configuration(mode: SessionMode, interval: TrainingInterval, count: Int?) throws(ConfigurationError) -> SessionConfiguration {
        var book = patterns
        book.assign(ranked: presets + [interval])
        return try SessionResolver.configuration(
            mode: mode, interval: interval, count: count, defaults: defaults,
            pattern: book.pattern(for: interval) ?? IntervalPatternBook.candidates[0])
    }

    /// A planned study session's configuration: the block's choices (`SessionResolver.configuration(planned:)`)
    /// with the current settings' timing and gestures and the interval's H(I).
    public func configuration(planned: StudyPlan.Session) throws(ConfigurationError) -> SessionConfiguration {
        var book = patterns
        book.assign(ranked: presets + [planned.interval])
        return try SessionResolver.configuration(planned: planned, defaults: defaults,
                                                 pattern: book.pattern(for: planned.interval) ?? IntervalPatternBook.candidates[0])
    }

    /// `configuration` with the current settings applied (mode, interval and count kept).
    public func refreshed(_ configuration: SessionConfiguration) -> SessionConfiguration {
        (try? self.configuration(mode: configuration.mode, interval: configuration.interval, count: configuration.plannedCount))
            ?? configuration
    }
}
