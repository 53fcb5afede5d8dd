import ArgumentParser
import Foundation

/// The hidden switch for tests and benchmarks: options that run real sessions with intervals below the
/// product minimum (or log motor commands) are refused unless `CHRONOCEPTION_TEST_MODE=1` is set, so no
/// normal command reaches them by accident. The options are also hidden from `--help`.
enum TestMode {
    static let environmentVariable = "CHRONOCEPTION_TEST_MODE"

    static var isEnabled: Bool {
        ProcessInfo.processInfo.environment[environmentVariable] == "1"
    }

    /// Throws unless test mode is on; `option` names what was asked for.
    static func require(for option: String) throws {
        guard isEnabled else {
            throw ValidationError("\(option) is for tests and benchmarks only and is refused here. Intervals go from 10s to 120m 59s; use --interval.")
        }
    }
}
