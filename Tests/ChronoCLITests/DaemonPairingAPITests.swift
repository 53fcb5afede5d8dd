import ChronoAPI
import ChronoCore
import ChronoHardware
import ChronoRuntime
import ChronoStore
import ChronoTesting
import Foundation
import Testing
@testable import ChronoCLI
@testable import ChronoDevice

/// Pairing through the whole device: the API server on a Unix socket, the daemon's adapter
/// (`DaemonDevice`), the real loop with the daemon controller, a scripted button and the state file.
@Suite("Pairing through the device API and the real daemon")
struct DaemonPairingAPITests {
    @Test("a waiting pairing request blocks neither POST /device/start nor discard; GET /device, the state file and `status` name it; a long press in idle approves it")
    func pendingRequestBlocksNothing() async throws {
        var template = Array("/tmp/chrono-pairing-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try ChronoStore.open(StoreLocation(directory: directory + "/data"))

        let configuration = try SessionConfiguration(
            mode: .challenge, interval: .testOnly(milliseconds: 300), plannedCount: 1,
            timing: SessionTiming(feedbackDuration: .milliseconds(200), abortConfirmWindow: .milliseconds(2000)),
            gestures: GestureSettings(debounce: .milliseconds(5), longPress: .milliseconds(400)))
        let library = InMemoryDeviceLibrary(startingConfiguration: configuration, healthStatus: "on")
        let keeper = SnapshotKeeper(library: library)
        let controller = DeviceDaemonController(keeper: keeper, board: "desktop", pressHint: "press space",
                                                soundStatus: { .inaudible(reason: "none") })
        let button = try ScriptedButton()
        let lines = RecordingLines()
        let hub = DeviceEventHub()
        let stateFile = StateFile(path: directory + "/state.json")
        let finished = CollectedFinishes()
        let loop = try SessionLoop(
            button: button, motor: RecordingMotor(), sound: nil, controller: controller,
            sinks: LoopSinks(console: lines, stateFile: stateFile, recorder: RecorderFanOut([library, finished]), events: hub),
            settings: SessionLoop.Settings(realtimePriority: nil, lockMemory: false, catchSignals: false))
        keeper.connect(loop.messenger)
        let ended = DispatchSemaphore(value: 0)
        let box = PairingLoopBox(loop: loop)
        Thread {
            _ = try? box.loop.run()
            ended.signal()
        }.start()
        #expect(await lines.arrival(ofLineContaining: "Ready. Tap"))

        let device = DaemonDevice(hub: hub)
        device.attach(DaemonHandle(loop: loop, events: hub))
        let server = APIServer(store: store, device: device,
                               configuration: APIServerConfiguration(socketPath: directory + "/api.sock", tcp: nil))
        let serving = Task { try await server.run() }
        _ = try await server.listening()
        let client = DeviceAPIClient(socketPath: directory + "/api.sock")

        async let pairing = client.request(.POST, "/pairing", json: #"{"name": "Anna's phone"}"#)
        #expect(await lines.arrival(ofLineContaining: #"Pairing request from "Anna's phone" at unix-socket: to approve, hold the button"#))
        let status = try await client.request(.GET, "/device")
        let shown = (status.json["device"] as? [String: Any])?["pairing_request"] as? [String: Any]
        #expect(shown?["name"] as? String == "Anna's phone")
        #expect(shown?["address"] as? String == "unix-socket")
        let follow = FollowLine.text(event: "state", try #require(status.json["device"] as? [String: Any]))
        #expect(follow?.hasSuffix(#" · pairing request from "Anna's phone" at unix-socket (hold the button while idle to approve)"#) == true, "\(follow ?? "")")
        // The state file says it too, and `status` in words.
        let fileText = try #require(stateFile.read())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(fileText.utf8)) as? [String: Any])
        #expect((object["pairing_request"] as? [String: Any])?["address"] as? String == "unix-socket")
        #expect(StateFileText.lines(object).contains("Pairing request: Anna's phone from unix-socket (hold the button while idle to approve)"))

        // Start and discard work while it waits (they failed with 409 before).
        let started = try await client.request(.POST, "/device/start")
        #expect(started.status == 202, "\(started.json)")
        let discarded = try await client.request(.POST, "/device/discard")
        #expect(discarded.status == 202, "\(discarded.json)")
        // Back in idle it is announced again; a long press begun after that approves it.
        #expect(await lines.arrival(ofLineContaining: "Idle. Tap to start"))
        let press = HardwareClock.monotonicNanoseconds() + 100_000_000
        button.startReplay([ButtonEdge(.pressed, at: press), ButtonEdge(.released, at: press + 600_000_000)])
        let reply = try await pairing
        #expect(reply.status == 201, "\(reply.json)")
        #expect(reply.json["key"] is String)
        #expect(await lines.arrival(ofLineContaining: #"Pairing approved: "Anna's phone" at unix-socket."#))

        await server.shutdown()
        _ = await serving.result
        loop.stopper.stop(reason: "done")
        #expect(await eventually { ended.wait(timeout: .now()) == .success })
        // One session: the one started over the API (and discarded); the long press started none.
        #expect(finished.all.map(\.outcome.status) == [.aborted])
    }
}

private struct PairingLoopBox: @unchecked Sendable {
    let loop: SessionLoop
}
