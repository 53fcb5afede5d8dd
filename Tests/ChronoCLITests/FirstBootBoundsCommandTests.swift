import ChronoCore
import Foundation
import Testing

/// `first-boot apply` on the cards: secrets under near-miss keys and a pasted private key leave
/// the card and never reach standard error, the report or the marker; a host name outside RFC 1123 is
/// never written; a FIFO where /etc/hosts should be is refused at once, not waited on.
@Suite("chronoception first-boot bounds")
struct FirstBootBoundsCommandTests {
    typealias Card = FirstBootCommandTests.Card

    static let secrets = ["Hunter2-password-value", "psk-value-0xdeadbeef", "typo-passphrase-value", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"]

    @Test("near-miss secrets and a 3-line private key: removed from the card, named without their value anywhere; the Unicode host name is refused")
    func secretsLeaveTheCard() throws {
        let file = "wifi_country = GB\nwifi_ssid = Home\npassword = \(Self.secrets[0])\npsk = \(Self.secrets[1])\n"
            + "wifi_passphrse = \(Self.secrets[2])\n-----BEGIN OPENSSH PRIVATE KEY-----\n\(Self.secrets[3])\n-----END OPENSSH PRIVATE KEY-----\n"
            + "hostname = pi\u{200D}\u{FE0F}\nboard = desktop\n"
        let card = try Card(file: file)
        defer { card.remove() }
        let result = try card.apply()
        #expect(result.status == 0)
        let cleaned = try #require(card.text("boot/chronoception.txt"))
        let report = try #require(card.text("root/var/lib/chronoception/first-boot.txt"))
        let marker = try #require(card.text("root/var/lib/chronoception/first-boot-problems"))
        for secret in Self.secrets {
            for (name, text) in [("card", cleaned), ("stderr", result.errors), ("stdout", result.output), ("report", report), ("marker", marker)] {
                #expect(!text.contains(secret.prefix(10)), "\(name) holds \(secret)")
            }
        }
        #expect(cleaned == "wifi_country = GB\nwifi_ssid = Home\n"
            + "# removed from the card, not applied ('password'): unknown key 'password' looks like a secret's, so its line is removed from the card and not applied; did you mean wifi_passphrase?\n"
            + "# removed from the card, not applied ('psk'): unknown key 'psk' looks like a secret's, so its line is removed from the card and not applied; did you mean wifi_passphrase?\n"
            + "# removed from the card, not applied ('wifi_passphrse'): unknown key 'wifi_passphrse' looks like a secret's, so its line is removed from the card and not applied; did you mean wifi_passphrase?\n"
            + "# removed from the card, not applied (a private key): a PRIVATE key is pasted here (lines 6-8): it is removed from the card; never put it there: give the public one (the line in the .pub file beside it) as ssh_key, and make a new key pair, since this one was exposed\n"
            + "# removed from the card: part of the private key above\n# removed from the card: part of the private key above\n"
            + "hostname = pi\u{200D}\u{FE0F}\nboard = desktop\n")
        #expect(report.contains("Removed from chronoception.txt: 'password' (line 3, not applied), 'psk' (line 4, not applied), 'wifi_passphrse' (line 5, not applied), a private key (lines 6-8, not applied)."))
        #expect(result.errors.contains("chronoception.txt: line 9: hostname 'pi\u{200D}\u{FE0F}' may hold only letters a-z, digits and hyphens (ASCII), and holds U+200D, a zero-width joiner; use pi\n"))
        #expect(card.text("root/etc/hostname") == "chronoception\n")
        #expect(card.text("root/etc/hosts")?.contains("127.0.1.1\tchronoception\n") == true)

        // Applied again, the cleaned card holds no secret line and changes nothing.
        let before = try card.snapshot()
        let again = try card.apply()
        #expect(again.status == 0 && again.output.contains("\nNothing changed.\n"))
        #expect(try card.snapshot() == before)
    }

    @Test("a FIFO at ROOT/etc/hosts: refused at once with its path, the rest applied, exit 74")
    func fifoAtHosts() throws {
        let card = try Card(file: "hostname = kitchen\n")
        defer { card.remove() }
        try FileManager.default.removeItem(atPath: card.root + "/etc/hosts")
        try #require(mkfifo(card.root + "/etc/hosts", 0o644) == 0)
        let result = try Self.applyWithin(card, seconds: 30)
        #expect(result.status == 74)
        #expect(result.errors.contains("cannot write '\(card.root)/etc/hosts': it is a FIFO (named pipe), not a regular file, so nothing was read or written there; remove it (it is no file of the system's) and apply again"))
        #expect(card.text("root/etc/hostname") == "kitchen\n")
        var status = stat()
        #expect(lstat(card.root + "/etc/hosts", &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO)
    }

    @Test("check on a FIFO says it cannot read it, at once (exit 66)")
    func checkOnAFifo() throws {
        let folder = NSTemporaryDirectory() + "first-boot-fifo-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #require(mkfifo(folder + "/chronoception.txt", 0o644) == 0)
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let result = try Self.run(binary, ["first-boot", "check", folder + "/chronoception.txt"], seconds: 30)
        #expect(result.status == 66)
        #expect(result.errors.contains("Cannot read '\(folder)/chronoception.txt'"))
    }

    static func applyWithin(_ card: Card, seconds: Double) throws -> (status: Int32, output: String, errors: String) {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        return try run(binary, ["first-boot", "apply", "--boot", card.boot, "--root", card.root], seconds: seconds)
    }

    /// The command, killed if it outlives `seconds` (a regression here blocks for ever on the FIFO;
    /// the test should fail on its assertions, not hang the suite).
    static func run(_ binary: String, _ arguments: [String], seconds: Double) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        nonisolated(unsafe) let running = process
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { if running.isRunning { kill(running.processIdentifier, SIGKILL) } }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
