import ChronoCore
import Foundation
import Testing

/// Both readers of the first-boot file stop at `FirstBootFile.maximumBytes` (64 KiB): `check` lists
/// the one problem (exit 1); `apply` reports it like any problem (standard error, report, marker),
/// applies the defaults, leaves the file on the card as it is and exits 0.
@Suite("chronoception first-boot: the 64 KiB bound")
struct FirstBootLimitsCommandTests {
    static let problem = "the file is larger than 64 KiB (65536 bytes), so none of it was read and the defaults apply; it holds a few lines of settings: start again from the template (chronoception first-boot template)"

    /// A file of `size` bytes: a passphrase line, then comment padding.
    static func file(size: Int) -> String {
        let head = "wifi_ssid = Home\nwifi_passphrase = correct horse\nhostname = kitchen\n"
        return head + String(repeating: "#", count: size - head.utf8.count - 1) + "\n"
    }

    @Test("check: 64 KiB is read; one byte more is the one problem, exit 1")
    func check() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let card = try FirstBootCommandTests.Card(file: "wifi_country = GB\n" + Self.file(size: FirstBootFile.maximumBytes - 18))
        defer { card.remove() }
        let path = card.boot + "/chronoception.txt"
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 65_536)
        let exact = try FullDiskCommandTests.run(binary, ["first-boot", "check", path, "--root", card.root])
        #expect(exact.status == 0 && exact.output == "\(path): no problems.\n")
        try Data((Self.file(size: FirstBootFile.maximumBytes + 1)).utf8).write(to: URL(fileURLWithPath: path))
        let over = try FullDiskCommandTests.run(binary, ["first-boot", "check", path, "--root", card.root])
        #expect(over.status == 1)
        #expect(over.output == Self.problem + "\n")
    }

    @Test("apply: a file past 64 KiB is reported (standard error, report, marker), the defaults apply, the card's file stays; exit 0")
    func apply() throws {
        let text = Self.file(size: 10 * FirstBootFile.maximumBytes)
        let card = try FirstBootCommandTests.Card(file: text)
        defer { card.remove() }
        let result = try card.apply()
        #expect(result.status == 0)
        #expect(result.errors == "chronoception.txt: \(Self.problem)\n")
        #expect(card.text("root/etc/hostname") == "chronoception\n")
        #expect(card.text("boot/chronoception.txt") == text)
        #expect(card.text("root/var/lib/chronoception/first-boot-problems") == "-\t-\t\(Self.problem)\n")
        #expect(card.text("root/var/lib/chronoception/first-boot.txt")?.contains("Problems (1), each with its fix in chronoception.txt:\n  \(Self.problem)\n") == true)
    }
}
