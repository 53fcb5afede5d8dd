import ChronoCommandLine
import ChronoCore
import ChronoStore
import ChronoSync
import ChronoTesting
import Foundation
import Testing
@testable import ChronoCLI
@testable import ChronoDevice

@Suite("Sync: the device's client, pusher and commands")
struct SyncDeviceTests {
    @Test("enrol, then push everything in batches: every finished session arrives once with its status, the cursor follows")
    func pushEverything() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        try fixture.addSessions(447)
        try fixture.addSessions(3, status: .aborted)
        let collector = FakeCollector()
        let enrolment = try await fixture.enrol(collector)
        let summary = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
        #expect(summary.line == "sent 450 sessions (450 new, 0 already there); 0 pending")
        #expect(collector.with { $0.batchSizes } == [200, 200, 50])
        #expect(collector.with { $0.sessions.count } == 450)
        #expect(collector.with { $0.sessions.values.filter { $0.status == "aborted" }.count } == 3)
        let state = try fixture.store.syncState()
        #expect(state.pending == 0 && state.cursor == 450 && state.lastSuccessUnixNanoseconds != nil)
        // Nothing pending: one empty exchange (preferences still travel).
        let again = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
        #expect(again.line == "sent 0 sessions (0 new, 0 already there); 0 pending")
        #expect(collector.with { $0.batchSizes.last } == 0)
    }

    @Test("an answer lost after the collector stored the batch: the batch is resent, every session a duplicate")
    func lostAnswer() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        try fixture.addSessions(5)
        let collector = FakeCollector()
        let enrolment = try await fixture.enrol(collector)
        collector.with { $0.loseAnswers = 1 }
        await #expect(throws: SyncFailure.self) { _ = try await fixture.exchange(collector).pushAll(enrolment: enrolment) }
        #expect(try fixture.store.syncState().cursor == 0)
        #expect(try fixture.store.syncState().pending == 5)
        let summary = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
        #expect(summary.line == "sent 5 sessions (0 new, 5 already there); 0 pending")
        #expect(collector.with { $0.sessions.count } == 5)
    }

    @Test("a 413 halves the batch until the collector takes it")
    func tooLarge() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        try fixture.addSessions(10)
        let collector = FakeCollector()
        let enrolment = try await fixture.enrol(collector)
        collector.with { $0.maximumSessionsPerBatch = 3 }
        let summary = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
        #expect(summary.accepted == 10 && summary.pending == 0)
        #expect(collector.with { $0.sessions.count } == 10)
        #expect(collector.with { $0.batchSizes }.prefix(3) == [10, 5, 2])
    }

    @Test("the collector's preferences land in the settings; the device's own changes reach the collector")
    func preferences() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        let collector = FakeCollector()
        let enrolment = try await fixture.enrol(collector)
        try fixture.store.setSetting(.defaultAttempts, to: "7", nowUnixSeconds: 1)
        collector.setPreference("default-interval", "2m")
        collector.setPreference("long-press-ms", "5")
        let summary = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
        #expect(summary.preferences.applied == ["default-interval = 2m 0s"])
        #expect(summary.preferences.refused.count == 1)
        #expect(try fixture.store.settings()[.defaultInterval] == "2m 0s")
        #expect(collector.with { $0.preferences.first { $0.key == "default-attempts" }?.value } == "7")
        #expect(SyncStatusText.lines(try fixture.store.syncState()).contains { $0.hasPrefix("preference refused: long-press-ms") })
    }

    @Test("each refusal is one line naming the fix, with its exit status; nothing moves")
    func refusals() async throws {
        let cases: [(status: Int, code: String, kind: SyncFailure.Kind, exit: ChronoCommandLine.ExitStatus, fix: String)] = [
            (401, "key_refused", .keyRefused, .permission, "sync add URL --code CODE"),
            (507, "collector_full", .collectorFull, .collectorRefused, "free space there"),
            (409, "protocol_mismatch", .protocolMismatch, .collectorRefused, "upgrade the older one"),
            (404, "whatever", .notACollector, .collectorRefused, "check the URL"),
        ]
        for entry in cases {
            let fixture = try ScratchStore()
            defer { fixture.remove() }
            try fixture.addSessions(2)
            let collector = FakeCollector()
            let enrolment = try await fixture.enrol(collector)
            collector.with { $0.refusal = (entry.status, entry.code) }
            do {
                _ = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
                Issue.record("\(entry.code) was not a failure")
            } catch let failure as SyncFailure {
                #expect(failure.kind == entry.kind)
                #expect(failure.status == entry.exit)
                #expect(failure.description.contains(entry.fix))
                #expect(!failure.description.contains("\n"))
            }
            let state = try fixture.store.syncState()
            #expect(state.pending == 2 && state.cursor == 0 && state.consecutiveFailures == 1 && state.lastFailureCode == entry.kind.rawValue)
            let failing = SyncStatusText.lines(state).filter { $0.hasPrefix("failing") }
            #expect(failing.count == 1 && failing[0].contains(entry.fix))
        }
    }

    @Test("a used enrolment code is refused with the fix, and nothing is saved")
    func codeRefused() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        let collector = FakeCollector()
        do {
            _ = try await fixture.exchange(collector).enrol(url: try CollectorURL(parsing: "http://h:1"), code: "nope", board: "desktop", softwareVersion: "0")
            Issue.record("an unknown code was accepted")
        } catch let failure as SyncFailure {
            #expect(failure.kind == .codeRefused && failure.status == .permission)
            #expect(failure.description.contains("ask the collector for a new code"))
        }
        #expect(try fixture.store.syncEnrolment() == nil)
        // `sync status` says so, with the fix.
        let failing = SyncStatusText.lines(try fixture.store.syncState()).filter { $0.hasPrefix("failing") }
        #expect(failing.count == 1 && failing[0].contains("code_refused") == false && failing[0].contains("ask the collector for a new code"))
    }

    @Test("the real client over a loopback socket: enrol and push; a closed port is no route")
    func overHTTP() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        try fixture.addSessions(3)
        let server = try await FakeCollectorServer.start(FakeCollector(codes: ["C"]))
        let url = try CollectorURL(parsing: server.url)
        let exchange = SyncExchange(store: fixture.store, transport: CollectorClient(url: url))
        let enrolment = try await exchange.enrol(url: url, code: "C", board: "desktop", softwareVersion: "0")
        let summary = try await exchange.pushAll(enrolment: enrolment)
        await server.stop()
        #expect(summary.accepted == 3)
        #expect(server.collector.with { $0.sessions.count } == 3)
        // Now nothing listens there.
        do {
            _ = try await exchange.pushAll(enrolment: enrolment)
            Issue.record("a closed port answered")
        } catch let failure as SyncFailure {
            #expect(failure.kind == .noRoute && failure.status == .collectorUnreachable)
            #expect(failure.description.contains("cannot connect to the collector at 127.0.0.1:\(server.port)"))
        }
    }

    @Test("a collector that accepts and never answers is given up on after the exchange timeout")
    func silentCollector() async throws {
        // A listening socket nobody accepts from: the kernel completes the connection, nothing answers.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        _ = listen(listener, 4)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let client = CollectorClient(url: try CollectorURL(parsing: "http://127.0.0.1:\(port)"), exchangeTimeout: .milliseconds(200))
        // Through an untyped Task: a typed-throws catch here crashes Swift 6.3.1's SILGen.
        let outcome = await Task { try await client.post(SyncProtocol.batchesPath, body: Data("{}".utf8), bearer: "k") }.result
        guard case .failure(let error) = outcome, let failure = error as? SyncFailure else {
            Issue.record("a silent collector answered")
            return
        }
        #expect(failure.kind == .noRoute)
        #expect(failure.description.contains("did not answer within"))
    }

    @Test("https:// to something that does not speak TLS is a TLS failure naming the certificate fix")
    func tlsFailure() async throws {
        let server = try await FakeCollectorServer.start(FakeCollector())
        let client = CollectorClient(url: try CollectorURL(parsing: "https://127.0.0.1:\(server.port)"), exchangeTimeout: .seconds(20))
        let outcome = await Task { try await client.post(SyncProtocol.enrolPath, body: Data("{}".utf8), bearer: nil) }.result
        await server.stop()
        guard case .failure(let error) = outcome, let failure = error as? SyncFailure else {
            Issue.record("a plain-http server answered over TLS")
            return
        }
        #expect(failure.kind == .tlsFailed && failure.status == .collectorRefused)
        #expect(failure.description.contains("certificate"))
    }

    @Test("the retry schedule: SyncProtocol's delays plus at most 20 % jitter, fixed per device")
    func retrySchedule() {
        let device = "0f2b6c1e-5d7a-4c3b-9e8f-1a2b3c4d5e6f"
        for failures in 1...12 {
            let base = Int64(SyncProtocol.retryDelaySeconds(afterFailures: failures)) * 1000
            let delay = SyncRetrySchedule.delayMilliseconds(afterFailures: failures, deviceID: device)
            #expect(delay >= base && delay < base + base / 5 + 1, "after \(failures) failures: \(delay) ms")
            #expect(delay == SyncRetrySchedule.delayMilliseconds(afterFailures: failures, deviceID: device))
        }
        #expect(SyncRetrySchedule.delayMilliseconds(afterFailures: 0, deviceID: device) == 0)
        let others = (0..<20).map { SyncRetrySchedule.delayMilliseconds(afterFailures: 1, deviceID: "device-\($0)") }
        #expect(Set(others).count > 10)
    }

    @Test("the pusher backs off while offline, keeps the count across restarts, and catches up when the collector returns")
    func pusher() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        try fixture.addSessions(4)
        let collector = FakeCollector()
        _ = try await fixture.enrol(collector)
        let device = try fixture.store.syncDeviceID()
        let lines = RecordingLines()
        collector.with { $0.refusal = (503, "unavailable") }
        let offline = SyncPusher(store: fixture.store, report: { lines.writeLine($0) }, transport: { _ in InProcessTransport(collector: collector) })
        #expect(await offline.step() == .afterMilliseconds(SyncRetrySchedule.delayMilliseconds(afterFailures: 1, deviceID: device)))
        #expect(await offline.step() == .afterMilliseconds(SyncRetrySchedule.delayMilliseconds(afterFailures: 2, deviceID: device)))
        // A restarted daemon goes on from the stored count.
        let restarted = SyncPusher(store: fixture.store, report: { lines.writeLine($0) }, transport: { _ in InProcessTransport(collector: collector) })
        #expect(await restarted.step() == .afterMilliseconds(SyncRetrySchedule.delayMilliseconds(afterFailures: 3, deviceID: device)))
        // The outage is reported once, not once per retry.
        #expect(lines.all.filter { $0.contains("not answering") }.count == 2)
        collector.with { $0.refusal = nil }
        #expect(await restarted.step() == .afterMilliseconds(Int64(SyncRetrySchedule.idlePollSeconds) * 1000))
        #expect(collector.with { $0.sessions.count } == 4)
        #expect(try fixture.store.syncState().consecutiveFailures == 0)
        #expect(lines.all.last == "sent 4 sessions (4 new, 0 already there); 0 pending")
        // Not enrolled: it waits for a nudge.
        try fixture.store.removeSyncEnrolment()
        #expect(await restarted.step() == .whenNudged)
    }

    @Test("the URL: http and https, nonsense refused")
    func urls() throws {
        #expect(try CollectorURL(parsing: "http://192.168.1.20:8080").description == "http://192.168.1.20:8080")
        #expect(try CollectorURL(parsing: "http://collector.lan/study/").description == "http://collector.lan:80/study")
        #expect(try CollectorURL(parsing: "http://[::1]:9000").host == "::1")
        let secure = try CollectorURL(parsing: "https://c.example.org/")
        #expect(secure.usesTLS && secure.port == 443 && secure.description == "https://c.example.org:443")
        for bad in ["ftp://x", "c.example.org:80", "http://", "http://h:0", "http://h:99999", "http://u@h:1", "http://h:1/?q"] {
            #expect(throws: CollectorURL.Problem.self, "\(bad)") { _ = try CollectorURL(parsing: bad) }
        }
    }

    @Test("the commands: refusals are one error line and an exit status; nothing is lost")
    func commands() throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        try fixture.addSessions(2)
        let dataDir = ["--data-dir", fixture.directory]
        #expect(Chronoception.execute(["sync", "now"] + dataDir) == ChronoCommandLine.ExitStatus.usage.rawValue)
        #expect(Chronoception.execute(["sync", "add", "not a url", "--code", "C"] + dataDir) == ChronoCommandLine.ExitStatus.usage.rawValue)
        #expect(Chronoception.execute(["sync", "add", "http://127.0.0.1:1", "--code", " "] + dataDir) == ChronoCommandLine.ExitStatus.usage.rawValue)
        // Nothing listens on port 1 of loopback.
        #expect(Chronoception.execute(["sync", "add", "http://127.0.0.1:1", "--code", "C"] + dataDir) == ChronoCommandLine.ExitStatus.collectorUnreachable.rawValue)
        #expect(try fixture.store.syncEnrolment() == nil)
        try fixture.store.saveSyncEnrolment(SyncEnrolment(collectorURL: "http://127.0.0.1:1", deviceKey: "k", collectorID: "c", deviceName: "n",
                                                          enrolledUnixNanoseconds: 0))
        #expect(Chronoception.execute(["sync", "add", "http://127.0.0.1:2", "--code", "C"] + dataDir) == ChronoCommandLine.ExitStatus.usage.rawValue)
        #expect(Chronoception.execute(["sync", "now"] + dataDir) == ChronoCommandLine.ExitStatus.collectorUnreachable.rawValue)
        #expect(Chronoception.execute(["sync", "status"] + dataDir) == ChronoCommandLine.ExitStatus.success.rawValue)
        let state = try fixture.store.syncState()
        #expect(state.pending == 2 && state.consecutiveFailures == 1 && state.lastFailureCode == "no_route")
        #expect(Chronoception.execute(["sync", "remove"] + dataDir) == ChronoCommandLine.ExitStatus.success.rawValue)
        #expect(try fixture.store.syncEnrolment() == nil)
        #expect(try fixture.store.syncState().pending == 2)
    }
}
