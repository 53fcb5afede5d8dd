import CDesktopNotify
import ChronoCore
import Foundation
import Synchronization

/// The reminders on a desktop (docs/STUDIES.md, "Reminders"): each one the loop gives goes to the
/// freedesktop notification service on the user's session bus as a notification with a default action,
/// and a click on it (the service's ActionInvoked) opens the companion. The bus is owned by a thread of
/// its own, never the loop's: the loop only hands a reminder over (`notify`), which never blocks.
final class DesktopNotifier: Sendable {
    /// The C notifier, owned by the bus thread once started.
    private final class Connection: @unchecked Sendable {
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
    }

    private let pending = Mutex<[Reminder]>([])
    private let stopping = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)

    /// Opens the session bus (`address` nil: the user's own) and starts serving it. Nil when there is
    /// no bus or no libsystemd: `report` is told once, in one line, and notifications are off.
    /// - Parameters:
    ///   - companionURL: what a click opens (nil: a click only dismisses).
    ///   - open: opens a URL (the product's runs `xdg-open`).
    static func start(address: String? = nil, companionURL: String?, open: @escaping @Sendable (String) -> Void = DesktopNotifier.xdgOpen,
                      report: @escaping @Sendable (String) -> Void) -> DesktopNotifier? {
        var error = [CChar](repeating: 0, count: 512)
        guard let pointer = chrono_notifier_open(address, &error, error.count) else {
            report("Desktop notifications are off: \(String(cString: error)).")
            return nil
        }
        let notifier = DesktopNotifier()
        let connection = Connection(pointer)
        let thread = Thread { notifier.serve(connection, companionURL: companionURL, open: open, report: report) }
        thread.name = "desktop-notify"
        thread.start()
        return notifier
    }

    /// Hands `reminder` to the bus thread (called off the loop, by the loop's `offLoop` action).
    func notify(_ reminder: Reminder) {
        pending.withLock { $0.append(reminder) }
    }

    /// Stops the bus thread and closes the bus; waits for it (at most one poll, 200 ms).
    func stop() {
        guard !stopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        ended.wait()
    }

    /// The notification's title and body for `reminder`.
    static func words(_ reminder: Reminder) -> (summary: String, body: String) {
        switch reminder.subject {
        case .studySession: return ("Study session due", reminder.text)
        case .daily: return ("Time to train", reminder.text)
        }
    }

    private func serve(_ connection: Connection, companionURL: String?, open: @escaping @Sendable (String) -> Void,
                       report: @escaping @Sendable (String) -> Void) {
        defer {
            chrono_notifier_close(connection.pointer)
            ended.signal()
        }
        var shown: Set<Int64> = []
        var error = [CChar](repeating: 0, count: 512)
        var failedOnce = false
        while !stopping.load(ordering: .sequentiallyConsistent) {
            for reminder in pending.withLock({ queue in defer { queue.removeAll() }; return queue }) {
                let (summary, body) = Self.words(reminder)
                let id = chrono_notifier_notify(connection.pointer, "Chronoception", summary, body, "Open Chronoception", &error, error.count)
                if id > 0 {
                    shown.insert(Int64(id))
                } else if !failedOnce {
                    // Said once: a desktop without a notification service would repeat it at every reminder.
                    failedOnce = true
                    report("A desktop notification could not be shown: \(String(cString: error)). The device's cue still plays.")
                }
            }
            let invoked = chrono_notifier_poll(connection.pointer, 200, &error, error.count)
            if invoked < 0 {
                report("Desktop notifications are off: \(String(cString: error)).")
                return
            }
            if invoked > 0, shown.contains(invoked), let companionURL { open(companionURL) }
        }
    }

    /// `xdg-open URL`, not waited for beyond its start (the browser it starts outlives it).
    static let xdgOpen: @Sendable (String) -> Void = { url in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url]
        process.standardInput = FileHandle.nullDevice
        try? process.run()
    }
}
