import Foundation
import Testing

/// `board check --loopback`'s refusals from the command line: a board with no loopback line is a
/// configuration error (78) naming the file to edit; a board whose lines this machine lacks is 69.
@Suite("board check --loopback: refusals with their fix")
struct BoardCheckLoopbackCommandTests {
    @Test("the desktop board names no loopback line: 78, naming the section to add and where")
    func noLoopbackLine() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let result = try FullDiskCommandTests.run(binary, ["board", "check", "desktop", "--loopback"])
        #expect(result.status == 78)
        #expect(result.output.isEmpty)
        #expect(result.errors.contains("error: board desktop names no loopback input line. Fix: add a `loopback:` section with a spare input line (e.g. `chip: pinctrl-bcm2711`, `line: GPIO24`) to "))
    }

    @Test("a Pi board on a machine without its gpiochip: 69, naming the chip", .enabled(if: !FileManager.default.fileExists(atPath: "/dev/gpiochip0")))
    func noChip() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let result = try FullDiskCommandTests.run(binary, ["board", "check", "raspberry-pi-4b", "--loopback"])
        #expect(result.status == 69)
        #expect(result.output.isEmpty)
        #expect(result.errors.contains("error: motor: no gpiochip has the label \"pinctrl-bcm2711\""))
    }

    @Test("a pulse count out of range is a usage error")
    func pulsesBound() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let result = try FullDiskCommandTests.run(binary, ["board", "check", "desktop", "--loopback", "--pulses", "3"])
        #expect(result.status == 64)
        #expect(result.errors.contains("error: --pulses 3 is out of range: give 10 to 10000 pulses."))
    }
}
