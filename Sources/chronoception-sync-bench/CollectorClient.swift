import AsyncHTTPClient
import ChronoSync
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// Talks to a collector the way a device does: enrols with a one-time code, posts batches with the
/// device's key. Each post is timed from the request leaving to the last byte of the answer.
struct CollectorClient: Sendable {
    let client: HTTPClient
    let baseURL: String

    init(baseURL: String, connections: Int) {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.baseURL = baseURL
    }

    func shutdown() async throws { try await client.shutdown() }

    /// The device's key, or an error naming what the collector said.
    func enrol(deviceID: String, code: String) async throws -> String {
        let request = EnrolmentRequest(code: code, deviceID: deviceID, board: "sync-bench", softwareVersion: "sync-bench")
        let (status, body) = try await post(SyncProtocol.enrolPath, body: ByteBuffer(bytes: try JSONEncoder().encode(request)), key: nil)
        guard status == .ok else { throw PushError(status: status, body: body) }
        return try JSONDecoder().decode(EnrolmentGrant.self, from: body).key
    }

    /// Posts one batch; returns the receipt and the round trip in seconds.
    func push(_ batch: EncodedBatch, key: String) async throws -> (SyncReceipt, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let (status, body) = try await post(SyncProtocol.batchesPath, body: batch.body, key: key)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard status == .ok else { throw PushError(status: status, body: body) }
        return (try JSONDecoder().decode(SyncReceipt.self, from: body), seconds)
    }

    private func post(_ path: String, body: ByteBuffer, key: String?) async throws -> (HTTPResponseStatus, Data) {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        request.body = .bytes(body)
        let response = try await client.execute(request, timeout: .seconds(120))
        let answer = try await response.body.collect(upTo: 16 << 20)
        return (response.status, Data(buffer: answer))
    }
}

/// A refused request, with the collector's status and error body.
struct PushError: Error, CustomStringConvertible {
    var status: HTTPResponseStatus
    var body: Data
    var description: String { "HTTP \(status.code): \(String(decoding: body.prefix(300), as: UTF8.self))" }
}
