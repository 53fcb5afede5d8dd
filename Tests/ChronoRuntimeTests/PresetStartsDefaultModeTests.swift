import ChronoCore
import ChronoTesting
import Testing
@testable import ChronoRuntime

/// `start --preset 20s` (`{"preset": …}`, `StartRequest.preset`) starts the `default-mode` setting's
/// mode at that interval with that mode's count, not the last session's mode and count.
@Suite("A preset by name starts the default mode")
struct PresetStartsDefaultModeTests {
    static func ms(_ value: Int64) -> MonotonicInstant { VirtualHarness.ms(value) }

    static func started(lastMode: SessionMode, lastCount: Int, defaults: SessionDefaults) throws -> SessionConfiguration? {
        let rig = try VirtualDaemonRig(try QuickSession.configuration(lastMode, count: lastCount))
        let harness = rig.harness
        harness.at(Self.ms(50)) {
            rig.library.change(defaults: defaults)
            rig.keeper.refresh()
        }
        let start = harness.ask(.start(.preset(.testOnly(milliseconds: 250))), at: Self.ms(100))
        harness.stop(at: Self.ms(200))
        _ = try harness.run()
        guard case .started(_, let configuration) = start.value else { return nil }
        return configuration
    }

    @Test("default-mode challenge after a Passive session of 9: a Challenge preset with default-attempts")
    func challengeAfterPassive() throws {
        let configuration = try #require(try Self.started(lastMode: .passive, lastCount: 9,
                                                          defaults: SessionDefaults(attempts: 3, repetitions: 7, mode: .challenge)))
        #expect(configuration.mode == .challenge)
        #expect(configuration.plannedCount == 3)
        #expect(configuration.interval == .testOnly(milliseconds: 250))
    }

    @Test("default-mode passive after a Challenge session: a Passive preset with default-repetitions")
    func passiveAfterChallenge() throws {
        let configuration = try #require(try Self.started(lastMode: .challenge, lastCount: 2,
                                                          defaults: SessionDefaults(attempts: 3, repetitions: 7, mode: .passive)))
        #expect(configuration.mode == .passive)
        #expect(configuration.plannedCount == 7)
    }

    @Test("the resolver's defaults carry default-mode, a Fear default without the opt-in as Challenge")
    func resolverDefaultsMode() {
        let reproduction = SessionResolver.defaults(flags: SessionFlags(), settings: SessionSettings(defaultMode: .reproduction), board: .builtIn)
        #expect(reproduction.mode == .reproduction)
        let fear = SessionResolver.defaults(flags: SessionFlags(), settings: SessionSettings(defaultMode: .fear), board: .builtIn)
        #expect(fear.mode == .challenge)
        let fearOn = SessionResolver.defaults(flags: SessionFlags(), settings: SessionSettings(defaultMode: .fear, fearModeOn: true), board: .builtIn)
        #expect(fearOn.mode == .fear)
    }
}
