import Testing
import ChronoCore

/// The resolver's precedence table (its doc comment), row by row with exact values, and the Fear rule
/// it asks. Board: long press 1200 ms, debounce 10 ms.
@Suite("One resolver: board + settings + flags → the session")
struct SessionResolverTests {
    let board = BoardTiming(longPressMilliseconds: 1200, debounceMilliseconds: 10)

    /// Settings that differ from the built-in defaults in every session field.
    var changedSettings: SessionSettings {
        SessionSettings(defaultMode: .passive, defaultInterval: try! TrainingInterval(seconds: 420), defaultAttempts: 4,
                        defaultRepetitions: 9, fearModeOn: false, fearThreshold: 0.2, autoStartNextAttempt: true,
                        longPress: .milliseconds(3000))
    }

    @Test("Row 1 — mode, interval, attempts/repetitions, Fear threshold: the flag, then the setting")
    func sessionChoices() throws {
        let fromSettings = try SessionResolver.configuration(flags: SessionFlags(), settings: changedSettings, board: board)
        #expect(fromSettings.mode == .passive)
        #expect(fromSettings.interval.seconds == 420)
        #expect(fromSettings.plannedCount == 9)
        #expect(fromSettings.fearThreshold == 0.2)
        // A Challenge named by the command takes the attempts setting.
        #expect(try SessionResolver.configuration(mode: .challenge, flags: SessionFlags(), settings: changedSettings, board: board).plannedCount == 4)

        var flags = SessionFlags()
        flags.mode = .challenge
        flags.interval = try TrainingInterval(seconds: 90)
        flags.attempts = 1
        flags.fearThreshold = 0.1
        let fromFlags = try SessionResolver.configuration(flags: flags, settings: changedSettings, board: board)
        #expect(fromFlags.mode == .challenge)
        #expect(fromFlags.interval.seconds == 90)
        #expect(fromFlags.plannedCount == 1)
        #expect(fromFlags.fearThreshold == 0.1)
        // The command's own mode wins over the flag's; the count follows the mode that runs.
        flags.repetitions = 12
        let passive = try SessionResolver.configuration(mode: .passive, flags: flags, settings: changedSettings, board: board)
        #expect(passive.mode == .passive && passive.plannedCount == 12)
    }

    @Test("Row 2 — long press: the flag (even at 1500), then long-press-ms when changed from 1500, then the board")
    func longPress() {
        var flags = SessionFlags()
        flags.longPressMilliseconds = 1500
        #expect(SessionResolver.gestures(flags: flags, settings: changedSettings, board: board).longPress == .milliseconds(1500))
        #expect(SessionResolver.gestures(flags: SessionFlags(), settings: changedSettings, board: board).longPress == .milliseconds(3000))
        #expect(SessionResolver.gestures(flags: SessionFlags(), settings: SessionSettings(), board: board).longPress == .milliseconds(1200))
    }

    @Test("Row 3 — debounce, the gestures' and the kernel's: the flag (0 too), then the board's button.debounce_ms")
    func debounce() {
        var flags = SessionFlags()
        #expect(SessionResolver.debounceMilliseconds(flags: flags, board: board) == 10)
        #expect(SessionResolver.gestures(flags: flags, settings: changedSettings, board: board).debounce == .milliseconds(10))
        flags.debounceMilliseconds = 7
        #expect(SessionResolver.debounceMilliseconds(flags: flags, board: board) == 7)
        #expect(SessionResolver.gestures(flags: flags, settings: changedSettings, board: board).debounce == .milliseconds(7))
        flags.debounceMilliseconds = 0
        #expect(SessionResolver.debounceMilliseconds(flags: flags, board: board) == 0)
        #expect(SessionResolver.gestures(flags: flags, settings: changedSettings, board: board).debounce == .zero)
    }

    @Test("Row 4 — feedback and abort window: the flag, then the built-in 1500 ms and 5000 ms")
    func feedbackAndAbortWindow() {
        let builtIn = SessionResolver.timing(flags: SessionFlags(), settings: changedSettings)
        #expect(builtIn.feedbackDuration == .milliseconds(1500))
        #expect(builtIn.abortConfirmWindow == .milliseconds(5000))
        var flags = SessionFlags()
        flags.feedbackMilliseconds = 100
        flags.abortWindowMilliseconds = 900
        let given = SessionResolver.timing(flags: flags, settings: changedSettings)
        #expect(given.feedbackDuration == .milliseconds(100))
        #expect(given.abortConfirmWindow == .milliseconds(900))
    }

    @Test("Row 5 — auto-start: --auto-start/--no-auto-start, then the auto-start setting")
    func autoStart() {
        var flags = SessionFlags()
        #expect(SessionResolver.timing(flags: flags, settings: changedSettings).autoStartNextAttempt == true)
        #expect(SessionResolver.timing(flags: flags, settings: SessionSettings()).autoStartNextAttempt == false)
        flags.autoStart = false
        #expect(SessionResolver.timing(flags: flags, settings: changedSettings).autoStartNextAttempt == false)
        flags.autoStart = true
        #expect(SessionResolver.timing(flags: flags, settings: SessionSettings()).autoStartNextAttempt == true)
    }

    @Test("Row 6 — Fear allowed: --i-understand-fear-mode or fear-mode on")
    func fearAllowed() {
        for (optIn, settingOn, allowed) in [(false, false, false), (true, false, true), (false, true, true), (true, true, true)] {
            var flags = SessionFlags()
            flags.fearOptIn = optIn
            let settings = SessionSettings(fearModeOn: settingOn)
            #expect(SessionResolver.fearPermission(flags: flags, settings: settings).allowed == allowed)
        }
    }

    @Test("A Fear default runs as Challenge without the opt-in, as Fear with the flag or the setting")
    func fearDefault() throws {
        let fearDefault = SessionSettings(defaultMode: .fear)
        #expect(try SessionResolver.configuration(flags: SessionFlags(), settings: fearDefault, board: board).mode == .challenge)
        var optedIn = SessionFlags()
        optedIn.fearOptIn = true
        #expect(try SessionResolver.configuration(flags: optedIn, settings: fearDefault, board: board).mode == .fear)
        var settingOn = fearDefault
        settingOn.fearModeOn = true
        #expect(try SessionResolver.configuration(flags: SessionFlags(), settings: settingOn, board: board).mode == .fear)
    }

    @Test("Every field at once: the configuration a session runs with")
    func wholeConfiguration() throws {
        var flags = SessionFlags()
        flags.debounceMilliseconds = 20
        flags.feedbackMilliseconds = 800
        let pattern = IntervalPatternBook.candidates[2]
        let configuration = try SessionResolver.configuration(flags: flags, settings: changedSettings, board: board,
                                                              pattern: { $0.seconds == 420 ? pattern : nil })
        #expect(configuration == (try SessionConfiguration(
            mode: .passive, interval: TrainingInterval(seconds: 420), plannedCount: 9, fearThreshold: 0.2, intervalPattern: pattern,
            timing: SessionTiming(feedbackDuration: .milliseconds(800), abortConfirmWindow: .milliseconds(5000), autoStartNextAttempt: true),
            gestures: GestureSettings(debounce: .milliseconds(20), longPress: .milliseconds(3000)))))
    }

    @Test("No board and no settings (replay): the built-in 30 ms debounce, 1500 ms long press, 1 attempt")
    func builtIn() throws {
        let configuration = try SessionResolver.configuration(mode: .challenge, flags: SessionFlags(), settings: SessionSettings(), board: .builtIn)
        #expect(configuration == (try SessionConfiguration(mode: .challenge, interval: .builtInPreset)))
        #expect(configuration.gestures == GestureSettings(debounce: .milliseconds(30), longPress: .milliseconds(1500)))
        #expect(configuration.plannedCount == 1)
    }

    @Test("The daemon's next session: the last one again with current settings; the defaults once they change")
    func daemonNextConfiguration() throws {
        let settings = SessionSettings(longPress: .milliseconds(2500))
        let last = try SessionConfiguration(mode: .passive, interval: TrainingInterval(seconds: 600), plannedCount: 3)
        let again = try SessionResolver.nextConfiguration(
            firstFromFlags: false, flags: SessionFlags(), settings: settings, board: board, last: last,
            defaultsChangedSinceLast: false, pattern: { _ in nil })
        #expect(again.mode == .passive && again.interval.seconds == 600 && again.plannedCount == 3)
        #expect(again.gestures.longPress == .milliseconds(2500))
        #expect(again.intervalPattern == last.intervalPattern)
        let defaults = try SessionResolver.nextConfiguration(
            firstFromFlags: false, flags: SessionFlags(), settings: settings, board: board, last: last,
            defaultsChangedSinceLast: true, pattern: { _ in nil })
        #expect(defaults.mode == .challenge && defaults.interval == .builtInPreset && defaults.plannedCount == 1)
    }

    @Test("The daemon's first tap: the flags' session, unnamed fields from the last one")
    func daemonFirstFromFlags() throws {
        var flags = SessionFlags()
        flags.attempts = 5
        let last = try SessionConfiguration(mode: .challenge, interval: TrainingInterval(seconds: 600), plannedCount: 3)
        let first = try SessionResolver.nextConfiguration(
            firstFromFlags: true, flags: flags, settings: SessionSettings(), board: board, last: last,
            defaultsChangedSinceLast: false, pattern: { _ in nil })
        #expect(first.mode == .challenge && first.interval.seconds == 600 && first.plannedCount == 5)
    }

    @Test("The last session in Fear runs again as Challenge once the opt-in is gone, as Fear while it holds")
    func lastFearWithoutOptIn() throws {
        let last = try SessionConfiguration(mode: .fear, interval: TrainingInterval(seconds: 60), plannedCount: 2)
        let withoutOptIn = try SessionResolver.nextConfiguration(
            firstFromFlags: false, flags: SessionFlags(), settings: SessionSettings(), board: board, last: last,
            defaultsChangedSinceLast: false, pattern: { _ in nil })
        #expect(withoutOptIn.mode == .challenge && withoutOptIn.plannedCount == 2)
        var flags = SessionFlags()
        flags.fearOptIn = true
        let optedIn = try SessionResolver.nextConfiguration(
            firstFromFlags: false, flags: flags, settings: SessionSettings(), board: board, last: last,
            defaultsChangedSinceLast: false, pattern: { _ in nil })
        #expect(optedIn.mode == .fear)
    }

    @Test("The restart rule: a default written at or after the last session's start second counts as changed since it")
    func defaultsChanged() {
        #expect(SessionResolver.defaultsChangedAfterLastSession(lastStartedUnixSeconds: 1_000, defaultsWrittenUnixSeconds: 1_001))
        #expect(SessionResolver.defaultsChangedAfterLastSession(lastStartedUnixSeconds: 1_000, defaultsWrittenUnixSeconds: 1_000))
        #expect(!SessionResolver.defaultsChangedAfterLastSession(lastStartedUnixSeconds: 1_000, defaultsWrittenUnixSeconds: 999))
        #expect(!SessionResolver.defaultsChangedAfterLastSession(lastStartedUnixSeconds: 1_000, defaultsWrittenUnixSeconds: nil))
        #expect(!SessionResolver.defaultsChangedAfterLastSession(lastStartedUnixSeconds: nil, defaultsWrittenUnixSeconds: 1_000))
    }
}
