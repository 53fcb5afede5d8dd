import ChronoCore
import ChronoHardware
import ChronoRuntime
import ChronoStore
import ChronoSync

/// What the command line said about a session; nil: not given. An explicit value always wins over the
/// settings and the board, even when it equals the built-in default.
public struct SessionFlags: Hashable, Sendable {
    public var mode: SessionMode?
    public var interval: TrainingInterval?
    public var attempts: Int?
    public var repetitions: Int?
    public var fearThreshold: Double?
    public var debounceMilliseconds: Int64?
    public var longPressMilliseconds: Int64?
    public var feedbackMilliseconds: Int64?
    public var abortWindowMilliseconds: Int64?
    public var autoStart: Bool?
    /// `--i-understand-fear-mode`.
    public var fearOptIn = false

    /// Nothing given: every field from the settings and the board.
    public init() {}

    /// The count given for `mode`: attempts for Challenge and Fear, repetitions for Passive.
    public func count(for mode: SessionMode) -> Int? { mode.usesAttempts ? attempts : repetitions }

    /// Whether any of the session's own choices (mode, interval, count) was given.
    public var choosesSession: Bool { mode != nil || interval != nil || attempts != nil || repetitions != nil }
}

/// The board file's part of a session: how long a long press is on this device, how long its button bounces.
public struct BoardTiming: Hashable, Sendable {
    public var longPressMilliseconds: Int64
    public var debounceMilliseconds: Int64

    public init(longPressMilliseconds: Int64, debounceMilliseconds: Int64) {
        self.longPressMilliseconds = longPressMilliseconds
        self.debounceMilliseconds = debounceMilliseconds
    }

    public init(_ board: BoardConfiguration) {
        self.init(longPressMilliseconds: Int64(board.longPressMilliseconds),
                  debounceMilliseconds: Int64(board.button.debounceMilliseconds))
    }
}

/// The one place that turns board + settings + command-line flags into a session's configuration, for
/// the single-session commands and the daemon alike (the daemon at the start of every session, from
/// the current settings). Precedence, field by field:
///
/// | field | order |
/// |---|---|
/// | mode, interval, attempts/repetitions, Fear threshold | flag, then setting |
/// | long press | flag, then `long-press-ms` when changed from 1500, then the board's `long_press_ms` |
/// | debounce (gestures and the kernel's) | flag, then the board's `button.debounce_ms` |
/// | feedback, abort window | flag, then the built-in default |
/// | auto-start | `--auto-start`/`--no-auto-start`, then `auto-start` |
/// | Fear allowed | `--i-understand-fear-mode` or `fear-mode on` |
public enum SessionResolver {
    public static func gestures(flags: SessionFlags, settings: StoreSettings, board: BoardTiming) -> GestureSettings {
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

    public static func timing(flags: SessionFlags, settings: StoreSettings) -> SessionTiming {
        SessionTiming(
            feedbackDuration: flags.feedbackMilliseconds.map { .milliseconds($0) } ?? SessionTiming.defaultFeedbackDuration,
            abortConfirmWindow: flags.abortWindowMilliseconds.map { .milliseconds($0) } ?? SessionTiming.defaultAbortConfirmWindow,
            autoStartNextAttempt: flags.autoStart ?? settings.autoStartNextAttempt)
    }

    public static func fearAllowed(flags: SessionFlags, settings: StoreSettings) -> Bool {
        flags.fearOptIn || settings.fearModeEnabled
    }

    /// The settings' part of every session (what the daemon applies to whatever it starts).
    public static func defaults(flags: SessionFlags, settings: StoreSettings, board: BoardTiming) -> SessionDefaults {
        SessionDefaults(timing: timing(flags: flags, settings: settings),
                        gestures: gestures(flags: flags, settings: settings, board: board),
                        fearThreshold: flags.fearThreshold ?? settings.fearThreshold,
                        attempts: flags.attempts ?? settings.defaultAttempts,
                        repetitions: flags.repetitions ?? settings.defaultRepetitions)
    }

    /// A session of `mode` (the command's, or the flag's, or the setting's): interval and count from the
    /// flags, else the settings. `pattern` is the interval's H(I) when known.
    public static func configuration(mode: SessionMode? = nil, flags: SessionFlags, settings: StoreSettings, board: BoardTiming,
                              pattern: (TrainingInterval) -> HapticPattern? = { _ in nil }) throws(ConfigurationError) -> SessionConfiguration {
        let chosenMode = mode ?? flags.mode ?? settings.defaultMode
        let interval = flags.interval ?? settings.defaultInterval
        let defaults = defaults(flags: flags, settings: settings, board: board)
        return try SessionConfiguration(
            mode: chosenMode, interval: interval,
            plannedCount: flags.count(for: chosenMode) ?? (chosenMode.usesAttempts ? defaults.attempts : defaults.repetitions),
            fearThreshold: defaults.fearThreshold,
            intervalPattern: pattern(interval) ?? IntervalPatternBook.candidates[0],
            timing: defaults.timing, gestures: defaults.gestures)
    }

    /// The settings whose change makes the idle tap start the defaults instead of the last session.
    public static let sessionDefaultKeys: [SettingKey] = [.defaultMode, .defaultInterval, .defaultAttempts, .defaultRepetitions]

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
    /// mode, interval and count, with the current settings applied.
    public static func nextConfiguration(firstFromFlags: Bool, flags: SessionFlags, settings: StoreSettings, board: BoardTiming,
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
        let defaults = defaults(flags: flags, settings: settings, board: board)
        return try SessionConfiguration(
            mode: last.mode == .fear && !fearAllowed(flags: flags, settings: settings) ? .challenge : last.mode,
            interval: last.interval, plannedCount: last.plannedCount, fearThreshold: defaults.fearThreshold,
            intervalPattern: pattern(last.interval) ?? last.intervalPattern,
            timing: defaults.timing, gestures: defaults.gestures)
    }
}
