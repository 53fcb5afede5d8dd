import ArgumentParser
import ChronoCore

/// The timing parameters shared by every command that runs a session (`replay`, the live session
/// commands, the daemon). The defaults are the device's own.
struct SessionTimingOptions: ParsableArguments {
    @Option(name: .customLong("debounce-ms"), help: "Edges within this many ms after an accepted change are one bounce burst.")
    var debounceMilliseconds: Int64 = GestureSettings.defaultDebounce.milliseconds

    @Option(name: .customLong("long-press-ms"), help: "Holding this long (ms) is a long press.")
    var longPressMilliseconds: Int64 = GestureSettings.defaultLongPress.milliseconds

    @Option(name: .customLong("feedback-ms"), help: "How long feedback shows before the next attempt can start (ms).")
    var feedbackMilliseconds: Int64 = SessionTiming.defaultFeedbackDuration.milliseconds

    @Option(name: .customLong("abort-window-ms"), help: "A second long press within this many ms of the first discards the session.")
    var abortWindowMilliseconds: Int64 = SessionTiming.defaultAbortConfirmWindow.milliseconds

    @Flag(name: .customLong("auto-start"), help: "Start the next attempt by itself when feedback ends.")
    var autoStart = false

    /// The accepted range of each timing flag, in milliseconds: wide enough for any person and any
    /// button, narrow enough that no sum of them can overflow (`TimeLimits`).
    static let debounceRange: ClosedRange<Int64> = 0...1000
    static let longPressRange: ClosedRange<Int64> = 100...TimeLimits.maximumTimingMilliseconds
    static let feedbackRange: ClosedRange<Int64> = 0...TimeLimits.maximumTimingMilliseconds
    static let abortWindowRange: ClosedRange<Int64> = 1...TimeLimits.maximumTimingMilliseconds

    func validate() throws {
        try BoundedNumber.check(debounceMilliseconds, in: Self.debounceRange, flag: "--debounce-ms", unit: "ms")
        try BoundedNumber.check(longPressMilliseconds, in: Self.longPressRange, flag: "--long-press-ms", unit: "ms")
        try BoundedNumber.check(feedbackMilliseconds, in: Self.feedbackRange, flag: "--feedback-ms", unit: "ms")
        try BoundedNumber.check(abortWindowMilliseconds, in: Self.abortWindowRange, flag: "--abort-window-ms", unit: "ms")
        guard longPressMilliseconds > debounceMilliseconds else {
            throw ValidationError("--long-press-ms (\(longPressMilliseconds)) must be longer than --debounce-ms (\(debounceMilliseconds)).")
        }
    }

    var timing: SessionTiming {
        SessionTiming(
            feedbackDuration: .milliseconds(feedbackMilliseconds),
            abortConfirmWindow: .milliseconds(abortWindowMilliseconds),
            autoStartNextAttempt: autoStart)
    }

    var gestures: GestureSettings {
        GestureSettings(debounce: .milliseconds(debounceMilliseconds), longPress: .milliseconds(longPressMilliseconds))
    }
}

extension SessionMode: ExpressibleByArgument {}

/// Parses an `--interval` value, failing with the core's own message (what is wrong and how to write it).
func parseInterval(_ text: String) throws -> TrainingInterval {
    do { return try TrainingInterval.parse(text) } catch { throw ValidationError(error.description) }
}

/// Turns a core error into a clean command-line failure: the message, and exit status 1 or 64.
func usageFailure(_ error: some Error) -> ValidationError {
    ValidationError(String(describing: error))
}
