import ChronoCore
import ChronoTesting
import Foundation
import Synchronization
import Testing
@testable import ChronoDevice

/// Desktop notifications over sd-bus (`DesktopNotifier`). Without a bus it is off with one line; the
/// bus test runs against a private `dbus-daemon --session` with a notification listener that records
/// each Notify and answers with ActionInvoked, started by `Tests/dbus/run` (which sets the variables).
@Suite("Desktop notifications")
struct DesktopNotifierTests {
    static let address = ProcessInfo.processInfo.environment["CHRONO_TEST_DBUS_ADDRESS"]
    static let record = ProcessInfo.processInfo.environment["CHRONO_TEST_DBUS_RECORD"]

    @Test("no session bus at the address: notifications are off, said in one line")
    func noBus() {
        let lines = Mutex<[String]>([])
        let notifier = DesktopNotifier.start(address: "unix:path=/nonexistent/chronoception/bus", companionURL: nil,
                                             open: { _ in }, report: { line in lines.withLock { $0.append(line) } })
        #expect(notifier == nil)
        #expect(lines.withLock { $0 } == ["Desktop notifications are off: the session bus at the address given cannot be reached: No such file or directory."])
    }

    @Test("the notification's words: a study session's and the daily reminder's")
    func words() {
        let study = Reminder(subject: .studySession(position: 1, ordinal: 1), text: "Study sleep-2026: day 1, session 2 is due.")
        #expect(DesktopNotifier.words(study) == ("Study session due", "Study sleep-2026: day 1, session 2 is due."))
        let daily = Reminder(subject: .daily(localDay: 20_412), text: "Time to train: 0 of 2 sessions today.")
        #expect(DesktopNotifier.words(daily) == ("Time to train", "Time to train: 0 of 2 sessions today."))
    }

    @Test("a reminder reaches the notification service with a default action; its click opens the companion",
          .enabled(if: address != nil && record != nil, "needs Tests/dbus/run's private session bus"))
    func roundTrip() async throws {
        let opened = Mutex<[String]>([])
        let lines = Mutex<[String]>([])
        let started = DesktopNotifier.start(address: Self.address, companionURL: "http://127.0.0.1:8787/",
                                            open: { url in opened.withLock { $0.append(url) } },
                                            report: { line in lines.withLock { $0.append(line) } })
        let notifier = try #require(started)
        defer { notifier.stop() }
        notifier.notify(Reminder(subject: .studySession(position: 0, ordinal: 1), text: "Study sleep-2026: day 1, session 1 is due."))
        #expect(await eventually(limit: 10) { !opened.withLock { $0 }.isEmpty })
        #expect(opened.withLock { $0 } == ["http://127.0.0.1:8787/"])
        #expect(lines.withLock { $0 } == [])
        let recorded = try String(contentsOfFile: try #require(Self.record), encoding: .utf8).split(separator: "\n")
        let first = try #require(recorded.first.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(first["app_name"] as? String == "Chronoception")
        #expect(first["summary"] as? String == "Study session due")
        #expect(first["body"] as? String == "Study sleep-2026: day 1, session 1 is due.")
        #expect(first["actions"] as? [String] == ["default", "Open Chronoception"])
        #expect(recorded.count == 1)
    }
}
