import ChronoCore
import ChronoTesting
import Synchronization
import Testing
@testable import ChronoRuntime

/// Pairing in the daemon's own controller on a virtual clock: requests posted at exact instants, button
/// edges and deadlines fed as the real loop feeds them, every action kept.
@Suite("Pairing in the daemon controller on a virtual clock")
struct DaemonPairingTests {
    static func ms(_ value: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: value * 1_000_000) }
    static let anna = PairingRequester(name: "Anna's phone", address: "192.168.1.20")
    static let stranger = PairingRequester(name: "Stranger", address: "203.0.113.9")

    /// The shared controller rig, with the pairing requests' replies kept.
    final class Rig: ControllerRig {
        private let replyLog = ReplyLog()

        func request(_ requester: PairingRequester, within: TimeSpan, at instant: MonotonicInstant) {
            let log = replyLog
            take(controller.receive(.request(.approvePairing(requester, window: within), reply: { reply in
                log.entries.withLock { $0.append((requester.name, reply)) }
            }), at: instant))
        }

        var replies: [(String, DeviceReply)] { replyLog.entries.withLock { $0 } }
    }

    /// The replies, in the order they came.
    final class ReplyLog: Sendable {
        let entries = Mutex<[(String, DeviceReply)]>([])
    }

    static func press(_ at: Int64, hold: Int64) -> [SessionEvent] {
        [.button(RawButtonEdge(pressed: true, at: ms(at))), .button(RawButtonEdge(pressed: false, at: ms(at + hold)))]
    }

    @Test("a tap with a request waiting starts the session; during it a long press is the session's and approves nothing; back in idle the request is announced again and a long press approves it")
    func noApprovalDuringSession() throws {
        // Passive, 300 ms × 50, long press 400 ms.
        let rig = Rig(try QuickSession.configuration(.passive, intervalMilliseconds: 300, count: 50))
        rig.request(Self.anna, within: .seconds(30), at: Self.ms(100))
        #expect(rig.cues.map(\.0) == ["pairing-request"])
        #expect(rig.cues.first?.1 == Self.ms(100))
        #expect(rig.lines.last?.hasPrefix(#"Pairing request from "Anna's phone" at 192.168.1.20: to approve, hold the button (press) for 0.4s within 30s"#) == true)
        #expect(rig.lastState?.pairingRequest == Self.anna)
        #expect(DeviceDaemonController.holdText(.milliseconds(1500)) == "1.5s")
        #expect(DeviceDaemonController.holdText(.seconds(2)) == "2s")

        rig.feed(Self.press(1_000, hold: 60), until: Self.ms(1_500))             // the tap: a session
        #expect(rig.recorder.started.count == 1)
        #expect(rig.lastState?.state == .passiveRunning)
        #expect(rig.lastState?.pairingRequest == Self.anna)

        rig.feed(Self.press(2_000, hold: 600), until: Self.ms(4_000))            // the session's long press: it ends
        #expect(rig.recorder.finished.count == 1)
        #expect(rig.replies.isEmpty)
        #expect(rig.lines.filter { $0.hasPrefix(#"Pairing request from "Anna's phone""#) }.count == 2)
        #expect(rig.lines.contains { $0.hasPrefix("Idle. Tap to start") && $0.hasSuffix("hold to approve the pairing request.") })
        let announcedAgain = try #require(rig.cues.last { $0.0 == "pairing-request" }?.1)
        #expect(announcedAgain > Self.ms(2_400))

        rig.feed(Self.press(5_000, hold: 600), until: Self.ms(6_000))            // idle long press: approved
        #expect(rig.replies.map(\.0) == ["Anna's phone"])
        #expect(rig.replies.first?.1 == .pairingApproved)
        #expect(rig.lines.contains(#"Pairing approved: "Anna's phone" at 192.168.1.20."#))
        #expect(rig.lastState?.pairingRequest == nil)
        #expect(rig.recorder.started.count == 1)
    }

    @Test("requests never block start, end or discard, and the device refuses none of them for a request")
    func requestsBlockNothing() throws {
        let rig = Rig(try QuickSession.configuration(.passive, intervalMilliseconds: 300, count: 50))
        rig.request(Self.anna, within: .seconds(30), at: Self.ms(100))
        guard case .started = rig.ask(.start(.lastConfiguration), at: Self.ms(200)) else { Issue.record("start refused"); return }
        guard case .ended = rig.ask(.endPassive, at: Self.ms(1_000)) else { Issue.record("end refused"); return }
        rig.feed([], until: Self.ms(3_000))
        guard case .started = rig.ask(.start(.explicit(mode: .passive, interval: .testOnly(milliseconds: 300), count: 5)), at: Self.ms(3_100)) else {
            Issue.record("start refused"); return
        }
        guard case .discarded = rig.ask(.discard, at: Self.ms(3_200)) else { Issue.record("discard refused"); return }
        #expect(rig.replies.isEmpty)
        #expect(rig.recorder.started.count == 2)
    }

    @Test("the shown request expires at exactly its window; the next one is shown then, with its whole window")
    func expiryAndQueue() throws {
        let rig = Rig(try QuickSession.configuration(.challenge, count: 1))
        rig.request(Self.stranger, within: .seconds(2), at: Self.ms(100))
        rig.request(Self.anna, within: .seconds(2), at: Self.ms(500))
        #expect(rig.lines.last == #"Pairing request from "Anna's phone" at 192.168.1.20 waits behind 1 other(s); it is shown when they are answered or expire."#)
        #expect(rig.lastState?.pairingRequest == Self.stranger)
        #expect(rig.controller.nextDeadline == Self.ms(2_100))
        rig.feed([], until: Self.ms(2_099))
        #expect(rig.replies.isEmpty)
        rig.feed([], until: Self.ms(2_100))
        #expect(rig.replies.map(\.0) == ["Stranger"])
        #expect(rig.replies.first?.1 == .refused(.pairingRefused("no long press within the time given")))
        #expect(rig.lines.contains(#"Pairing request from "Stranger" at 203.0.113.9 expired unapproved."#))
        #expect(rig.lastState?.pairingRequest == Self.anna)
        #expect(rig.cues.filter { $0.0 == "pairing-request" }.map(\.1) == [Self.ms(100), Self.ms(2_100)])
        #expect(rig.controller.nextDeadline == Self.ms(4_100))
        // A long press begun after Anna's announcement approves Anna's, not the stranger's.
        rig.feed(Self.press(2_500, hold: 600), until: Self.ms(3_500))
        #expect(rig.replies.map(\.0) == ["Stranger", "Anna's phone"])
        #expect(rig.replies.last?.1 == .pairingApproved)
    }

    @Test("a name from the network is shown as text on the console: a bidirectional override is escaped")
    func nameAsText() throws {
        let rig = Rig(try QuickSession.configuration(.challenge, count: 1))
        rig.request(PairingRequester(name: "evil\u{202E}enohp", address: "203.0.113.9"), within: .seconds(30), at: Self.ms(100))
        #expect(rig.lines.last?.hasPrefix(#"Pairing request from "evil\u{202E}enohp" at 203.0.113.9:"#) == true, "\(rig.lines.last ?? "")")
    }

    @Test("a press already held when a request arrives browses presets; at most the queue's capacity waits")
    func heldPressAndCapacity() throws {
        let rig = Rig(try QuickSession.configuration(.challenge, count: 1))
        rig.take(rig.controller.handle(.button(RawButtonEdge(pressed: true, at: Self.ms(1_000)))))
        rig.request(Self.anna, within: .seconds(30), at: Self.ms(1_200))
        rig.feed([.button(RawButtonEdge(pressed: false, at: Self.ms(1_600)))], until: Self.ms(1_700))
        #expect(rig.lines.contains { $0.hasPrefix("Preset ") })
        #expect(rig.replies.isEmpty)
        for index in 1..<PairingQueue.capacity {
            rig.request(PairingRequester(name: "p\(index)", address: "10.0.0.\(index)"), within: .seconds(30), at: Self.ms(1_800))
        }
        #expect(rig.replies.isEmpty)
        #expect(rig.ask(.approvePairing(Self.stranger, window: .seconds(30)), at: Self.ms(1_900)) == .refused(.pairingQueueFull))
    }
}
