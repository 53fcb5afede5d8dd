import ArgumentParser
import ChronoCore
import ChronoDevice

/// The timing parameters shared by every command that runs a session (`replay`, the live session
/// commands, the daemon). Each is nil unless given, so that an explicit value always wins over the
/// settings and the board (`SessionResolver`), even when it equals the built-in default.
struct SessionTimingOptions: ParsableArguments {
    @Option(name: .customLong("debounce-ms"), help: "Edges within this many ms after an accepted change are one bounce burst (default: the board's button.debounce_ms; replay: 30).")
    var debounceMilliseconds: Int64?

    @Option(name: .customLong("long-press-ms"), help: "Holding this long (ms) is a long press (default: the long-press-ms setting when changed, else the board's long_press_ms; replay: 1500).")
    var longPressMilliseconds: Int64?

    @Option(name: .customLong("feedback-ms"), help: "How long feedback shows before the next attempt can start (ms, default 1500).")
    var feedbackMilliseconds: Int64?

    @Option(name: .customLong("abort-window-ms"), help: "A second long press within this many ms of the first discards the session (default 5000).")
    var abortWindowMilliseconds: Int64?

    @Flag(name: .customLong("auto-start"), inversion: .prefixedNo,
          help: "Start the next attempt by itself when feedback ends (default: the auto-start setting).")
    var autoStart: Bool?

    /// The accepted range of each timing flag, in milliseconds: wide enough for any person and any
    /// button, narrow enough that no sum of them can overflow (`TimeLimits`).
    static let debounceRange: ClosedRange<Int64> = 0...1000
    static let longPressRange: ClosedRange<Int64> = 100...TimeLimits.maximumTimingMilliseconds
    static let feedbackRange: ClosedRange<Int64> = 0...TimeLimits.maximumTimingMilliseconds
    static let abortWindowRange: ClosedRange<Int64> = 1...TimeLimits.maximumTimingMilliseconds

    func validate() throws {
        if let debounceMilliseconds {
            try BoundedNumber.check(debounceMilliseconds, in: Self.debounceRange, flag: "--debounce-ms", unit: "ms")
        }
        if let longPressMilliseconds {
            try BoundedNumber.check(longPressMilliseconds, in: Self.longPressRange, flag: "--long-press-ms", unit: "ms")
            guard longPressMilliseconds > (debounceMilliseconds ?? 0) else {
                throw ValidationError("--long-press-ms (\(longPressMilliseconds)) must be longer than --debounce-ms (\(debounceMilliseconds ?? 0)).")
            }
        }
        if let feedbackMilliseconds {
            try BoundedNumber.check(feedbackMilliseconds, in: Self.feedbackRange, flag: "--feedback-ms", unit: "ms")
        }
        if let abortWindowMilliseconds {
            try BoundedNumber.check(abortWindowMilliseconds, in: Self.abortWindowRange, flag: "--abort-window-ms", unit: "ms")
        }
    }

    /// The flags as the resolver takes them.
    func apply(to flags: inout SessionFlags) {
        flags.debounceMilliseconds = debounceMilliseconds
        flags.longPressMilliseconds = longPressMilliseconds
        flags.feedbackMilliseconds = feedbackMilliseconds
        flags.abortWindowMilliseconds = abortWindowMilliseconds
        flags.autoStart = autoStart
    }
}

extension SessionMode: ExpressibleByArgument {}

extension FeedbackPolicy: ExpressibleByArgument {}

/// Parses an `--interval` value, failing with the core's own message (what is wrong and how to write it).
func parseInterval(_ text: String) throws -> TrainingInterval {
    do { return try TrainingInterval.parse(text) } catch { throw ValidationError(error.description) }
}

/// Turns a core error into a clean command-line failure: the message, and exit status 1 or 64.
func usageFailure(_ error: some Error) -> ValidationError {
    ValidationError(String(describing: error))
}
