@testable import ChronoAPI
import ChronoCore
import ChronoStore
import ChronoTesting
import Foundation
import Synchronization
import Testing

@Suite("Listeners, socket file and small parts")
struct ListenerTests {
    @Test("the Unix socket is mode 0660, a stale one is replaced, a live one is not taken over")
    func socketFile() async throws {
        try await APIHarness.with { api in
            let path = try #require(api.listening.socketPath)
            var info = stat()
            #expect(lstat(path, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o660)
            #expect(UnixSocketFile.answers(path))
            #expect(throws: APIError.self) { try UnixSocketFile.prepare(path) }
            // A second server on the same socket path is refused with the reason.
            let second = APIServer(store: api.store, device: NoDevice(), configuration: APIServerConfiguration(socketPath: path, tcp: nil))
            await #expect(throws: APIError.self) { try await second.run() }
            #expect(try await api.request("/api/v1/device", via: .socket).status == 200)
        }
        // A socket file left by a process that is gone.
        var template = Array("/tmp/chrono-api-sock-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let stale = directory + "/api.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in stale.utf8.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        #expect(bound == 0)
        close(fd)
        #expect(!UnixSocketFile.answers(stale))
        try UnixSocketFile.prepare(stale)
        #expect(access(stale, F_OK) != 0)
        // Not a socket: refused, left alone.
        FileManager.default.createFile(atPath: stale, contents: Data("keep".utf8))
        #expect(throws: APIError.self) { try UnixSocketFile.prepare(stale) }
        #expect(FileManager.default.contents(atPath: stale) == Data("keep".utf8))
    }

    @Test("a server whose socket path cannot be used tells whoever waits for it: listening() and shutdown() return")
    func unusableSocketPathEndsTheWait() async throws {
        var template = Array("/tmp/chrono-api-sock-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/not-a-socket"
        FileManager.default.createFile(atPath: path, contents: Data("keep".utf8))
        let store = try ChronoStore.open(StoreLocation(directory: directory + "/data"))
        let server = APIServer(store: store, device: NoDevice(), configuration: APIServerConfiguration(socketPath: path, tcp: nil))
        let running = Task { try await server.run() }
        // Bounded, and never awaiting a wait that may not end (before the fix it never did: the
        // refusal came before anyone was told); the waiter is left behind if it hangs.
        let heard = Mutex<String?>(nil)
        Task {
            let outcome: String
            do { _ = try await server.listening(); outcome = "listening" } catch let error as APIError { outcome = error.code } catch { outcome = "\(error)" }
            heard.withLock { $0 = outcome }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while heard.withLock({ $0 }) == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(heard.withLock { $0 } != nil, "listening() still waits 10 s after the server refused its socket")
        #expect(heard.withLock { $0 } == "not_listening")
        await #expect(throws: APIError.self) { try await running.value }
        await server.shutdown()
        #expect(FileManager.default.contents(atPath: path) == Data("keep".utf8))
    }

    @Test("a known path with another method is 405 with Allow, from the OpenAPI document; an unknown path is 404")
    func methodNotAllowed() async throws {
        try await APIHarness.with { api in
            let wrong = try await api.request(.DELETE, "/api/v1/device")
            #expect(wrong.status == 405)
            #expect(wrong.headers.first(name: "allow") == "GET, HEAD")
            #expect(try await api.request(.PUT, "/api/v1/keys/abc").headers.first(name: "allow") == "DELETE")
            #expect(try await api.request("/api/v1/nothing-here").status == 404)
            #expect(try await api.request("/api/v1/export.csv?all=maybe").status == 400)
        }
    }

    @Test("--listen parses ADDR:PORT and [v6]:PORT and says what it takes")
    func listenAddress() throws {
        #expect(try TCPAddress(parsing: "0.0.0.0:8737") == TCPAddress(host: "0.0.0.0", port: 8737))
        #expect(try TCPAddress(parsing: "[::]:9000") == TCPAddress(host: "::", port: 9000))
        #expect(try TCPAddress(parsing: "localhost:80").isLoopback)
        #expect(try !TCPAddress(parsing: "192.168.1.5:8737").isLoopback)
        for bad in ["8737", "host:", ":80", "1.2.3.4:70000", "[::1]8737"] {
            #expect(throws: APIError.self, "\(bad)") { try TCPAddress(parsing: bad) }
        }
    }

    @Test("SHA-256 matches the FIPS 180-4 test vectors")
    func sha256() {
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(String(repeating: "a", count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test("the one-time token store spends each token once")
    func oneTimeTokens() {
        let tokens = OneTimeTokens(lifetime: .seconds(60), capacity: 2)
        let a = tokens.issue(), b = tokens.issue(), c = tokens.issue()
        #expect(!tokens.redeem(a))  // pushed out by capacity
        #expect(tokens.redeem(b))
        #expect(!tokens.redeem(b))
        #expect(tokens.redeem(c))
        #expect(!tokens.redeem("made-up"))
        let expired = OneTimeTokens(lifetime: .zero)
        #expect(!expired.redeem(expired.issue()))
    }
}
