import ChronoCore
@testable import ChronoStore
import ChronoSync
import Testing

/// `reminder-repeat`, `quiet-hours`, `daily-reminder`, `daily-goal`: defaults, the one validator each,
/// the typed view the daemon reads, and kept on this device (never in what sync sends).
@Suite("Settings: reminders")
struct ReminderSettingStoreTests {
    @Test("defaults: a second reminder after 1h, no quiet hours, no daily reminder, no goal")
    func defaults() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        let settings = try store.settings()
        #expect([settings[.reminderRepeat], settings[.quietHours], settings[.dailyReminder], settings[.dailyGoal]] == ["1h", "off", "off", "0"])
        #expect(settings.reminders == ReminderSettings(repeatDelay: .seconds(3600), quietHours: nil, dailyReminder: nil, dailyGoal: 0))
    }

    @Test("set through the validator: canonical text stored, the typed view follows; 0 and off turn them off")
    func set() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        #expect(try store.setSetting(.reminderRepeat, to: "90m", nowUnixSeconds: 1) == "1h30m")
        #expect(try store.setSetting(.quietHours, to: " 22:00-7:00 ", nowUnixSeconds: 2) == "22:00-07:00")
        #expect(try store.setSetting(.dailyReminder, to: "18:30", nowUnixSeconds: 3) == "18:30")
        #expect(try store.setSetting(.dailyGoal, to: "3", nowUnixSeconds: 4) == "3")
        #expect(try store.settings().reminders == ReminderSettings(repeatDelay: .seconds(5400), quietHours: QuietHours(parsing: "22:00-07:00"),
                                                                   dailyReminder: TimeOfDay(parsing: "18:30"), dailyGoal: 3))
        #expect(try store.setSetting(.reminderRepeat, to: "0", nowUnixSeconds: 5) == "0")
        #expect(try store.settings().reminders.repeatDelay == nil)
        let refusal = #expect(throws: StoreError.self) { try store.setSetting(.quietHours, to: "late", nowUnixSeconds: 6) }
        guard case .invalidValue(let words)? = refusal else { Issue.record("not invalidValue: \(String(describing: refusal))"); return }
        #expect(words == "quiet-hours is off or a local time window HH:MM-HH:MM with different ends, such as 22:00-07:00; got 'late'.")
        // Per device: sync does not send them.
        #expect(try !store.syncPreferences().contains { SettingKey(rawValue: $0.key)?.isReminder == true })
        #expect(SettingKey.allCases.filter(\.isReminder).allSatisfy { !$0.isLocalOnly && !$0.isSynced })
    }
}
