import Testing
@testable import ChronoCLI

/// `run` listens where `--listen` says, else where the service's environment file's
/// `CHRONOCEPTION_LISTEN` says (set by the Pi image's first boot from `companion_network`), else on
/// loopback only.
@Suite struct RunListenEnvironmentTests {
    @Test func flagThenEnvironmentThenLoopback() throws {
        let plain = try RunCommand.parse([])
        #expect(plain.listenOptions(environment: ["CHRONOCEPTION_LISTEN": "0.0.0.0:8737"]).listen == "0.0.0.0:8737")
        #expect(plain.listenOptions(environment: ["CHRONOCEPTION_LISTEN": ""]).listen == nil)
        #expect(plain.listenOptions(environment: [:]).listen == nil)
        let flagged = try RunCommand.parse(["--listen", "127.0.0.1:9000"])
        #expect(flagged.listenOptions(environment: ["CHRONOCEPTION_LISTEN": "0.0.0.0:8737"]).listen == "127.0.0.1:9000")
    }
}
