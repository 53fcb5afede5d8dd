/// The one place that turns board + settings + command-line flags into a session's configuration, for
/// the single-session commands, `replay` and the daemon alike (the daemon at the start of every
/// session, from the current settings). Pure: the callers only gather its inputs — the flags from the
/// command line, `SessionSettings` from the store (or the built-in ones), `BoardTiming` from the board
/// file (or `.builtIn`). Precedence, field by field:
///
/// | field | order |
/// |---|---|
/// | mode, interval, attempts/repetitions, Fear threshold | flag, then setting |
/// | long press | flag, then `long-press-ms` when changed from 1500, then the board's `long_press_ms` |
/// | debounce (gestures and the kernel's) | flag, then the board's `button.debounce_ms` |
/// | feedback duration, abort window | flag, then the built-in default |
/// | feedback policy (shown or withheld) | a planned study session's block, then the flag, then shown |
/// | Fear threshold of a planned study session | the block's |
/// | auto-start | `--auto-start`/`--no-auto-start`, then `auto-start` |
/// | Fear allowed | `--i-understand-fear-mode` or `fear-mode on` (`FearPermission`) |
public enum SessionResolver {
    public static func gestures(flags: SessionFlags, settings: SessionSettings, board: BoardTiming) -> GestureSettings {
        let longPress = flags.longPressMilliseconds
            ?? (settings.longPress != GestureSettings.defaultLongPress ? settings.longPress.milliseconds : board.longPressMilliseconds)
        return GestureSettings(debounce: .milliseconds(debounceMilliseconds(flags: flags, board: board)),
                               longPress: .milliseconds(longPress))
    }

    /// The button's debounce: `--debounce-ms`, else the board's `button.debounce_ms`. The one value both
    /// the gesture recognizer and the GPIO driver's kernel debounce (libgpiod v2) use, so the flag wins
    /// in both.
    public static func debounceMilliseconds(flags: SessionFlags, board: BoardTiming) -> Int64 {
        flags.debounceMilliseconds ?? board.debounceMilliseconds
    }

    public static func timing(flags: SessionFlags, settings: SessionSettings) -> SessionTiming {
        SessionTiming(
            feedbackDuration: flags.feedbackMilliseconds.map { .milliseconds($0) } ?? SessionTiming.defaultFeedbackDuration,
            abortConfirmWindow: flags.abortWindowMilliseconds.map { .milliseconds($0) } ?? SessionTiming.defaultAbortConfirmWindow,
            autoStartNextAttempt: flags.autoStart ?? settings.autoStartNextAttempt)
    }

    /// Whether Fear may run for these flags and settings: the flag's opt-in or the setting's.
    public static func fearPermission(flags: SessionFlags, settings: SessionSettings) -> FearPermission {
        FearPermission(optIn: flags.fearOptIn, settingOn: settings.fearModeOn)
    }

    /// The settings' part of every session (what the daemon applies to whatever it starts).
    public static func defaults(flags: SessionFlags, settings: SessionSettings, board: BoardTiming) -> SessionDefaults {
        SessionDefaults(timing: timing(flags: flags, settings: settings),
                        gestures: gestures(flags: flags, settings: settings, board: board),
                        fearThreshold: flags.fearThreshold ?? settings.fearThreshold,
                        attempts: flags.attempts ?? settings.defaultAttempts,
                        repetitions: flags.repetitions ?? settings.defaultRepetitions,
                        mode: fearPermission(flags: flags, settings: settings).mode(fromDefaults: settings.defaultMode))
    }

    /// A session of `mode` (the command's, or the flag's, or the setting's): interval and count from the
    /// flags, else the settings. `pattern` is the interval's H(I) when known. A mode named (`mode`, the
    /// flag) is taken as given — whoever names it asks `FearPermission.allowsByName` first; the setting's
    /// default mode runs as `FearPermission` lets a mode from defaults run.
    public static func configuration(mode: SessionMode? = nil, flags: SessionFlags, settings: SessionSettings, board: BoardTiming,
                                     pattern: (TrainingInterval) -> HapticPattern? = { _ in nil }) throws(ConfigurationError) -> SessionConfiguration {
        let chosenMode = mode ?? flags.mode
            ?? fearPermission(flags: flags, settings: settings).mode(fromDefaults: settings.defaultMode)
        let interval = flags.interval ?? settings.defaultInterval
        return try configuration(mode: chosenMode, interval: interval, count: flags.count(for: chosenMode),
                                 defaults: defaults(flags: flags, settings: settings, board: board),
                                 pattern: pattern(interval) ?? IntervalPatternBook.candidates[0], feedback: flags.feedback ?? .shown)
    }

    /// A planned study session (`StudyPlan.Session`): its block's mode, interval, count, Fear threshold
    /// and feedback policy, with `defaults`' timing and gestures and `pattern` as its H(I). The study's
    /// feedback rule is decided here, once, and travels in the configuration (and whether the results
    /// are withheld as the session ends is `ResultsWithholding`'s, asked once by the daemon).
    public static func configuration(planned: StudyPlan.Session, defaults: SessionDefaults,
                                     pattern: HapticPattern) throws(ConfigurationError) -> SessionConfiguration {
        try SessionConfiguration(
            mode: planned.mode, interval: planned.interval, plannedCount: planned.count, fearThreshold: planned.fearThreshold,
            intervalPattern: pattern, timing: defaults.timing, gestures: defaults.gestures, feedback: planned.feedback)
    }

    /// A session of `mode`, `interval` and `count` (nil: the defaults' count for the mode) with `defaults`
    /// applied and `pattern` as its H(I): the last step of every configuration above, and what the
    /// daemon's snapshot starts for a preset or a request.
    public static func configuration(mode: SessionMode, interval: TrainingInterval, count: Int?, defaults: SessionDefaults,
                                     pattern: HapticPattern, feedback: FeedbackPolicy = .shown) throws(ConfigurationError) -> SessionConfiguration {
        try SessionConfiguration(
            mode: mode, interval: interval, plannedCount: count ?? defaults.count(for: mode),
            fearThreshold: defaults.fearThreshold, intervalPattern: pattern,
            timing: defaults.timing, gestures: defaults.gestures, feedback: feedback)
    }

    /// Whether the session defaults changed after the last session, for a daemon that has just
    /// started (it has seen no change itself): a default written at or after the last session's start
    /// second counts — settings apply to the next session (SPEC §6), across a restart too. The same
    /// second counts as after: of the two mistakes it is the one that still obeys a change.
    public static func defaultsChangedAfterLastSession(lastStartedUnixSeconds: Int64?, defaultsWrittenUnixSeconds: Int64?) -> Bool {
        guard let started = lastStartedUnixSeconds, let written = defaultsWrittenUnixSeconds else { return false }
        return written >= started
    }

    /// What the daemon's idle tap starts: the flags' first session (until a session has started), the
    /// settings' defaults when they changed since the last session, else the last session again — its
    /// mode, interval and count, with the current settings applied (a Fear one as `FearPermission`
    /// lets a mode from defaults run).
    public static func nextConfiguration(firstFromFlags: Bool, flags: SessionFlags, settings: SessionSettings, board: BoardTiming,
                                         last: SessionConfiguration?, defaultsChangedSinceLast: Bool,
                                         pattern: (TrainingInterval) -> HapticPattern?) throws(ConfigurationError) -> SessionConfiguration {
        if firstFromFlags && flags.choosesSession {
            // Unnamed fields of the first session come from the last one, as an idle tap would.
            var first = flags
            if let last, !defaultsChangedSinceLast {
                first.mode = flags.mode ?? last.mode
                first.interval = flags.interval ?? last.interval
            }
            return try configuration(flags: first, settings: settings, board: board, pattern: pattern)
        }
        guard let last, !defaultsChangedSinceLast else {
            var fromSettings = flags
            fromSettings.mode = nil
            fromSettings.interval = nil
            fromSettings.attempts = nil
            fromSettings.repetitions = nil
            return try configuration(flags: fromSettings, settings: settings, board: board, pattern: pattern)
        }
        return try configuration(
            mode: fearPermission(flags: flags, settings: settings).mode(fromDefaults: last.mode),
            interval: last.interval, count: last.plannedCount,
            defaults: defaults(flags: flags, settings: settings, board: board),
            pattern: pattern(last.interval) ?? last.intervalPattern)
    }
}
