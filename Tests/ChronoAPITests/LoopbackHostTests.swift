import ChronoAPI
import Testing

@Suite("Loopback Host")
struct LoopbackHostTests {
    @Test("the literal loopback addresses and localhost, with or without a port, are local",
          arguments: ["127.0.0.1", "127.0.0.1:8737", "127.1.2.3:80", "localhost", "localhost:8737", "LOCALHOST:1",
                      "[::1]", "[::1]:8737", "127.255.255.255:65535"])
    func local(host: String) {
        #expect(LoopbackHost.isLoopback(host))
    }

    @Test("names that merely look like loopback, other addresses and malformed hosts are remote",
          arguments: ["127.evil.example.com", "127.0.0.1.nip.io", "127.0.0.1.evil.example.com:8737", "localhost.evil",
                      "evil.localhost", "localhost.", "0x7f.0.0.1", "2130706433", "127.1", "127.0.0.01", "127.0.0.256",
                      "[::ffff:127.0.0.1]", "[::1", "::1", "[::1]:", "[::1]:0", "127.0.0.1:65536", "127.0.0.1:+80",
                      "127.0.0.1:80:80", "10.0.0.1", "192.168.1.2:8737", "", "example.com", "127.0.0.1 ", " 127.0.0.1"])
    func remote(host: String) {
        #expect(!LoopbackHost.isLoopback(host))
    }

    @Test("a request without Host is remote")
    func missing() {
        #expect(!LoopbackHost.isLoopback(nil))
    }

    @Test("a second Host header makes any request remote, whatever the first says")
    func twoHosts() {
        #expect(LoopbackHost.isLoopback(authority: "127.0.0.1", otherHostFields: []))
        #expect(!LoopbackHost.isLoopback(authority: "127.0.0.1", otherHostFields: ["127.evil.example.com"]))
        #expect(!LoopbackHost.isLoopback(authority: "127.0.0.1", otherHostFields: ["127.0.0.1"]))
    }
}
