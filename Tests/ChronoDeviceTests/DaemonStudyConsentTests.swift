import ChronoCore
import ChronoRuntime
import ChronoStore
import ChronoTesting
import Foundation
import Synchronization
import Testing
@testable import ChronoDevice

/// The daemon and the study's consent (docs/STUDIES.md, "Consent"), over the real store on virtual
/// time: no study session starts before acceptance — the tap plays the consent-needed cue instead and
/// `start {}` is refused — while the person's own presets still run; accepted, the tap starts the
/// planned session; declined, the study stops and the tap is the person's own again.
@Suite("The daemon waits for consent before a study session", .serialized)
struct DaemonStudyConsentTests {
    typealias Daemon = DaemonStudyTests.Daemon

    static func storeWithConsentStudy() throws -> ScratchStore {
        let scratch = try DaemonStudyTests.storeWithStudy()
        try scratch.store.keepStudyAssignment(StudyFixture.syncedWithConsent, nowUnixNanoseconds: StudyFixture.startUnixNanoseconds)
        return scratch
    }

    /// The labels of the vibrations the daemon planned (a cue's label is its name).
    static func cues(_ daemon: Daemon) -> [VibrationLabel] {
        daemon.actions.compactMap { if case .vibrate(let vibration) = $0 { return vibration.label } else { return nil } }
    }

    /// `POST /device/start {}` as the API asks it of the loop.
    static func startLast(_ daemon: Daemon, at: Int64) -> DeviceReply? {
        let answer = Mutex<DeviceReply?>(nil)
        let actions = daemon.controller.receive(.request(.start(.lastConfiguration), reply: { reply in answer.withLock { $0 = reply } }),
                                                at: DaemonStudyTests.ms(at))
        daemon.take(actions)
        return answer.withLock { $0 }
    }

    @Test("pending: the line and status say to open the page, the tap plays consent-needed and starts nothing, start {} is refused, a preset still runs")
    func pendingRefusesTheStudySession() throws {
        let scratch = try Self.storeWithConsentStudy()
        defer { scratch.remove() }
        let daemon = try Daemon(scratch.store, base: DaemonStudyTests.base(day: 0, hour: 9))
        let line = "Study sleep-2026 · consent needed: open the device's page to read it and accept or decline"
        #expect(daemon.lastState?.study?.text == line)
        #expect(daemon.lastState?.study?.consent == .needed)
        #expect(daemon.lastState?.study?.dueNow == false)
        #expect(daemon.lastState?.nextSession?.inStudy == false)
        #expect(DaemonStudyTests.statusLines(daemon).contains(line))
        let file = try #require(daemon.lastState?.published(at: WallTime(unixNanoseconds: 0, utcOffsetSeconds: 0)).stateFileJSON(pid: 1))
        #expect(file["study"]?["consent"] == .string("needed"))

        daemon.feed(DaemonStudyTests.tap(100), until: DaemonStudyTests.ms(2_000))
        #expect(daemon.starts.isEmpty)
        // Two: the due session's reminder (it waits for consent, so it asks for it) and the tap's.
        #expect(Self.cues(daemon).filter { $0 == .cue(.consentNeeded) }.count == 2)
        #expect(Self.cues(daemon).contains(.cue(.sessionDue)) == false)
        #expect(daemon.lines.all.contains("Reminder: Study sleep-2026: day 1, session 1 is due and waits for your consent: open the device's page to read it and accept or decline."),
                "\(daemon.lines.all)")
        #expect(daemon.lines.all.contains("The study sleep-2026 asks for your consent before its sessions: open the device's page to read it and accept or decline. Hold for your own presets."),
                "\(daemon.lines.all)")
        #expect(Self.startLast(daemon, at: 3_000) == .refused(.consentNeeded(protocolName: "sleep-2026")))
        #expect(daemon.starts.isEmpty)

        // A long press and a tap on the preset: the person's own session runs, untagged.
        daemon.feed(DaemonStudyTests.tap(5_000, hold: 1_500) + DaemonStudyTests.tap(7_000), until: DaemonStudyTests.ms(8_000))
        #expect(daemon.starts.count == 1)
        #expect(daemon.starts.first?.study == nil)
    }

    @Test("accepted on the page (the store), the tap starts the planned session; declined, the study stops and the tap is the person's own")
    func acceptThenDecline() throws {
        let scratch = try Self.storeWithConsentStudy()
        defer { scratch.remove() }
        let daemon = try Daemon(scratch.store, base: DaemonStudyTests.base(day: 0, hour: 9))
        try scratch.store.decideStudyConsent(.accepted, nowUnixNanoseconds: DaemonStudyTests.base(day: 0, hour: 9))
        let keeper = daemon.keeper
        daemon.take([.offLoop { keeper.refresh() }])
        #expect(daemon.lastState?.study?.text == "Study sleep-2026 · day 1 · session 1 of 2 · due now")
        #expect(daemon.lastState?.study?.consent == .accepted)
        DaemonStudyTests.runTwoAttempts(daemon, from: 100)
        #expect(daemon.starts.map(\.study?.planPosition) == [0])
        #expect(!Self.cues(daemon).contains(.cue(.consentNeeded)))

        try scratch.store.decideStudyConsent(.withdrawn, nowUnixNanoseconds: DaemonStudyTests.base(day: 0, hour: 10))
        daemon.take([.offLoop { keeper.refresh() }])
        #expect(daemon.lastState?.study?.text == "Study sleep-2026 · stopped: consent withdrawn · 1 of 6 done")
        #expect(daemon.lastState?.study?.consent == .withdrawn)
        #expect(DaemonStudyTests.described(daemon.lastState?.nextSession) == "passive 15s ×2")
        // Two hours later a planned session would be due: the tap starts the person's own instead, and no cue asks.
        daemon.feed(DaemonStudyTests.tap(2 * DaemonStudyTests.hour), until: DaemonStudyTests.ms(2 * DaemonStudyTests.hour + 500))
        #expect(daemon.starts.count == 2)
        #expect(daemon.starts.last?.study == nil)
        #expect(daemon.starts.last?.configuration.mode == .passive)
        #expect(!Self.cues(daemon).contains(.cue(.consentNeeded)))
    }
}
