import ChronoAPI
import ChronoCollector
import ChronoCore
import ChronoStore
import ChronoSync
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The sync routes and the read API through the router (HummingbirdTesting), refusals included.
/// Requests here come from a peer the router sees as remote, as a device on the network would.
@Suite("Collector routes")
struct SyncRouteTests {
    typealias F = CollectorFixtures

    struct Answer {
        var status: HTTPResponse.Status
        var text: String
        var headers: HTTPFields
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:] }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
    }

    static func configuration(perAddress: Int = 10) -> CollectorServerConfiguration {
        var configuration = CollectorServerConfiguration(socketPath: nil, tcp: nil, now: { F.now })
        configuration.refusedEnrolmentsPerMinutePerAddress = perAddress
        configuration.lockoutClock = { 0 }
        return configuration
    }

    static func withClient(_ store: any CollectorStore, configuration: CollectorServerConfiguration = configuration(),
                           _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let application = Application(router: CollectorRouter.make(store: store, configuration: configuration))
        try await application.test(.router) { client in try await body(client) }
    }

    static func post(_ client: any TestClientProtocol, _ path: String, json: some Encodable, key: String? = nil) async throws -> Answer {
        try await post(client, path, body: try JSONEncoder().encode(json), key: key)
    }

    static func post(_ client: any TestClientProtocol, _ path: String, body: Data, key: String? = nil) async throws -> Answer {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let key { headers[.authorization] = "Bearer \(key)" }
        return try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(bytes: body)) { response in
            Answer(status: response.status, text: String(buffer: response.body), headers: response.headers)
        }
    }

    static func get(_ client: any TestClientProtocol, _ path: String, key: String? = nil) async throws -> Answer {
        var headers: HTTPFields = [:]
        if let key { headers[.authorization] = "Bearer \(key)" }
        return try await client.execute(uri: path, method: .get, headers: headers) { response in
            Answer(status: response.status, text: String(buffer: response.body), headers: response.headers)
        }
    }

    static func makeCode(_ store: any CollectorStore, name: String = "P001", expiresIn: Int64 = 86_400_000_000_000) async throws -> String {
        let code = CollectorCredentials.newCode()
        try await store.addEnrolment(PendingEnrolment(codeSHA256: CollectorCredentials.codeDigest(code)!, name: name, participant: "P001",
                                                      createdUnixNanoseconds: F.now, expiresUnixNanoseconds: F.now + expiresIn),
                                     nowUnixNanoseconds: F.now)
        return code
    }

    @Test(arguments: StoreKind.available)
    func enrolThenPushThenReplay(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let code = try await Self.makeCode(store)
            try await Self.withClient(store) { client in
                // The code as a person might type it: lower case, no dashes.
                let typed = code.replacingOccurrences(of: "-", with: "").lowercased()
                let enrolled = try await Self.post(client, SyncProtocol.enrolPath, json: F.request(code: typed))
                #expect(enrolled.status == .ok)
                let grant = try JSONDecoder().decode(EnrolmentGrant.self, from: Data(enrolled.text.utf8))
                let collectorID = try await store.collectorID()
                #expect(grant.deviceName == "P001" && grant.key.hasPrefix("ccd_") && grant.collectorID == collectorID)
                // Single use.
                let again = try await Self.post(client, SyncProtocol.enrolPath, json: F.request(code: code))
                #expect(again.status == .forbidden && again.errorCode == "code_refused")

                let batch = F.batch([F.challenge(), F.passive()])
                let first = try await Self.post(client, SyncProtocol.batchesPath, json: batch, key: grant.key)
                #expect(first.status == .ok)
                let receipt = try JSONDecoder().decode(SyncReceipt.self, from: Data(first.text.utf8))
                #expect(receipt.accepted == 2 && receipt.duplicates == 0 && receipt.acknowledgedThrough == 2)
                #expect(first.json["acknowledged_through"] as? Int == 2 && first.json["protocol"] as? Int == 1)
                let replay = try JSONDecoder().decode(SyncReceipt.self, from: Data(try await Self.post(client, SyncProtocol.batchesPath, json: batch, key: grant.key).text.utf8))
                #expect(replay.accepted == 0 && replay.duplicates == 2)
            }
            #expect(try await store.sessions(CollectorSessionQuery()).count == 2)
        }
    }

    @Test(arguments: StoreKind.available)
    func refusalsCarryTheProtocolsCodes(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let key = try await F.enrol(store)
            let expired = try await Self.makeCode(store, name: "late", expiresIn: -1)
            try await Self.withClient(store) { client in
                // 401: no key, an unknown key, a key of another device.
                var answer = try await Self.post(client, SyncProtocol.batchesPath, json: F.batch([F.challenge()]))
                #expect(answer.status == .unauthorized && answer.errorCode == "key_refused" && answer.headers[.wwwAuthenticate] != nil)
                answer = try await Self.post(client, SyncProtocol.batchesPath, json: F.batch([F.challenge()]), key: "ccd_nope")
                #expect(answer.status == .unauthorized && answer.errorCode == "key_refused")
                answer = try await Self.post(client, SyncProtocol.batchesPath, json: F.batch([F.challenge()], device: F.otherDeviceID), key: key)
                #expect(answer.status == .unauthorized && answer.errorCode == "key_refused")
                // 403: an expired code, a malformed one.
                answer = try await Self.post(client, SyncProtocol.enrolPath, json: F.request(code: expired, device: F.otherDeviceID))
                #expect(answer.status == .forbidden && answer.errorCode == "code_refused")
                answer = try await Self.post(client, SyncProtocol.enrolPath, json: F.request(code: "not-a-code", device: F.otherDeviceID))
                #expect(answer.status == .forbidden && answer.errorCode == "code_refused")
                // 400: a board no session could name (its sessions would all be refused), before the code is spent.
                var longBoard = F.request(code: expired, device: F.otherDeviceID)
                longBoard.board = String(repeating: "b", count: SessionValidation.maximumBoardLength + 1)
                answer = try await Self.post(client, SyncProtocol.enrolPath, json: longBoard)
                #expect(answer.status == .badRequest && answer.errorCode == "invalid_request")
                #expect(answer.text.contains("board is 65 characters long; a session's board is 1 to 64"), "\(answer.text)")
                // 409: another protocol version, whatever else the body holds.
                var newer = F.batch([F.challenge()])
                newer.protocolVersion = 2
                answer = try await Self.post(client, SyncProtocol.batchesPath, json: newer, key: key)
                #expect(answer.status == .conflict && answer.errorCode == "protocol_mismatch")
                answer = try await Self.post(client, SyncProtocol.batchesPath, body: Data(#"{"protocol": 7, "whatever": true}"#.utf8), key: key)
                #expect(answer.status == .conflict && answer.errorCode == "protocol_mismatch")
                // 413: more sessions than a batch may hold.
                let many = (0...SyncProtocol.maximumSessionsPerBatch).map { _ in F.passive() }
                answer = try await Self.post(client, SyncProtocol.batchesPath, json: F.batch(many), key: key)
                #expect(answer.status == .contentTooLarge && answer.errorCode == "batch_too_large")
                // 422: one bad session refuses the batch, names it, and keeps nothing.
                var bad = F.challenge()
                bad.attempts[1].tapMonotonicNanoseconds = bad.attempts[1].startMonotonicNanoseconds - 1
                answer = try await Self.post(client, SyncProtocol.batchesPath, json: F.batch([F.challenge(), bad]), key: key)
                #expect(answer.status == .unprocessableContent && answer.errorCode == "invalid_batch")
                #expect(answer.text.contains(bad.id))
                answer = try await Self.post(client, SyncProtocol.batchesPath, body: Data("{".utf8), key: key)
                #expect(answer.status == .unprocessableContent && answer.errorCode == "invalid_batch")
            }
            #expect(try await store.sessions(CollectorSessionQuery()).isEmpty)
            // A revoked key: 401 with the fix.
            _ = try await store.revokeDevice(named: "P001", nowUnixNanoseconds: F.now)
            try await Self.withClient(store) { client in
                let answer = try await Self.post(client, SyncProtocol.batchesPath, json: F.batch([F.challenge()]), key: key)
                #expect(answer.status == .unauthorized && answer.errorCode == "key_refused" && answer.text.contains("revoked"))
            }
        }
    }

    @Test func aFullStoreAnswers507() async throws {
        try await StoreKind.sqlite.withStore { store in
            let key = try await F.enrol(store)
            try await Self.withClient(FullStore(base: store)) { client in
                let answer = try await Self.post(client, SyncProtocol.batchesPath, json: F.batch([F.challenge()]), key: key)
                #expect(answer.status.code == 507 && answer.errorCode == "collector_full")
            }
        }
    }

    @Test(arguments: StoreKind.available)
    func aRevokedReaderKeyIsRefusedFromThenOn(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let first = CollectorCredentials.newReaderKey(), second = CollectorCredentials.newReaderKey(), third = CollectorCredentials.newReaderKey()
            try await store.addReaderKey(ReaderKey(id: "r1", name: "analysis", createdUnixNanoseconds: F.now), keySHA256: CollectorCredentials.keyDigest(first))
            try await store.addReaderKey(ReaderKey(id: "r2", name: "laptop", createdUnixNanoseconds: F.now), keySHA256: CollectorCredentials.keyDigest(second))
            try await store.addReaderKey(ReaderKey(id: "r3", name: "laptop", createdUnixNanoseconds: F.now), keySHA256: CollectorCredentials.keyDigest(third))
            try await Self.withClient(store) { client in
                #expect(try await Self.get(client, "/api/v1/devices", key: first).status == .ok)
                // By name.
                #expect(try await store.revokeReaderKey("analysis") == ReaderKey(id: "r1", name: "analysis", createdUnixNanoseconds: F.now))
                let refused = try await Self.get(client, "/api/v1/devices", key: first)
                #expect(refused.status == .unauthorized && refused.errorCode == "key_unknown")
                // A name on two keys is not guessed at: nothing is revoked, and the message names both IDs.
                let ambiguous = await #expect(throws: CollectorError.self) { try await store.revokeReaderKey("laptop") }
                #expect(ambiguous == .invalidValue("2 reader keys are called 'laptop' (IDs r2, r3); revoke one by its ID."))
                #expect(try await Self.get(client, "/api/v1/devices", key: second).status == .ok)
                // By ID: only that key goes.
                #expect(try await store.revokeReaderKey("r2").name == "laptop")
                #expect(try await Self.get(client, "/api/v1/devices", key: second).errorCode == "key_unknown")
                #expect(try await Self.get(client, "/api/v1/devices", key: third).status == .ok)
                // Again, or a key that never was: a clear refusal naming the keys there are.
                let unknown = await #expect(throws: CollectorError.self) { try await store.revokeReaderKey("r2") }
                #expect(unknown == .invalidValue("No reader key has the ID or name 'r2' (keys: r3 laptop). `chronoception-collector keys list` lists them."))
                #expect(try await store.readerKeys().map(\.id) == ["r3"])
            }
        }
    }

    @Test func onlyRefusedEnrolmentAttemptsAreRateLimited() async throws {
        try await StoreKind.sqlite.withStore { store in
            try await Self.withClient(store, configuration: Self.configuration(perAddress: 3)) { client in
                // A study team enrolling a cohort from one desk: four times the limit, all in one minute, none refused.
                for index in 0..<12 {
                    let code = try await Self.makeCode(store, name: "P1\(index)")
                    let answer = try await Self.post(client, SyncProtocol.enrolPath,
                                                     json: F.request(code: code, device: UUID().uuidString.lowercased()))
                    #expect(answer.status == .ok)
                }
                // Guesses count: the fourth wrong code from the same address waits for the next minute.
                for _ in 0..<3 {
                    let answer = try await Self.post(client, SyncProtocol.enrolPath, json: F.request(code: CollectorCredentials.newCode()))
                    #expect(answer.status == .forbidden)
                }
                let limited = try await Self.post(client, SyncProtocol.enrolPath, json: F.request(code: CollectorCredentials.newCode()))
                #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] != nil && limited.errorCode == "rate_limited")
                // The wait in words follows the display rule (DurationText): "37s", never "37 s".
                let message = ((limited.json["error"] as? [String: Any])?["message"] as? String) ?? ""
                #expect(message.wholeMatch(of: /Too many refused enrolment attempts; try again in ([1-9]\d*m )?\d{1,2}s\./) != nil, "\(message)")
                // Then even a good code waits: the address is not checking codes this minute.
                let good = try await Self.makeCode(store, name: "P99")
                let waiting = try await Self.post(client, SyncProtocol.enrolPath, json: F.request(code: good, device: UUID().uuidString.lowercased()))
                #expect(waiting.status == .tooManyRequests)
            }
            #expect(try await store.devices().count == 12)
        }
    }

    @Test(arguments: StoreKind.available)
    func theReadAPINeedsAReaderKeyFromBeyondLoopback(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await F.enrol(store)
            _ = try await store.ingest(try IngestPlan.validate(F.batch([F.challenge(), F.passive()])), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            let secret = CollectorCredentials.newReaderKey()
            try await store.addReaderKey(ReaderKey(id: "r1", name: "analysis", createdUnixNanoseconds: F.now), keySHA256: CollectorCredentials.keyDigest(secret))
            try await Self.withClient(store) { client in
                var answer = try await Self.get(client, "/api/v1/devices")
                #expect(answer.status == .unauthorized && answer.errorCode == "key_required")
                answer = try await Self.get(client, "/api/v1/devices", key: "ccr_wrong")
                #expect(answer.status == .unauthorized && answer.errorCode == "key_unknown")
                answer = try await Self.get(client, "/api/v1/devices", key: secret)
                #expect(answer.status == .ok)
                let devices = try #require(answer.json["devices"] as? [[String: Any]])
                #expect(devices.count == 1 && devices[0]["name"] as? String == "P001" && devices[0]["sessions"] as? Int == 2)
                answer = try await Self.get(client, "/api/v1/sessions?device=P001", key: secret)
                #expect((answer.json["sessions"] as? [[String: Any]])?.count == 2)
                answer = try await Self.get(client, "/api/v1/progress?participant=P001", key: secret)
                let progress = try #require(answer.json["progress"] as? [String: Any])
                #expect(progress["completed_sessions"] as? Int == 2)
                answer = try await Self.get(client, "/api/v1/progress", key: secret)
                #expect(answer.status == .badRequest)
                // A device or participant not enrolled here is a 404, not an empty answer; by UUID in any case is known.
                for path in ["/api/v1/progress?device=P002", "/api/v1/sessions?device=P002", "/api/v1/export.csv?device=P002"] {
                    answer = try await Self.get(client, path, key: secret)
                    #expect(answer.status == .notFound && answer.errorCode == "unknown_device", "\(path)")
                }
                answer = try await Self.get(client, "/api/v1/progress?participant=P002", key: secret)
                #expect(answer.status == .notFound && answer.errorCode == "unknown_participant")
                answer = try await Self.get(client, "/api/v1/progress?device=\(F.deviceID.uppercased())", key: secret)
                #expect((answer.json["progress"] as? [String: Any])?["completed_sessions"] as? Int == 2)
                answer = try await Self.get(client, "/api/v1/export.csv?device=P001", key: secret)
                #expect(answer.status == .ok && answer.headers[.contentType]?.hasPrefix("text/csv") == true)
                #expect(answer.text.hasPrefix("device_id,device_name,participant,") && answer.text.split(separator: "\r\n").count == 1 + 3 + 3)
                // The pages need no key: they hold no data.
                answer = try await Self.get(client, "/collector.html")
                #expect(answer.status == .ok && answer.text.contains("device-picker"))
                answer = try await Self.get(client, "/app.css")
                #expect(answer.status == .ok)
            }
        }
    }
}

/// A store whose disk is full: every ingest fails the way SQLite's SQLITE_FULL maps.
struct FullStore: CollectorStore {
    let base: any CollectorStore
    var location: String { base.location }
    func collectorID() async throws -> String { try await base.collectorID() }
    func addEnrolment(_ enrolment: PendingEnrolment, nowUnixNanoseconds: Int64) async throws { try await base.addEnrolment(enrolment, nowUnixNanoseconds: nowUnixNanoseconds) }
    func redeemEnrolment(codeSHA256: String, request: EnrolmentRequest, keySHA256: String, nowUnixNanoseconds: Int64) async throws -> CollectorDevice {
        try await base.redeemEnrolment(codeSHA256: codeSHA256, request: request, keySHA256: keySHA256, nowUnixNanoseconds: nowUnixNanoseconds)
    }
    func device(keySHA256: String) async throws -> CollectorDevice? { try await base.device(keySHA256: keySHA256) }
    func ingest(_ plan: IngestPlan, deviceID: String, nowUnixNanoseconds: Int64) async throws -> SyncReceipt {
        throw CollectorError.full("The collector's disk is full; nothing of the request was kept. Free space on it.")
    }
    func devices() async throws -> [CollectorDevice] { try await base.devices() }
    func revokeDevice(named name: String, nowUnixNanoseconds: Int64) async throws -> CollectorDevice { try await base.revokeDevice(named: name, nowUnixNanoseconds: nowUnixNanoseconds) }
    func sessions(_ query: CollectorSessionQuery) async throws -> [CollectorSession] { try await base.sessions(query) }
    func preferences(deviceNamed name: String) async throws -> (device: CollectorDevice, preferences: [StampedPreference]) { try await base.preferences(deviceNamed: name) }
    func setPreference(deviceNamed name: String, key: SettingKey, value: String) async throws -> StampedPreference { try await base.setPreference(deviceNamed: name, key: key, value: value) }
    func addReaderKey(_ key: ReaderKey, keySHA256: String) async throws { try await base.addReaderKey(key, keySHA256: keySHA256) }
    func readerKey(keySHA256: String) async throws -> ReaderKey? { try await base.readerKey(keySHA256: keySHA256) }
    func readerKeys() async throws -> [ReaderKey] { try await base.readerKeys() }
    func revokeReaderKey(_ idOrName: String) async throws -> ReaderKey { try await base.revokeReaderKey(idOrName) }
    func loadStudyProtocol(name: String, version: Int, document: String, fingerprint: String, nowUnixNanoseconds: Int64) async throws -> StudyProtocolLoad {
        try await base.loadStudyProtocol(name: name, version: version, document: document, fingerprint: fingerprint, nowUnixNanoseconds: nowUnixNanoseconds)
    }
    func studyProtocols() async throws -> [StoredStudyProtocol] { try await base.studyProtocols() }
    func assignStudy(_ request: StudyAssignRequest, nowUnixNanoseconds: Int64) async throws -> (record: StudyAssignmentRecord, change: StudyAssignChange) {
        try await base.assignStudy(request, nowUnixNanoseconds: nowUnixNanoseconds)
    }
    func unassignStudy(participant: String, nowUnixNanoseconds: Int64) async throws -> StudyAssignmentRecord {
        try await base.unassignStudy(participant: participant, nowUnixNanoseconds: nowUnixNanoseconds)
    }
    func studyStatus(nowUnixNanoseconds: Int64) async throws -> [StudyStatusRow] { try await base.studyStatus(nowUnixNanoseconds: nowUnixNanoseconds) }
    func studyAssignment(deviceID: String) async throws -> SyncedStudyAssignment? { try await base.studyAssignment(deviceID: deviceID) }
    func close() async {}
}
