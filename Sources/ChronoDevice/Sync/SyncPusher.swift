import ChronoCommandLine
import ChronoCore
import ChronoStore
import Dispatch
import Foundation

/// The daemon's background sender (docs/SYNC.md, "The device"): on its own thread, never the
/// session loop's, it pushes everything pending after each completed session, on start (the cursor
/// is in the store, so a restart picks up where it was), every `idlePollSeconds` when caught up, and
/// after a failure on `SyncRetrySchedule`'s backoff. The loop never waits for it: a nudge is a
/// semaphore signal.
final class SyncPusher: @unchecked Sendable {
    /// What the thread does next after one step.
    enum NextWake: Hashable, Sendable {
        /// Wait this long, or less if nudged.
        case afterMilliseconds(Int64)
        /// Not enrolled: sleep until nudged (a session finished or the store changed).
        case whenNudged
    }

    private let store: ChronoStore
    private let transport: @Sendable (CollectorURL) -> any CollectorTransport
    /// This machine's binding (`MachineBinding`): a copied data directory never pushes as its original.
    private let machine: String?
    private let report: @Sendable (String) -> Void
    private let wakeUp = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var stopped = false
    private var waitingForEnrolment = false
    /// After a successful push, what was still pending (nil after a failure or before the first
    /// push): while idle, a store change that leaves more pending than that (a note edited in the
    /// companion or a shell re-queues its session) starts a push at once. After a failure the
    /// backoff stands.
    private var pendingAfterPush: Int?
    private var thread: Thread?
    /// The last failure line said on the console, so a long outage is reported once, not per retry.
    private var lastReported: String?

    init(store: ChronoStore, report: @escaping @Sendable (String) -> Void,
         transport: @escaping @Sendable (CollectorURL) -> any CollectorTransport = { CollectorClient(url: $0) },
         machine: String? = MachineBinding.current()) {
        self.store = store
        self.machine = machine
        // Lines carry the collector's words (a refusal's message, a refused preference): shown as text.
        self.report = { report(TerminalSafeText.sanitized($0, keepNewlines: false)) }
        self.transport = transport
    }

    /// Starts the thread; it pushes at once.
    func start() {
        let thread = Thread { [self] in
            while !isStopped {
                let next = (try? runBlocking { await self.step() }) ?? .afterMilliseconds(60_000)
                lock.lock()
                waitingForEnrolment = next == .whenNudged
                lock.unlock()
                switch next {
                case .afterMilliseconds(let milliseconds):
                    _ = wakeUp.wait(timeout: .now() + .milliseconds(Int(clamping: milliseconds)))
                case .whenNudged:
                    wakeUp.wait()
                }
                // Nudges that arrived while pushing are covered by the push that follows.
                while wakeUp.wait(timeout: .now()) == .success {}
            }
        }
        thread.name = "chronoception sync"
        self.thread = thread
        thread.start()
    }

    /// Asks for a push soon (a completed session was saved). Never blocks.
    func nudge() { wakeUp.signal() }

    /// The store changed (the watcher saw a write). Of interest while not enrolled, so that a
    /// `sync add` in a shell starts the pushing at once, and while caught up when something is
    /// pending again (an edited note re-queues its session), so the edit is not held for the idle
    /// poll. The pusher's own writes add nothing pending, so they never wake it.
    func storeChanged() {
        lock.lock()
        let waiting = waitingForEnrolment, baseline = pendingAfterPush
        lock.unlock()
        if waiting { wakeUp.signal(); return }
        if let baseline, let pending = try? store.syncState().pending, pending > baseline { wakeUp.signal() }
    }

    /// Ends the thread after the exchange in flight (bounded by the client's timeouts).
    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        wakeUp.signal()
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// One attempt: push everything pending if enrolled; says when to try next.
    func step() async -> NextWake {
        setPendingAfterPush(nil)
        let enrolment: SyncEnrolment
        let deviceID: String
        do {
            guard let found = try store.syncEnrolment() else { return .whenNudged }
            enrolment = found
            deviceID = try store.syncDeviceID()
        } catch {
            say("sync: cannot read the store (\(error)); trying again in a minute.")
            return .afterMilliseconds(60_000)
        }
        guard let url = try? CollectorURL(parsing: enrolment.collectorURL) else {
            say("sync: the stored collector URL '\(enrolment.collectorURL)' cannot be used; run `chronoception sync remove` and `sync add` again.")
            return .whenNudged
        }
        let exchange = SyncExchange(store: store, transport: transport(url), machine: machine)
        do {
            let summary = try await exchange.pushAll(enrolment: enrolment)
            if summary.sent > 0 || !summary.preferences.applied.isEmpty || lastReported != nil {
                var line = summary.line
                if !summary.preferences.applied.isEmpty { line += "; preferences from the collector: " + summary.preferences.applied.joined(separator: ", ") }
                report(line)
            }
            lastReported = nil
            if let study = summary.study { report("sync: " + study) }
            for refused in summary.preferences.refused { say("warning: sync: " + refused) }
            if let refused = summary.studyRefused { say("warning: sync: " + refused) }
            for line in summary.refusedLines { report("warning: sync: " + line) }
            setPendingAfterPush((try? store.syncState().pending) ?? 0)
            return .afterMilliseconds(Int64(SyncRetrySchedule.idlePollSeconds) * 1000)
        } catch let failure as SyncFailure where failure.kind == .copiedDataDirectory {
            // Never as the device this directory was copied from; a `sync add` here wakes it.
            say(failure.description, key: failure.kind.rawValue)
            return .whenNudged
        } catch let failure as SyncFailure {
            let failures = (try? store.syncState().consecutiveFailures) ?? 1
            let delay = SyncRetrySchedule.delayMilliseconds(afterFailures: max(failures, 1), deviceID: deviceID)
            say("\(failure.description) Next try in \(delay / 1000) s.", key: failure.kind.rawValue)
            return .afterMilliseconds(delay)
        } catch {
            // The store could not be written (a full disk): nothing moved; try again later.
            let failures = (try? store.syncState().consecutiveFailures) ?? 1
            say("sync: \(error); trying again later.")
            return .afterMilliseconds(SyncRetrySchedule.delayMilliseconds(afterFailures: max(failures, 1), deviceID: deviceID))
        }
    }

    private func setPendingAfterPush(_ value: Int?) {
        lock.lock()
        pendingAfterPush = value
        lock.unlock()
    }

    /// Reports a line once per kind of trouble.
    private func say(_ line: String, key: String? = nil) {
        let key = key ?? line
        guard key != lastReported else { return }
        lastReported = key
        report(line)
    }
}
