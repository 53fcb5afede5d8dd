/// Everything a session needs to know before it starts; validated at construction.
public struct SessionConfiguration: Hashable, Sendable {
    public static let defaultAttemptCount = 1
    public static let defaultRepetitionCount = 6
    public static let defaultFearThreshold = 0.10
    /// The largest Fear threshold a session can hold: an error ten times the interval.
    public static let maximumFearThreshold = 10.0
    public static let countRange = 1...99

    public var mode: SessionMode
    public var interval: TrainingInterval
    /// Attempts for Challenge and Fear (`attempt_count`), repetitions for Passive (`repetition_count`).
    public var plannedCount: Int
    /// `fear_threshold_percent`, a fraction: 0.10 means 10 %.
    public var fearThreshold: Double
    /// H(I): the pattern Passive plays at each boundary.
    public var intervalPattern: HapticPattern
    public var timing: SessionTiming
    public var gestures: GestureSettings
    /// Whether the person gets per-attempt feedback (`.shown`, the default) or only a neutral cue per
    /// press (`.withheld`, a feedback-off study block). Passive has no attempts, so nothing to withhold.
    public var feedback: FeedbackPolicy

    public init(
        mode: SessionMode,
        interval: TrainingInterval,
        plannedCount: Int? = nil,
        fearThreshold: Double = defaultFearThreshold,
        intervalPattern: HapticPattern = IntervalPatternBook.candidates[0],
        timing: SessionTiming = SessionTiming(),
        gestures: GestureSettings = GestureSettings(),
        feedback: FeedbackPolicy = .shown
    ) throws(ConfigurationError) {
        let count = plannedCount ?? (mode.usesAttempts ? Self.defaultAttemptCount : Self.defaultRepetitionCount)
        guard Self.countRange.contains(count) else {
            throw mode.usesAttempts ? .attemptCountOutOfRange(count) : .repetitionCountOutOfRange(count)
        }
        guard fearThreshold > 0, fearThreshold <= Self.maximumFearThreshold else { throw .fearThresholdOutOfRange(fearThreshold) }
        guard IntervalPatternBook.admits(intervalPattern) else {
            throw .notAnIntervalPattern(intervalPattern.description)
        }
        guard gestures.debounce >= .zero, gestures.debounce < gestures.longPress else {
            throw .gestureTimingInvalid(debounceMilliseconds: gestures.debounce.milliseconds,
                                        longPressMilliseconds: gestures.longPress.milliseconds)
        }
        guard timing.feedbackDuration >= .zero, timing.abortConfirmWindow > .zero else {
            throw .sessionTimingInvalid
        }
        self.mode = mode
        self.interval = interval
        self.plannedCount = count
        self.fearThreshold = fearThreshold
        self.intervalPattern = intervalPattern
        self.timing = timing
        self.gestures = gestures
        self.feedback = feedback
    }
}

/// The timing of a session's own steps. The defaults are the device's and `replay`'s.
public struct SessionTiming: Hashable, Sendable {
    /// How long feedback shows before the next attempt can start (presses meanwhile are ignored).
    public var feedbackDuration: TimeSpan
    /// After a long press asks to discard, a second long press within this window discards.
    public var abortConfirmWindow: TimeSpan
    /// Start the next attempt by itself when the feedback ends (its start mark is that instant).
    public var autoStartNextAttempt: Bool

    public static let defaultFeedbackDuration = TimeSpan.milliseconds(1500)
    public static let defaultAbortConfirmWindow = TimeSpan.milliseconds(5000)

    public init(
        feedbackDuration: TimeSpan = defaultFeedbackDuration,
        abortConfirmWindow: TimeSpan = defaultAbortConfirmWindow,
        autoStartNextAttempt: Bool = false
    ) {
        self.feedbackDuration = feedbackDuration
        self.abortConfirmWindow = abortConfirmWindow
        self.autoStartNextAttempt = autoStartNextAttempt
    }
}

/// Why a session configuration was refused; the message names the problem and the fix.
public enum ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownMode(String)
    case attemptCountOutOfRange(Int)
    case repetitionCountOutOfRange(Int)
    case fearThresholdOutOfRange(Double)
    case notAnIntervalPattern(String)
    case gestureTimingInvalid(debounceMilliseconds: Int64, longPressMilliseconds: Int64)
    case sessionTimingInvalid
    case unknownFeedbackPolicy(String)

    public var description: String {
        switch self {
        case .unknownMode(let text):
            return "'\(text)' is not a mode. Use \(SessionMode.listText)."
        case .attemptCountOutOfRange(let count):
            return "\(count) attempts is out of range: use 1 to \(SessionConfiguration.countRange.upperBound)."
        case .repetitionCountOutOfRange(let count):
            return "\(count) repetitions is out of range: use 1 to \(SessionConfiguration.countRange.upperBound)."
        case .fearThresholdOutOfRange(let value):
            return "Fear threshold \(value) is out of range: give a fraction above 0 and at most \(Int(SessionConfiguration.maximumFearThreshold)), for example 0.10 for 10 %."
        case .notAnIntervalPattern(let text):
            return "\(TerminalSafeText.quoted(text)) is not an interval pattern: use 1 to \(IntervalPatternBook.maximumPulses) short (S) and long (L) pulses only."
        case .gestureTimingInvalid(let debounce, let longPress):
            return "Debounce \(debounce) ms must be at least 0 and shorter than the long press (\(longPress) ms)."
        case .sessionTimingInvalid:
            return "Feedback duration must be 0 or more and the abort-confirm window more than 0."
        case .unknownFeedbackPolicy(let text):
            return "'\(text)' is not a feedback policy. Use shown or withheld."
        }
    }
}
