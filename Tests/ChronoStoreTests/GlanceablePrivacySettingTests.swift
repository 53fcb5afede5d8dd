import ChronoCore
@testable import ChronoStore
import ChronoSync
import Testing

/// `glanceable-privacy`: off by default, on or off through the one validator, kept on this device
/// (never in what sync sends).
@Suite("Setting: glanceable-privacy")
struct GlanceablePrivacySettingTests {
    @Test("off by default; on/off and their spellings accepted, anything else refused in words")
    func validation() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        #expect(try store.settings()[.glanceablePrivacy] == "off")
        #expect(try store.settings().glanceablePrivacy == false)
        let current = try store.settings()
        for (given, stored) in [("on", "on"), (" ON ", "on"), ("true", "on"), ("yes", "on"), ("1", "on"),
                                ("off", "off"), ("False", "off"), ("no", "off"), ("0", "off")] {
            #expect(try SettingKey.glanceablePrivacy.canonicalValue(given, current: current) == stored)
        }
        let refusal = #expect(throws: StoreError.self) { try SettingKey.glanceablePrivacy.canonicalValue("hidden", current: current) }
        guard case .invalidValue(let words)? = refusal else { Issue.record("not invalidValue: \(String(describing: refusal))"); return }
        #expect(words == "glanceable-privacy is on or off; got 'hidden'.")
        #expect(try store.setSetting(.glanceablePrivacy, to: "on", nowUnixSeconds: 1) == "on")
        #expect(try store.settings().glanceablePrivacy)
        // A per-device choice: sync does not send it.
        #expect(try !store.syncPreferences().contains { $0.key == "glanceable-privacy" })
        #expect(!SettingKey.glanceablePrivacy.isLocalOnly && !SettingKey.glanceablePrivacy.isSynced)
    }
}
