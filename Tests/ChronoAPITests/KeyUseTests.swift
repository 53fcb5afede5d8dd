@testable import ChronoAPI
import ChronoCore
import ChronoStore
import ChronoTesting
import Foundation
import Synchronization
import Testing

/// A wall clock the test moves by hand.
private final class HandClock: Sendable {
    private let seconds: Mutex<Int64>
    init(_ start: Int64) { seconds = Mutex(start) }
    var now: Int64 { seconds.withLock { $0 } }
    func advance(_ by: Int64) { seconds.withLock { $0 += by } }
}

@Suite("Key use: the last use in memory, written to the store at most once a minute per key")
struct KeyUseTests {
    @Test("the ledger asks for a store write on a key's first use, then only once the stored time is 60 s behind")
    func ledgerGranularity() {
        var ledger = KeyUseLedger()
        // #expect cannot call a mutating method itself.
        func use(_ id: String, _ at: Int64) -> Bool { ledger.noteUse(id: id, at: at) }
        #expect(use("A", 1_000))
        #expect(!use("A", 1_030))
        #expect(!use("A", 1_059))
        #expect(ledger.lastUsed(id: "A") == 1_059)
        #expect(use("A", 1_060))
        #expect(!use("A", 1_119))
        // Each key on its own.
        #expect(use("B", 1_119))
        // A wall clock stepped back a minute or more is followed.
        #expect(use("A", 1_000))
        #expect(ledger.lastUsed(id: "A") == 1_000)
        ledger.forget(id: "A")
        #expect(ledger.lastUsed(id: "A") == nil)
        #expect(ledger.uses.keys.sorted() == ["B"])
    }

    @Test("the registry writes the store at the first use and a minute later, not in between; its listing shows the latest use")
    func registryWithClock() throws {
        var template = Array("/tmp/chrono-keyuse-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try ChronoStore.open(StoreLocation(directory: directory + "/data"))
        let clock = HandClock(1_800_000_000)
        let registry = KeyRegistry(store: store, nowUnixSeconds: { clock.now })
        let (record, secret) = try registry.issue(name: "Anna's phone", kind: .paired, pairedFrom: "10.9.0.2", nowUnixSeconds: clock.now)
        #expect(try registry.verify(secret: secret) == record)
        #expect(try store.apiKeys().first?.lastUsedUnixSeconds == nil)

        try registry.noteUse(id: record.id)
        #expect(try store.apiKeys().first?.lastUsedUnixSeconds == 1_800_000_000)
        clock.advance(59)
        try registry.noteUse(id: record.id)
        #expect(try store.apiKeys().first?.lastUsedUnixSeconds == 1_800_000_000)
        #expect(try registry.list().first?.lastUsedUnixSeconds == 1_800_000_059)
        clock.advance(1)
        try registry.noteUse(id: record.id)
        #expect(try store.apiKeys().first?.lastUsedUnixSeconds == 1_800_000_060)
        #expect(try registry.list() == [APIKeyRecord(id: record.id, name: "Anna's phone", kind: .paired, createdUnixSeconds: 1_800_000_000,
                                                    pairedFrom: "10.9.0.2", lastUsedUnixSeconds: 1_800_000_060)])
        // A second registry over the same store (another process: `companion keys`) sees the stored time.
        #expect(try KeyRegistry(store: store).list().first?.lastUsedUnixSeconds == 1_800_000_060)
        #expect(try registry.revoke(id: record.id))
        #expect(try registry.list().isEmpty)
    }

    @Test("GET /keys lists each key with exactly id, name, kind, created_at, paired_from, last_used_at and current")
    func keysRouteFields() async throws {
        try await APIHarness.with(trust: .socketOnly) { api in
            async let reply = api.request(.POST, "/api/v1/pairing", json: #"{"name": "Anna's phone", "deliver": "cookie"}"#)
            try await api.waitForPairingRequest()
            api.fake.approveOnDevice()
            let paired = try await reply
            #expect(paired.status == 201)
            let cookie = try #require(paired.headers.first(name: "set-cookie")?.split(separator: ";").first.map(String.init))
            let made = try await api.request(.POST, "/api/v1/keys", json: #"{"name": "Script"}"#, via: .socket)
            #expect(made.status == 201)

            let list = try await api.request("/api/v1/keys", headers: [("Cookie", cookie)])
            #expect(list.status == 200)
            let keys = try #require(list.json["keys"] as? [[String: Any]])
            #expect(keys.count == 2)
            let fields: Set<String> = ["id", "name", "kind", "created_at", "paired_from", "last_used_at", "current"]
            #expect(keys.map { Set($0.keys) } == [fields, fields])
            let stamp = WallTime(unixNanoseconds: APIHarness.now, utcOffsetSeconds: 0).iso8601
            let phone = try #require(keys.first { $0["name"] as? String == "Anna's phone" })
            #expect(phone["kind"] as? String == "paired")
            #expect(phone["created_at"] as? String == stamp)
            // The harness asks from 127.0.0.1; a remote peer's IP address is shown the same way.
            #expect(phone["paired_from"] as? String == "loopback")
            #expect(phone["last_used_at"] as? String == stamp)
            #expect(phone["current"] as? Bool == true)
            let script = try #require(keys.first { $0["name"] as? String == "Script" })
            #expect(script["kind"] as? String == "command-line")
            #expect(script["paired_from"] is NSNull)
            #expect(script["last_used_at"] is NSNull)
            #expect(script["current"] as? Bool == false)
            // The use was written to the store too (the first use of a key always is).
            #expect(try api.store.apiKeys().first { $0.name == "Anna's phone" }?.lastUsedUnixSeconds == APIHarness.now / 1_000_000_000)
        }
    }
}

@Suite("A spent login link: a page in words for a browser, the JSON error for an API client")
struct LoginLinkPageTests {
    @Test("a browser (Accept: text/html) gets 403 with a small HTML page that leads to the companion; an API client gets 403 login_link_invalid JSON")
    func spentLinkPage() async throws {
        try await APIHarness.with(trust: .socketOnly) { api in
            let path = api.server.makeLoginPath()
            #expect(try await api.request(path).status == 303)
            let browser = try await api.request(path, headers: [("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")])
            #expect(browser.status == 403)
            #expect(browser.headers.first(name: "content-type") == "text/html; charset=utf-8")
            #expect(browser.headers.first(name: "cache-control") == "no-store")
            #expect(browser.text == LoginLinkPage.spent)
            #expect(browser.text.contains("<h1>This login link no longer works</h1>"))
            #expect(browser.text.contains(#"<a class="button" href="/">Open the companion</a>"#))
            #expect(!browser.text.contains("/api/v1") && !browser.text.contains("{"))
            let client = try await api.request(path, headers: [("Accept", "application/json")])
            #expect(client.status == 403)
            #expect(client.headers.first(name: "content-type") == "application/json; charset=utf-8")
            #expect(client.errorCode == "login_link_invalid")
            let bare = try await api.request("/api/v1/login?token=unknown")
            #expect(bare.status == 403)
            #expect(bare.errorCode == "login_link_invalid")
        }
    }
}
