import ArgumentParser
import ChronoCore

/// The live commands' counts and Fear threshold, checked by the core's own rule (`SessionConfiguration`)
/// while the command line is parsed: a value out of range is a usage error (exit 64) said before the
/// store, the terminal or any device is opened, in the words the session itself would refuse it with.
enum SessionArgumentCheck {
    static func check(mode: SessionMode, count: Int?, fearThreshold: Double? = nil) throws {
        do {
            _ = try SessionConfiguration(mode: mode, interval: .builtInPreset, plannedCount: count,
                                         fearThreshold: fearThreshold ?? SessionConfiguration.defaultFearThreshold)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
