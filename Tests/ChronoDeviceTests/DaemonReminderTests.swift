import ChronoCore
import ChronoRuntime
import ChronoStore
import ChronoSync
import ChronoTesting
import Testing
@testable import ChronoDevice

/// The daemon's reminders over the product's store adapters, on virtual time whose wall clock starts at
/// a chosen hour (`DaemonStudyTests.Daemon`): the session-due cue when a study session is due and once
/// more an hour later, quiet hours, the daily reminder, and today's count against the goal in the state
/// and in `status`'s words.
@Suite("The daemon reminds", .serialized)
struct DaemonReminderTests {
    typealias Study = DaemonStudyTests
    static let hour = Study.hour
    static func ms(_ value: Int64) -> MonotonicInstant { Study.ms(value) }

    /// The instants at which the session-due cue was planned.
    static func sessionDueCues(_ daemon: Study.Daemon) -> [MonotonicInstant] {
        daemon.actions.compactMap { action in
            if case .vibrate(let vibration) = action, vibration.label == .cue(.sessionDue) { return vibration.due }
            return nil
        }
    }

    @Test("a due study session: the cue at once, again an hour later, never a third time; the next session's when it becomes due")
    func study() throws {
        let scratch = try Study.storeWithStudy()
        defer { scratch.remove() }
        let daemon = try Study.Daemon(scratch.store, base: Study.base(day: 0, hour: 9))
        daemon.feed([], until: Self.ms(1_000))
        #expect(Self.sessionDueCues(daemon) == [Self.ms(0)])
        #expect(daemon.lines.all.contains("Reminder: Study sleep-2026: day 1, session 1 is due. Tap (press space) to start."), "\(daemon.lines.all)")
        #expect(daemon.lastState?.reminder == "Study sleep-2026: day 1, session 1 is due.")
        #expect(Study.statusLines(daemon).contains("Reminder: Study sleep-2026: day 1, session 1 is due."))
        daemon.feed([], until: Self.ms(3 * Self.hour))
        #expect(Self.sessionDueCues(daemon) == [Self.ms(0), Self.ms(Self.hour)])
        #expect(daemon.lastState?.reminder == "Study sleep-2026: day 1, session 1 is still due.")

        Study.runTwoAttempts(daemon, from: 3 * Self.hour)
        let ended = try #require(daemon.finishes.first?.outcome.endedAt)
        // Done: nothing is reminded of until the next one is due, the minimum gap (60 min) after its end.
        #expect(daemon.lastState?.reminder == nil)
        daemon.feed([], until: ended + .seconds(3_600) + .seconds(1))
        #expect(Self.sessionDueCues(daemon) == [Self.ms(0), Self.ms(Self.hour), ended + .seconds(3_600)])
        #expect(daemon.lastState?.reminder == "Study sleep-2026: day 1, session 2 is due.")
        #expect(daemon.lastState?.today == DeviceState.Today(sessions: 1, goal: 0))
    }

    @Test("quiet hours 08:00-12:00: the session due since 00:00 is reminded at 12:00; reminder-repeat 0 gives no second")
    func quietHours() throws {
        let scratch = try Study.storeWithStudy()
        defer { scratch.remove() }
        _ = try scratch.store.setSetting(.quietHours, to: "08:00-12:00", nowUnixSeconds: 1)
        _ = try scratch.store.setSetting(.reminderRepeat, to: "0", nowUnixSeconds: 2)
        let daemon = try Study.Daemon(scratch.store, base: Study.base(day: 0, hour: 9))
        daemon.feed([], until: Self.ms(6 * Self.hour))
        #expect(Self.sessionDueCues(daemon) == [Self.ms(3 * Self.hour)])
    }

    @Test("outside studies: the daily reminder at 10:00 with today's count against the goal; midnight starts the count again")
    func daily() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        for (key, value) in [(SettingKey.dailyGoal, "2"), (.dailyReminder, "10:00"), (.defaultMode, "challenge"),
                             (.defaultInterval, "10s"), (.defaultAttempts, "2")] {
            _ = try scratch.store.setSetting(key, to: value, nowUnixSeconds: 1)
        }
        let daemon = try Study.Daemon(scratch.store, base: Study.base(day: 0, hour: 9))
        #expect(daemon.lastState?.today?.text == "Today: 0 of 2 sessions")
        #expect(Study.statusLines(daemon).contains("Today: 0 of 2 sessions"))
        daemon.feed([], until: Self.ms(Self.hour + 1_000))
        #expect(Self.sessionDueCues(daemon) == [Self.ms(Self.hour)])
        #expect(daemon.lines.all.contains("Reminder: Time to train: 0 of 2 sessions today. Tap (press space) to start."), "\(daemon.lines.all)")
        Study.runTwoAttempts(daemon, from: Self.hour + 10_000)
        #expect(daemon.lastState?.today == DeviceState.Today(sessions: 1, goal: 2))
        #expect(daemon.lastState?.reminder == "Time to train: 1 of 2 sessions today.")
        // Midnight (15 h after 09:00): the new day counts from 0; its reminder is at 10:00 again.
        daemon.feed([], until: Self.ms(15 * Self.hour + 1_000))
        #expect(daemon.lastState?.today?.text == "Today: 0 of 2 sessions")
        #expect(daemon.lastState?.reminder == nil)
        daemon.feed([], until: Self.ms(25 * Self.hour + 1_000))
        #expect(Self.sessionDueCues(daemon) == [Self.ms(Self.hour), Self.ms(25 * Self.hour)])
    }
}
