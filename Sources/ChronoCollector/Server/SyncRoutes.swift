import ChronoAPI
import ChronoCore
import ChronoSync
import Foundation
import Hummingbird

/// The protocol's two routes (docs/SYNC.md): enrolment with a one-time code, and batches with a
/// device key. They take no part in the people's access rules: the code or the key is the credential.
enum SyncRoutes {
    static func add(to router: Router<APIRequestContext>, _ state: CollectorState) {
        router.post(RouterPath(SyncProtocol.enrolPath)) { request, context in
            do { return try await enrol(request, context, state) } catch { throw CollectorHTTP.answer(error) }
        }
        router.post(RouterPath(SyncProtocol.batchesPath)) { request, context in
            do { return try await batch(request, context, state) } catch { throw CollectorHTTP.answer(error) }
        }
    }

    static func enrol(_ request: Request, _ context: APIRequestContext, _ state: CollectorState) async throws -> Response {
        let address: String
        switch context.peer {
        case .unixSocket: address = "socket"
        case .loopback: address = "loopback"
        case .remote(let text): address = text
        }
        switch state.enrolmentLimit.admit(address: address, nowSeconds: state.configuration.now() / 1_000_000_000) {
        case .limited(let retry):
            throw APIError(.tooManyRequests, "rate_limited", "Too many refused enrolment attempts; try again in \(DurationText.format(wholeSeconds: Int(retry))).",
                           headers: [.retryAfter: String(retry)])
        case .admitted(let ticket):
            // Only refused attempts count against the limit: a study team enrolling a cohort from one
            // desk spends none of it.
            let answer = try await redeem(request, state)
            state.enrolmentLimit.forgive(ticket)
            return answer
        }
    }

    /// Checks an admitted enrolment request and spends its code; any throw is a refused attempt.
    static func redeem(_ request: Request, _ state: CollectorState) async throws -> Response {
        let data = try await CollectorHTTP.body(request, limit: 16 * 1024,
                                                tooLarge: APIError(.contentTooLarge, "body_too_large", "An enrolment request is a few hundred bytes."))
        let enrolment: EnrolmentRequest
        do { enrolment = try JSONDecoder().decode(EnrolmentRequest.self, from: data) } catch {
            if let version = CollectorHTTP.protocolVersion(of: data), version != SyncProtocol.version {
                throw CollectorError.protocolMismatch(mismatch(version))
            }
            throw APIError(.badRequest, "invalid_request", "The body is not an enrolment request (\(error)).")
        }
        guard enrolment.protocolVersion == SyncProtocol.version else { throw CollectorError.protocolMismatch(mismatch(enrolment.protocolVersion)) }
        guard CollectorCredentials.isUUID(enrolment.deviceID) else {
            throw APIError(.badRequest, "invalid_request", "device_id '\(enrolment.deviceID)' is not a UUID.")
        }
        // A board as long as a session's may be (SessionValidation), so a device let in here can sync.
        // Its characters are shown as text wherever the collector shows them: a device's own board
        // file cannot name one with control characters (UsableBoard), so only a hostile client sends them.
        guard !enrolment.board.isEmpty, enrolment.board.count <= SessionValidation.maximumBoardLength else {
            throw APIError(.badRequest, "invalid_request",
                           "board is \(enrolment.board.count) characters long; a session's board is 1 to \(SessionValidation.maximumBoardLength), so rename the board file.")
        }
        guard enrolment.softwareVersion.count <= 128 else {
            throw APIError(.badRequest, "invalid_request", "software_version is at most 128 characters.")
        }
        guard let codeSHA256 = CollectorCredentials.codeDigest(enrolment.code) else {
            throw CollectorError.codeRefused("'\(enrolment.code)' is not an enrolment code (12 letters and digits, e.g. 7K3Q-9XWD-M2PA). Copy it again from `chronoception-collector enrol`.")
        }
        let key = CollectorCredentials.newDeviceKey()
        let device = try await state.store.redeemEnrolment(codeSHA256: codeSHA256, request: enrolment,
                                                           keySHA256: CollectorCredentials.keyDigest(key), nowUnixNanoseconds: state.configuration.now())
        let grant = EnrolmentGrant(collectorID: try await state.store.collectorID(), deviceName: device.name, key: key)
        return try CollectorHTTP.json(grant)
    }

    static func batch(_ request: Request, _ context: APIRequestContext, _ state: CollectorState) async throws -> Response {
        guard let secret = AccessRules.presentedSecret(request), request.headers[.authorization] != nil else {
            throw CollectorError.keyRefused("A batch needs `Authorization: Bearer <device key>`; enrol the device with `chronoception sync add URL --code CODE`.")
        }
        guard let device = try await state.store.device(keySHA256: CollectorCredentials.keyDigest(secret)) else {
            throw CollectorError.keyRefused("The collector does not know this device key. Enrol the device again with a new code.")
        }
        if device.isRevoked { throw CollectorError.keyRefused(CollectorMessages.revoked(device.name)) }
        let data = try await CollectorHTTP.body(
            request, limit: SyncProtocol.maximumBodyBytes,
            tooLarge: CollectorError.batchTooLarge("A batch body is at most \(SyncProtocol.maximumBodyBytes) bytes; send fewer sessions per batch."))
        let batch: SyncBatch
        do { batch = try JSONDecoder().decode(SyncBatch.self, from: data) } catch {
            if let version = CollectorHTTP.protocolVersion(of: data), version != SyncProtocol.version {
                throw CollectorError.protocolMismatch(mismatch(version))
            }
            throw CollectorError.invalidBatch("The body is not a sync batch: \(describe(error)).")
        }
        guard batch.protocolVersion == SyncProtocol.version else { throw CollectorError.protocolMismatch(mismatch(batch.protocolVersion)) }
        guard batch.deviceID.lowercased() == device.id else {
            throw CollectorError.keyRefused("This key belongs to device \(device.id) ('\(device.name)'), but the batch says device_id \(batch.deviceID). Enrol this device with its own code.")
        }
        let plan = try IngestPlan.validate(batch)
        var receipt = try await state.store.ingest(plan, deviceID: device.id, nowUnixNanoseconds: state.configuration.now())
        // The assignment of the device's participant rides on every reply (issue 24's contract item 6):
        // a device picks up a new assignment, and loses an ended one, at its next exchange.
        receipt.study = try await state.store.studyAssignment(deviceID: device.id)
        return try CollectorHTTP.json(receipt)
    }

    static func mismatch(_ version: Int) -> String {
        "This collector speaks sync protocol \(SyncProtocol.version); the request is protocol \(version). Upgrade the older end."
    }

    /// A decoding error in a sentence: which field, what was wrong.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined().drop { $0 == "." }.description
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(path(context.codingPath)) has the wrong type"
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "not JSON" : "\(path(context.codingPath)) is not valid"
        @unknown default: return String(describing: error)
        }
    }
}
