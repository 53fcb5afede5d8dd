import ChronoAPI
import ChronoCollector
import ChronoSync
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The collector counts failed authentication per address with the device API's own middleware
/// (`FailedAuthMiddleware`): wrong reader keys on the login and the read API, and wrong device keys on
/// batches, share one allowance; past it every route answers 429 with `Retry-After`.
@Suite("Collector: failed authentication is limited per address")
struct CollectorFailedAuthTests {
    typealias F = CollectorFixtures
    typealias Routes = SyncRouteTests

    @Test func wrongReaderAndDeviceKeysShareOneAllowance() async throws {
        try await StoreKind.sqlite.withStore { store in
            let deviceKey = try await F.enrol(store)
            try await Routes.withClient(store) { client in
                for guess in 1...4 {
                    let answer = try await CollectorLoginTests.login(client, body: "{\"key\": \"ccr_guess\(guess)\"}")
                    #expect(answer.status == .unauthorized && answer.errorCode == "key_unknown")
                }
                for guess in 1...3 {
                    let answer = try await Routes.get(client, "/api/v1/devices", key: "ccr_read\(guess)")
                    #expect(answer.status == .unauthorized && answer.errorCode == "key_unknown")
                }
                for guess in 1...3 {
                    let answer = try await Routes.post(client, SyncProtocol.batchesPath, json: F.batch([]), key: "ccd_guess\(guess)")
                    #expect(answer.status == .unauthorized && answer.errorCode == "key_refused")
                }
                // The tenth failure locked the address: even the right device key waits.
                let limited = try await Routes.post(client, SyncProtocol.batchesPath, json: F.batch([]), key: deviceKey)
                #expect(limited.status == .tooManyRequests && limited.errorCode == "too_many_failures")
                #expect(limited.headers[.retryAfter] == "300")
                #expect(limited.text.contains("this collector answers it again in 300 s"))
            }
        }
    }
}
