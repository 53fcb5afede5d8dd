import ChronoCore
import ChronoRuntime
import ChronoStore
import ChronoSync
import Foundation
import Testing
@testable import ChronoCLI
@testable import ChronoDevice

/// A store in a fresh temporary directory, removed by `remove()`.
struct ScratchStore {
    let directory: String
    let store: ChronoStore

    init() throws {
        var template = Array("/tmp/chrono-cli-test-XXXXXX".utf8CString)
        directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        store = try ChronoStore.open(StoreLocation(directory: directory))
    }

    func set(_ key: SettingKey, _ value: String) throws {
        try store.setSetting(key, to: value, nowUnixSeconds: 1_795_000_000)
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}

@Suite("One resolver: board + settings + flags → the session")
struct SessionResolverTests {
    let board = BoardTiming(longPressMilliseconds: 1200, debounceMilliseconds: 10)

    @Test("An explicit flag wins even when it equals the built-in default")
    func explicitFlagWins() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let settings = try scratch.store.settings()
        var flags = SessionFlags()
        flags.longPressMilliseconds = 1500
        flags.debounceMilliseconds = 30
        let gestures = SessionResolver.gestures(flags: flags, settings: settings, board: board)
        #expect(gestures.longPress == .milliseconds(1500))
        #expect(gestures.debounce == .milliseconds(30))
    }

    @Test("Without flags: the long-press setting when changed, else the board; the board's debounce")
    func settingThenBoard() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        #expect(SessionResolver.gestures(flags: SessionFlags(), settings: try scratch.store.settings(), board: board)
                == GestureSettings(debounce: .milliseconds(10), longPress: .milliseconds(1200)))
        try scratch.set(.longPressMilliseconds, "3000")
        #expect(SessionResolver.gestures(flags: SessionFlags(), settings: try scratch.store.settings(), board: board).longPress
                == .milliseconds(3000))
    }

    @Test("The debounce the drivers request is the gestures' debounce: the flag when given, else the board's")
    func driverDebounceIsTheResolvers() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let settings = try scratch.store.settings()
        var flags = SessionFlags()
        #expect(SessionResolver.debounceMilliseconds(flags: flags, board: board) == 10)
        #expect(SessionResolver.gestures(flags: flags, settings: settings, board: board).debounce == .milliseconds(10))
        flags.debounceMilliseconds = 7
        #expect(SessionResolver.debounceMilliseconds(flags: flags, board: board) == 7)
        #expect(SessionResolver.gestures(flags: flags, settings: settings, board: board).debounce == .milliseconds(7))
        // An explicit 0 (no debounce) wins too.
        flags.debounceMilliseconds = 0
        #expect(SessionResolver.debounceMilliseconds(flags: flags, board: board) == 0)
    }

    @Test("Auto-start: --no-auto-start beats the setting; interval, counts and threshold come from flags, else settings")
    func sessionFields() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        try scratch.set(.autoStartNextAttempt, "on")
        try scratch.set(.defaultInterval, "7m")
        try scratch.set(.defaultAttempts, "4")
        try scratch.set(.fearThreshold, "0.2")
        let settings = try scratch.store.settings()
        var flags = SessionFlags()
        flags.autoStart = false
        let fromSettings = try SessionResolver.configuration(mode: .challenge, flags: flags, settings: settings, board: board)
        #expect(!fromSettings.timing.autoStartNextAttempt)
        #expect(fromSettings.interval == (try TrainingInterval(seconds: 420)))
        #expect(fromSettings.plannedCount == 4)
        #expect(fromSettings.fearThreshold == 0.2)
        flags.interval = try TrainingInterval(seconds: 90)
        flags.attempts = 1
        flags.fearThreshold = 0.1
        let fromFlags = try SessionResolver.configuration(mode: .challenge, flags: flags, settings: settings, board: board)
        #expect(fromFlags.interval.seconds == 90 && fromFlags.plannedCount == 1 && fromFlags.fearThreshold == 0.1)
    }

    @Test("The daemon's next session: the last one again with current settings; the defaults once they change")
    func daemonNextConfiguration() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        try scratch.set(.longPressMilliseconds, "2500")
        let settings = try scratch.store.settings()
        let last = try SessionConfiguration(mode: .passive, interval: TrainingInterval(seconds: 600), plannedCount: 3)
        let again = try SessionResolver.nextConfiguration(
            firstFromFlags: false, flags: SessionFlags(), settings: settings, board: board, last: last,
            defaultsChangedSinceLast: false, pattern: { _ in nil })
        #expect(again.mode == .passive && again.interval.seconds == 600 && again.plannedCount == 3)
        #expect(again.gestures.longPress == .milliseconds(2500))
        let defaults = try SessionResolver.nextConfiguration(
            firstFromFlags: false, flags: SessionFlags(), settings: settings, board: board, last: last,
            defaultsChangedSinceLast: true, pattern: { _ in nil })
        #expect(defaults.mode == .challenge && defaults.interval == .builtInPreset && defaults.plannedCount == 1)
    }

    @Test("Command-line options parse into the resolver's flags, nil when not given")
    func optionsToFlags() throws {
        let none = try LiveSessionOptions.parse([]).flags
        #expect(none.longPressMilliseconds == nil && none.autoStart == nil && none.interval == nil)
        let some = try LiveSessionOptions.parse(["--long-press-ms", "1500", "--no-auto-start", "--interval", "90"]).flags
        #expect(some.longPressMilliseconds == 1500 && some.autoStart == false && some.interval?.seconds == 90)
    }
}
