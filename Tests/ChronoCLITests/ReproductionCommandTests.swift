import Foundation
import Testing

/// `replay --mode reproduction`, `--feedback` and `simulate --mode reproduction --weber --bias` run as
/// the program: the output, and each refusal as one `error:` line naming the fix (exit 64).
@Suite("chronoception replay and simulate: Reproduction")
struct ReproductionCommandTests {
    static func run(_ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String, errors: String) {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        guard let input else { return try FullDiskCommandTests.run(binary, arguments) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("repro-\(UUID().uuidString).edges").path
        try input.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try FullDiskCommandTests.run(binary, arguments.map { $0 == "EDGES" ? path : $0 })
    }

    @Test("replay prints the presented marks, the ratio and the ignored count; withheld feedback says recorded")
    func replay() throws {
        let edges = "press 5000000000\nrelease 5100000000\npress 12800000000\nrelease 12950000000\npress 23300000000\nrelease 23420000000\n"
        let shown = try Self.run(["replay", "EDGES", "--mode", "reproduction", "--interval", "10s", "--compact",
                                  "--wall-clock-start", "2026-11-23T08:00:00+01:00"], input: edges)
        #expect(shown.status == 0)
        #expect(shown.output.contains(#""presented_start_ns":2000000000,"presented_end_ns":12000000000,"ratio":1.05"#))
        #expect(shown.output.contains(#""presses_ignored_during_presentation":1"#))
        #expect(shown.output.contains(#""chronoception_version":2,"chronoception_mode":"reproduction""#))
        let withheld = try Self.run(["replay", "EDGES", "--mode", "reproduction", "--interval", "10s", "--compact", "--feedback", "withheld",
                                     "--wall-clock-start", "2026-11-23T08:00:00+01:00"], input: edges)
        #expect(withheld.status == 0)
        #expect(withheld.output.contains(#""effect":"recorded","attempt":1"#))
        #expect(!withheld.output.contains(#""effect":"feedback""#))
        let passive = try Self.run(["replay", "EDGES", "--mode", "passive", "--interval", "10s", "--feedback", "withheld"], input: edges)
        #expect(passive.status == 64)
        #expect(passive.errors.hasPrefix("error: --feedback withheld is for modes with attempts; Passive gives no feedback to withhold."))
    }

    @Test("simulate --mode reproduction plays one person; the flags are refused without it or out of range")
    func simulate() throws {
        let run = try Self.run(["simulate", "--mode", "reproduction", "--weber", "0.1", "--bias", "0.05", "--sessions", "50", "--seed", "4", "--quiet"])
        #expect(run.status == 0)
        #expect(run.output.hasSuffix("simulate: 50 passed, 0 failed\n"))
        let lines = try Self.run(["simulate", "--mode", "reproduction", "--sessions", "3", "--seed", "4"]).output
        #expect(lines.hasPrefix("#1 reproduction "))
        #expect(lines.contains(" · ratio "))
        let orphan = try Self.run(["simulate", "--weber", "0.1"])
        #expect(orphan.status == 64)
        #expect(orphan.errors.hasPrefix("error: --weber and --bias describe a Reproduction person: add --mode reproduction."))
        let other = try Self.run(["simulate", "--mode", "fear"])
        #expect(other.status == 64)
        #expect(other.errors.hasPrefix("error: --mode fear: simulate mixes challenge, fear and passive by itself; --mode takes only reproduction."))
        let range = try Self.run(["simulate", "--mode", "reproduction", "--bias", "2"])
        #expect(range.status == 64)
        #expect(range.errors.hasPrefix("error: --bias 2.0 is out of range"))
    }
}
