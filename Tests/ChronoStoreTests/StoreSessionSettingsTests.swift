import ChronoCore
import ChronoStore
import Testing

/// `StoreSettings.session`: the stored text of the session settings as the typed values the resolver
/// takes; a value that does not parse or lies outside its range gives the built-in default.
@Suite("The store fills the resolver's SessionSettings")
struct StoreSessionSettingsTests {
    @Test("Every session setting is read from its stored text")
    func stored() throws {
        let settings = StoreSettings(values: [
            .defaultMode: "fear", .defaultInterval: "1m 30s", .defaultAttempts: "4", .defaultRepetitions: "9",
            .fearMode: "on", .fearThreshold: "0.2", .autoStartNextAttempt: "on", .longPressMilliseconds: "2000",
        ], healthFailure: nil)
        #expect(settings.session == SessionSettings(
            defaultMode: .fear, defaultInterval: try TrainingInterval(seconds: 90), defaultAttempts: 4, defaultRepetitions: 9,
            fearModeOn: true, fearThreshold: 0.2, autoStartNextAttempt: true, longPress: .milliseconds(2000)))
    }

    @Test("Missing or unreadable rows give the built-in defaults; the default mode is kept as stored (the Fear rule is the resolver's)")
    func fallbacks() throws {
        #expect(StoreSettings(values: [:], healthFailure: nil).session == SessionSettings())
        let edited = StoreSettings(values: [
            .defaultMode: "both", .defaultInterval: "5s", .defaultAttempts: "x", .fearThreshold: "much",
            .longPressMilliseconds: "99999999",
        ], healthFailure: nil)
        #expect(edited.session == SessionSettings())
        // A database edited by hand may hold default-mode fear with fear-mode off: read as stored, run
        // as Challenge by the resolver (FearPermission, a mode from defaults).
        let fearDefault = StoreSettings(values: [.defaultMode: "fear", .fearMode: "off"], healthFailure: nil).session
        #expect(fearDefault.defaultMode == .fear && fearDefault.fearModeOn == false)
        #expect(try SessionResolver.configuration(flags: SessionFlags(), settings: fearDefault, board: .builtIn).mode == .challenge)
    }
}
