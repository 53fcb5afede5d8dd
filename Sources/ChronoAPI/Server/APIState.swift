import ChronoCore
import ChronoStore
import Foundation
import Synchronization

/// What the routes share: the store, the device, the keys, and the short-lived tokens.
final class APIState: Sendable {
    let store: ChronoStore
    let device: any DeviceControl
    let keys: KeyRegistry
    let configuration: APIServerConfiguration
    let events: EventHub
    /// Delete-all confirmations: a minute to confirm.
    let deleteTokens = OneTimeTokens(lifetime: .seconds(60), capacity: 4)
    /// One-time login links: ten minutes to open.
    let loginTokens = OneTimeTokens(lifetime: .seconds(600), capacity: 16)
    let pairingGate: PairingGate
    /// Serialises settings changes made through the API (version check, then write).
    let settingsLock = Mutex(())

    init(store: ChronoStore, device: any DeviceControl, configuration: APIServerConfiguration) {
        self.store = store
        self.device = device
        let now = configuration.now
        self.keys = KeyRegistry(store: store, nowUnixSeconds: { now() / 1_000_000_000 })
        self.configuration = configuration
        self.events = EventHub(device: device)
        self.pairingGate = PairingGate(limit: configuration.pairingRequestsPerMinute, window: .seconds(60))
    }

    var nowUnixNanoseconds: Int64 { configuration.now() }
    var nowUnixSeconds: Int64 { configuration.now() / 1_000_000_000 }
    func utcOffsetSeconds(at unixNanoseconds: Int64) -> Int { LocalTimeZone.utcOffsetSeconds(atUnixSeconds: unixNanoseconds / 1_000_000_000) }

    /// A store call off the cooperative pool, with store errors turned into API errors.
    func withStore<T: Sendable>(_ body: @escaping @Sendable (ChronoStore) throws -> T) async throws -> T {
        let store = self.store
        do {
            return try await Blocking.run { try body(store) }
        } catch let error as StoreError {
            throw APIError.store(error)
        }
    }
}
