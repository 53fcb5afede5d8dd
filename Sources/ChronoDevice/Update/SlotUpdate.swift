import ChronoCommandLine
import ChronoCore
import ChronoStore

/// The steps of an update of the card's root (docs/IMAGE.md, "Updates"), in their order, each one
/// recorded in the update record before the next begins so that a power cut at any point is noticed
/// at the next boot (`UpdateRecord.afterBoot`). `chronoception update install`, `boot` and `confirm`
/// are its three entry points; the programs it drives are behind `UpdateSystem`.
public struct SlotUpdate: Sendable {
    public var system: any UpdateSystem
    public var store: StoreLocation
    /// The slot this boot started from; nil off the card (then nothing here runs).
    public var booted: BootSlot?
    public var running: ReleaseVersion
    public var now: @Sendable () -> WallTime
    /// The device API's answer now; nil when no device answers (the service is not running).
    public var probe: @Sendable () -> DeviceProbe?
    public var say: @Sendable (String) -> Void
    /// Waits this many seconds (the runtime's sleep; a test's virtual clock).
    public var pause: @Sendable (Double) -> Void
    /// Seconds on `CLOCK_MONOTONIC` (a test's virtual clock): the confirmation's bound is time, not a
    /// count of tries (each try runs `systemctl` and asks the device, seconds under emulation), and the
    /// wall clock may jump by months when a time server first answers.
    public var uptime: @Sendable () -> Double

    public var file: UpdateRecordFile { UpdateRecordFile(directory: store.directory) }

    public init(system: any UpdateSystem, store: StoreLocation, booted: BootSlot?, running: ReleaseVersion,
                now: @escaping @Sendable () -> WallTime, probe: @escaping @Sendable () -> DeviceProbe?,
                say: @escaping @Sendable (String) -> Void, pause: @escaping @Sendable (Double) -> Void,
                uptime: @escaping @Sendable () -> Double) {
        self.system = system
        self.store = store
        self.booted = booted
        self.running = running
        self.now = now
        self.probe = probe
        self.say = say
        self.pause = pause
        self.uptime = uptime
    }

    private func fail(_ message: String) -> CommandFailure { CommandFailure(message: message) }

    /// The slot this boot started from, or the refusal for a machine that is not a two-slot card.
    private func bootedSlot() throws(CommandFailure) -> BootSlot {
        guard let booted else {
            throw fail("This machine is not a two-slot Chronoception card (its kernel command line names no rauc.slot=). Updates are for the Raspberry Pi image (docs/IMAGE.md); on a desktop, install the new .deb instead.")
        }
        return booted
    }

    // MARK: install

    /// Checks `bundle`, writes it into the other slot and names that slot for one trial boot; then
    /// restarts into it when `restart`. Refused, with nothing written, for another card's bundle, a
    /// bundle signed with another key, an older version (unless `allowDowngrade`), while an update is
    /// under way, and while a session runs.
    public func install(bundle: String, allowDowngrade: Bool, restart: Bool) throws(CommandFailure) {
        let from = try bootedSlot()
        let previous = file.read()
        if let record = previous.record, record.holdsSessions {
            throw fail("An update to \(record.toVersion) is already under way (\(record.phase.rawValue)); wait for it to finish (`chronoception update status`).")
        }
        say("Checking \(bundle) against the card's keyring…")
        let info: BundleInfo
        do { info = try BundleInfo(raucJSON: try system.describe(bundle)) } catch let refusal as UpdateRecord.Refusal {
            throw fail(refusal.description)
        } catch let failure as CommandFailure { throw failure } catch { throw fail("\(error)") }
        if let refusal = info.refusal(compatible: try system.compatible(), running: running, allowDowngrade: allowDowngrade) {
            throw fail(refusal)
        }
        if let device = probe(), device.sessionInProgress {
            throw fail("A session is running; nothing was installed. Install the update once it has ended.")
        }
        // From here on the record holds sessions; the device must have seen it, and be idle, before
        // RAUC writes anything (a session started a moment earlier would otherwise run into the restart).
        var record = UpdateRecord(phase: .installing, fromVersion: running, toVersion: info.version, fromSlot: from, started: now(), progress: 0)
        try file.write(record)
        if let refusal = awaitHeldSessions() {
            restore(previous)
            throw fail(refusal)
        }
        say("Installing \(info.version) into slot \(from.other) (\(running) keeps running on slot \(from) until the restart)…")
        let progressFile = file
        let progress = Progress(record: record)
        do {
            try system.install(bundle) { percent in
                guard let changed = progress.advance(to: percent) else { return }
                try? progressFile.write(changed)
            }
        } catch {
            record.phase = .failed
            record.progress = nil
            record.reason = UpdateRecord.keepable(error.description)
            record.finished = max(now(), record.started)
            try? file.write(record)
            throw fail("The install of \(info.version) failed: \(error.description) Nothing was switched; \(running) keeps running.")
        }
        record.phase = .installed
        record.progress = nil
        try file.write(record)
        say("Installed \(info.version) into slot \(from.other).")
        guard restart else {
            say("Restart with `systemctl reboot '0 tryboot'` to try it; until then \(running) runs, and sessions are held.")
            return
        }
        say("Restarting into \(info.version). If it does not confirm itself within \(Int(Self.confirmationBound)) s, the card goes back to \(running) by itself.")
        try system.reboot(tryboot: true)
    }

    /// The record's percentages as RAUC reports them, written at most every 5 % (a write per
    /// percent would wear the card for nothing).
    private final class Progress: @unchecked Sendable {
        private var record: UpdateRecord
        private var written = 0
        init(record: UpdateRecord) { self.record = record }
        func advance(to percent: Int) -> UpdateRecord? {
            guard percent >= written + 5 || (percent == 100 && written != 100) else { return nil }
            written = percent
            record.progress = percent
            return record
        }
    }

    /// Waits (up to 10 s) until the running device shows the installing record, then says why the
    /// install may not go on (nil: it may). No device answering: nothing can start a session but the
    /// device itself, which reads the record when it starts.
    private func awaitHeldSessions() -> String? {
        for _ in 0..<100 {
            guard let device = probe() else { return nil }
            if device.updatePhase == UpdateRecord.Phase.installing.rawValue {
                return device.sessionInProgress ? "A session started as the install began; nothing was installed. Install the update once it has ended." : nil
            }
            pause(0.1)
        }
        return "The device did not take in the update within 10 s (is `chronoception.service` stuck?); nothing was installed."
    }

    private func restore(_ previous: UpdateRecordFile.Reading) {
        if let record = previous.record { try? file.write(record) } else { file.remove() }
    }

    // MARK: boot

    /// Before the service starts, at every boot: applies the boot rule to the record. On the new slot's
    /// trial boot it keeps a copy of the store first; after a rollback it marks the other slot bad and
    /// puts the copy back if the old version could not open the store the new one left.
    /// - Returns: the record as it now stands (nil: there is none, or this is not a card).
    @discardableResult
    public func boot() throws(CommandFailure) -> UpdateRecord? {
        guard let booted else { return nil }
        guard case .record(let record) = file.read() else {
            if case .refused(let reason) = file.read() { say("The update record is ignored: \(reason).") }
            return nil
        }
        let next = record.afterBoot(of: booted, at: now())
        guard next != record else { return record }
        switch next.phase {
        case .trying:
            do { try StoreRollbackCopy.take(store) } catch {
                throw fail("Cannot keep a copy of the store before \(next.toVersion) opens it: \(error.description) The update is not tried; restart to go back to \(record.fromVersion).")
            }
        case .rolledBack:
            do { try system.markOtherBad() } catch { say("Could not mark slot \(next.toSlot) bad: \(error.description)") }
            do {
                if let aside = try StoreRollbackCopy.restoreIfNewer(store, newVersion: next.toVersion.description) {
                    say("\(next.toVersion) had changed the store to a form \(running) cannot open: the copy from before the update is back, and the changed one is kept as \(aside).")
                }
            } catch {
                say("The store could not be put back as it was before the update: \(error.description)")
            }
        case .installing, .installed, .confirmed, .failed:
            break
        }
        try file.write(next)
        say(next.line(running: running))
        return next
    }

    // MARK: confirm

    /// How long the new slot has to confirm itself before it is abandoned (the watchdog's part).
    public static let confirmationBound: Double = 300

    /// On the new slot's trial boot, once the service is up: waits until it is active and its device
    /// idle (the store open and migrated, the button armed), then marks the slot good, which makes the
    /// switch. Not within `within` seconds: restarts without the tryboot flag, so the old slot boots.
    public func confirm(within bound: Double = confirmationBound) throws(CommandFailure) {
        guard booted != nil, let record = file.read().record, record.phase == .trying, record.toSlot == booted else { return }
        let began = uptime()
        var up = false
        while uptime() - began < bound {
            if system.serviceIsActive(), let device = probe(), device.isIdle { up = true; break }
            pause(1)
        }
        guard up else {
            say("\(record.toVersion) did not come up within \(Int(bound)) s (the service active and the device idle); restarting into \(record.fromVersion).")
            try system.reboot(tryboot: false)
            return
        }
        try system.markGood()
        try file.write(record.confirmed(at: now()))
        say("Updated to \(record.toVersion): slot \(record.toSlot) is confirmed and boots from now on.")
    }
}
