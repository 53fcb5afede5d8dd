import ChronoCore
import ChronoTesting
import Testing
@testable import ChronoRuntime

/// An update of the card in the daemon's own controller on a virtual clock: the record reaches the
/// loop through the snapshot, as the store watcher hands it over, and holds sessions until the new
/// version has confirmed itself.
@Suite("An update of the card in the daemon controller")
struct DaemonUpdateTests {
    static func ms(_ value: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: value * 1_000_000) }
    static let started = WallTime(unixNanoseconds: 1_796_000_000_000_000_000, utcOffsetSeconds: 0)
    static let old = ReleaseVersion("0.1.0")!
    static let new = ReleaseVersion("0.2.0")!

    static func tap(_ at: Int64) -> [SessionEvent] {
        [.button(RawButtonEdge(pressed: true, at: ms(at))), .button(RawButtonEdge(pressed: false, at: ms(at + 60)))]
    }

    /// A rig whose snapshot carries `phase`'s record while `running` runs from `slot`, as
    /// `StoreDeviceLibrary.updateStanding()` fills it.
    final class Rig: ControllerRig {
        let library: SettableLibrary
        let base: DeviceSnapshot

        init(_ configuration: SessionConfiguration, phase: UpdateRecord.Phase?, running: ReleaseVersion, slot: BootSlot) {
            base = InMemoryDeviceLibrary(startingConfiguration: configuration, healthStatus: "on").prepareSnapshot()
            library = SettableLibrary(Self.snapshot(base, phase: phase, running: running, slot: slot))
            super.init(library: library)
        }

        static func snapshot(_ base: DeviceSnapshot, phase: UpdateRecord.Phase?, running: ReleaseVersion, slot: BootSlot) -> DeviceSnapshot {
            var snapshot = base
            if let phase {
                let record = UpdateRecord(phase: phase, fromVersion: DaemonUpdateTests.old, toVersion: DaemonUpdateTests.new, fromSlot: .a,
                                          started: DaemonUpdateTests.started, progress: phase == .installing ? 40 : nil)
                snapshot.update = DeviceState.Update(record: record, running: running, slot: slot)
                snapshot.updateRefusal = record.sessionRefusal
            }
            return snapshot
        }

        /// What the store watcher does when `chronoception update` writes the record.
        func recordBecomes(_ phase: UpdateRecord.Phase, running: ReleaseVersion, slot: BootSlot, at instant: MonotonicInstant) {
            library.set(Self.snapshot(base, phase: phase, running: running, slot: slot))
            settingsChanged(at: instant)
        }
    }

    @Test("while an update installs, a start request is refused `updating` with the reason, and a tap gets the error cue and starts nothing")
    func installingHoldsSessions() throws {
        let rig = Rig(try QuickSession.configuration(.passive, intervalMilliseconds: 300, count: 5), phase: .installing, running: Self.old, slot: .a)
        let reason = "an update to 0.2.0 is installing; the device restarts when it is done."
        #expect(rig.ask(.start(.lastConfiguration), at: Self.ms(1_000)) == .refused(.updating(reason)))
        #expect(DeviceRefusal.updating(reason).code == .updating)
        rig.feed(Self.tap(2_000), until: Self.ms(3_000))
        #expect(rig.recorder.started.isEmpty)
        #expect(rig.lines.contains("No session: \(reason)"))
        #expect(rig.cues.map(\.0) == ["error"])
        let update = try #require(rig.lastState?.update)
        #expect(update.phase == .installing && update.progress == 40 && update.slot == .a && update.runningVersion == "0.1.0")
        #expect(update.line == "Installing 0.2.0: 40 %; no session starts until it is done.")
    }

    @Test("the new slot's first boot holds sessions until it confirms; then the ready cue plays once, the line says so, and a start runs")
    func tryingThenConfirmed() throws {
        let rig = Rig(try QuickSession.configuration(.passive, intervalMilliseconds: 300, count: 5), phase: .trying, running: Self.new, slot: .b)
        let reason = "0.2.0 is starting for the first time; sessions start once it has confirmed itself."
        #expect(rig.ask(.start(.lastConfiguration), at: Self.ms(1_000)) == .refused(.updating(reason)))
        rig.recordBecomes(.confirmed, running: Self.new, slot: .b, at: Self.ms(2_000))
        #expect(rig.cues.filter { $0.0 == "device-ready" }.map(\.1) == [Self.ms(2_000)])
        #expect(rig.lines.contains("Updated to 0.2.0."))
        #expect(rig.lastState?.update?.phase == .confirmed)
        guard case .started = rig.ask(.start(.lastConfiguration), at: Self.ms(3_000)) else { Issue.record("start refused after the confirmation"); return }
        // A later snapshot with the same confirmed record plays nothing again.
        rig.recordBecomes(.confirmed, running: Self.new, slot: .b, at: Self.ms(4_000))
        #expect(rig.cues.filter { $0.0 == "device-ready" }.count == 1)
    }

    @Test("a rolled-back or failed update holds nothing: a start runs, and the state says what happened")
    func rolledBackHoldsNothing() throws {
        let rig = Rig(try QuickSession.configuration(.passive, intervalMilliseconds: 300, count: 5), phase: .rolledBack, running: Self.old, slot: .a)
        guard case .started = rig.ask(.start(.lastConfiguration), at: Self.ms(1_000)) else { Issue.record("start refused after a rollback"); return }
        #expect(rig.lastState?.update?.line == "The update to 0.2.0 did not start and was rolled back; 0.1.0 is running.")
    }
}
