import ArgumentParser
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

    @Test("a bad CHRONOCEPTION_LISTEN is blamed on the variable and where it is set, not on --listen")
    func badEnvironmentNamed() throws {
        let plain = try RunCommand.parse([])
        let environment = ["CHRONOCEPTION_LISTEN": "garbage"]
        #expect(plain.listenSource(environment: environment) == .environment)
        #expect(throws: ValidationError.self) { try plain.listenOptions(environment: environment).configuration(stopOnSignals: false, listenSource: .environment) }
        do {
            _ = try plain.listenOptions(environment: environment).configuration(stopOnSignals: false, listenSource: plain.listenSource(environment: environment))
        } catch let error as ValidationError {
            #expect(error.message == "CHRONOCEPTION_LISTEN takes ADDR:PORT, e.g. 0.0.0.0:8737 (the network) or 127.0.0.1:8737 (this device only); got 'garbage'. Fix it where it is set (for the service: /etc/default/chronoception, which the image's companion_network writes), or empty it, or give --listen.")
        }
        // --listen wins, and its own mistakes keep its own message.
        let flagged = try RunCommand.parse(["--listen", "nonsense"])
        #expect(flagged.listenSource(environment: environment) == .option)
        do {
            _ = try flagged.listenOptions(environment: environment).configuration(stopOnSignals: false, listenSource: flagged.listenSource(environment: environment))
            Issue.record("--listen nonsense was taken")
        } catch let error as ValidationError {
            #expect(error.message == "--listen takes ADDR:PORT, e.g. 0.0.0.0:8737 or [::]:8737 or 127.0.0.1:8737; got 'nonsense'.")
        }
    }
}
