import ArgumentParser
import ChronoCommandLine
import ChronoCore
import ChronoSimulation
import Foundation

/// `chronoception replay`: one session through the real engine from a file of button edges, with no
/// hardware and no waiting; prints the outcome as JSON (format in docs/REPLAY.md).
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run one session through the engine from a file of button edges and print the outcome as JSON.",
        discussion: ReplayScript.grammar + " Use - to read the edges from standard input.")

    @Argument(help: "The edge file, or - for standard input.")
    var edges: String

    @Option(help: "challenge, fear, passive or reproduction.")
    var mode: SessionMode = .challenge

    @Option(help: "The interval: 300, 300s, 5m, 5m0s, 5m 0s or 1m30s (10s to 120m 59s).")
    var interval: String

    @Option(help: "Attempts (Challenge, Fear, Reproduction). Default 1.")
    var attempts: Int?

    @Option(help: "Repetitions (Passive). Default 6.")
    var repetitions: Int?

    @Option(name: .customLong("fear-threshold"), help: "Fear threshold as a fraction (0.10 = 10 %).")
    var fearThreshold: Double = SessionConfiguration.defaultFearThreshold

    @Option(help: "shown (per-attempt feedback) or withheld (a neutral recorded cue per press, as in a feedback-off study block).")
    var feedback: FeedbackPolicy = .shown

    @Flag(inversion: .prefixedNo, help: "Whether sound is audible at session start (Fear).")
    var soundAudible = true

    @Option(name: .customLong("wall-clock-start"), help: "Wall-clock time of session start: ISO 8601 with offset (2026-11-23T08:00:00+01:00) or Unix seconds (shown in UTC). Default: now.")
    var wallClockStart: String?

    @Option(name: .customLong("session-id"), help: "The session's UUID (default: derived from the inputs, so replays are repeatable).")
    var sessionID: String?

    @Option(help: "The device name written into the health record.")
    var device: String = "desktop"

    @Option(help: "H(I), the interval pattern Passive plays at each boundary, in S/L notation.")
    var pattern: String = IntervalPatternBook.candidates[0].description

    @OptionGroup var timingOptions: SessionTimingOptions

    @Flag(help: "Print the JSON on one line.")
    var compact = false

    func validate() throws {
        if mode.usesAttempts, repetitions != nil {
            throw ValidationError("--repetitions is for Passive; use --attempts with \(mode.rawValue).")
        }
        if !mode.usesAttempts, attempts != nil {
            throw ValidationError("--attempts is for Challenge, Fear and Reproduction; use --repetitions with passive.")
        }
        if !mode.usesAttempts, feedback == .withheld {
            throw ValidationError("--feedback withheld is for modes with attempts; Passive gives no feedback to withhold.")
        }
        _ = try sessionConfiguration()
        _ = try wallClockAnchor()
        if let sessionID { _ = try SessionIDText.validated(sessionID, flag: "--session-id") }
        guard !device.isEmpty, device.count <= 200, !device.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw ValidationError("--device \(TerminalSafeText.quoted(device)) is not a device name: give 1 to 200 characters without control characters.")
        }
    }

    /// The configuration from the options; its errors are usage errors (shown with this command's usage).
    private func sessionConfiguration() throws -> SessionConfiguration {
        let parsedInterval: TrainingInterval
        do { parsedInterval = try TrainingInterval.parse(interval) } catch { throw usageFailure(error) }
        guard let parsedPattern = HapticPattern(notation: pattern) else {
            throw ValidationError("'\(pattern)' is not a pattern: write short (S) and long (L) pulses, for example 'S L'.")
        }
        var flags = SessionFlags()
        flags.interval = parsedInterval
        flags.attempts = attempts
        flags.repetitions = repetitions
        flags.fearThreshold = fearThreshold
        flags.feedback = feedback
        timingOptions.apply(to: &flags)
        // No store and no board: the resolver's built-in settings and board timing stand in for them.
        do {
            return try SessionResolver.configuration(mode: mode, flags: flags, settings: SessionSettings(), board: .builtIn,
                                                     pattern: { _ in parsedPattern })
        } catch { throw usageFailure(error) }
    }

    func run() throws {
        let configuration = try sessionConfiguration()
        let parsedInterval = configuration.interval
        let (text, source) = try readEdges()
        let script: ReplayScript
        do { script = try ReplayScript.parse(text, source: source) } catch { throw CommandFailure(error) }

        let anchor = try wallClockAnchor()
        let identifier = try sessionID.map { try SessionIDText.validated($0, flag: "--session-id") } ?? SessionIdentifier.derived(
            from: "replay|\(mode)|\(parsedInterval.seconds)|\(configuration.plannedCount)|\(anchor.unixNanoseconds)|\(text)")
        let transcript = VirtualClock.run(configuration: configuration, soundAudible: soundAudible, inputs: script.events)
        let report = ReplayReport.build(
            transcript: transcript, configuration: configuration, soundAudible: soundAudible,
            anchor: anchor, sessionID: identifier, device: device)
        print(compact ? report.compactText : report.prettyText)
    }

    private func readEdges() throws -> (String, String) {
        let source = edges == "-" ? "standard input" : "The edge file " + TerminalSafeText.quoted(edges, limit: 200)
        let data = try InputFile.read(edges == "-" ? nil : edges, what: source, limit: Self.maximumEdgeFileBytes)
        guard let text = String(validating: data, as: UTF8.self) else {
            throw CommandFailure(ReplayScriptError.notText(source: source))
        }
        return (text, edges == "-" ? "standard input" : edges)
    }

    /// An edge file of a day of presses every 10 ms is about 6 MB; anything past this is not one.
    static let maximumEdgeFileBytes = 64 << 20

    private func wallClockAnchor() throws -> WallClockAnchor {
        if let wallClockStart {
            let shown = TerminalSafeText.quoted(wallClockStart)
            if let seconds = Double(wallClockStart) {
                // A bare small number is far more likely a year or a typo than a date in the 1970s.
                guard seconds.isFinite, seconds >= 1e9, seconds < Double(TimeLimits.endUnixSeconds) else {
                    throw ValidationError("--wall-clock-start \(shown) is not a plausible Unix time: give seconds since 1970 from 1000000000 to \(TimeLimits.endUnixSeconds - 1) (2001 to 2099), or ISO 8601 with an offset, for example 2026-11-23T08:00:00+01:00.")
                }
                return WallClockAnchor(unixNanoseconds: Int64((seconds * 1e9).rounded()), monotonic: .zero, utcOffsetSeconds: 0)
            }
            if let year = Int(wallClockStart.prefix(4)), wallClockStart.dropFirst(4).first == "-", year < 1970 || year > 2099 {
                throw ValidationError("--wall-clock-start \(shown) is out of range: dates go \(TimeLimits.wallClockRangeText).")
            }
            guard let wall = WallTime(parsing: wallClockStart) else {
                throw ValidationError("--wall-clock-start \(shown) is neither ISO 8601 with an offset (for example 2026-11-23T08:00:00+01:00 or 2026-11-23T07:00:00Z) nor Unix seconds.")
            }
            guard TimeLimits.isAcceptedWallClock(unixNanoseconds: wall.unixNanoseconds) else {
                throw ValidationError("--wall-clock-start \(shown) is out of range: dates go \(TimeLimits.wallClockRangeText).")
            }
            return WallClockAnchor(unixNanoseconds: wall.unixNanoseconds, monotonic: .zero, utcOffsetSeconds: wall.utcOffsetSeconds)
        }
        let now = Date()
        return WallClockAnchor(
            unixNanoseconds: Int64(now.timeIntervalSince1970 * 1e9), monotonic: .zero,
            utcOffsetSeconds: TimeZone.current.secondsFromGMT(for: now))
    }
}
