import ChronoStore
import ChronoSync
import Testing

@Suite("Setting scope")
struct SettingScopeTests {
    @Test("sync carries every setting but the local-only ones and glanceable-privacy")
    func localOnlyIsNotSynced() {
        #expect(Set(SettingKey.allCases.filter(\.isLocalOnly).map(\.rawValue)) == ["health-log-file", "wall-clock-check"])
        #expect(Set(SettingKey.allCases.filter(\.isSynced).map(\.rawValue)) == PreferenceMerge.syncedKeys)
        // Per-device but changeable from a paired phone: neither local-only nor synced.
        #expect(Set(SettingKey.allCases.filter { !$0.isLocalOnly && !$0.isSynced }.map(\.rawValue))
                == ["glanceable-privacy", "battery-low", "battery-stop", "battery-critical",
                    "reminder-repeat", "quiet-hours", "daily-reminder", "daily-goal"])
    }

    @Test("preference clocks from outside are bounded: out-of-range stamps are ignored and the next clock never overflows")
    func clocks() {
        let forged = StampedPreference(key: "default-attempts", value: "3", clock: .max, origin: .collector)
        let honest = StampedPreference(key: "default-attempts", value: "2", clock: 7, origin: .device)
        #expect(PreferenceMerge.merge([honest], [forged]) == [honest])
        #expect(PreferenceMerge.nextClock(after: [forged, honest]) == 8)
        let top = StampedPreference(key: "fear-mode", value: "on", clock: PreferenceMerge.maximumClock, origin: .collector)
        #expect(PreferenceMerge.nextClock(after: [top]) == PreferenceMerge.maximumClock)
        #expect(!PreferenceMerge.acceptsClock(-1))
    }
}
