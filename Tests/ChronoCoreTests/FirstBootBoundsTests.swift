import ChronoCore
import Testing

/// The first-boot file's bounds on what it takes from the card: host names checked as bytes (RFC 1123),
/// every line whose key looks like a secret removed like a known secret, a pasted private key removed
/// whole, and no secret's value in any problem.
@Suite("First-boot file bounds")
struct FirstBootBoundsTests {
    static func read(_ text: String) -> FirstBootFile.Reading { FirstBootFile.read(text, context: FirstBootFileTests.context) }

    static func hostnameProblem(_ value: String) -> String? {
        if case .failure(let refusal) = FirstBootValues.hostname(value) { return refusal.message }
        return nil
    }

    @Test("host names are ASCII bytes: combining marks, a joiner, a variation selector and İ are refused by name, with the label meant")
    func hostnamesAsBytes() {
        #expect(Self.hostnameProblem("pi\u{301}") == "hostname 'pi\u{301}' may hold only letters a-z, digits and hyphens (ASCII), and holds U+0301, a combining mark; use pi")
        #expect(Self.hostnameProblem("pi\u{200D}x") == "hostname 'pi\u{200D}x' may hold only letters a-z, digits and hyphens (ASCII), and holds U+200D, a zero-width joiner; use pix")
        #expect(Self.hostnameProblem("pi\u{FE0F}") == "hostname 'pi\u{FE0F}' may hold only letters a-z, digits and hyphens (ASCII), and holds U+FE0F, a variation selector; use pi")
        #expect(Self.hostnameProblem("İstanbul") == "hostname 'İstanbul' may hold only letters a-z, digits and hyphens (ASCII), and holds U+0130 ('İ'), which is not a letter a-z; use istanbul")
        #expect(Self.hostnameProblem("kitchen") == nil)
        #expect(FirstBootValues.hostname("Chrono-1") == .success("chrono-1"))
        #expect(FirstBootValues.hostname(String(repeating: "a", count: 63)) == .success(String(repeating: "a", count: 63)))
    }

    @Test("the issue's 6,004-byte host name (one character to a grapheme counter) is refused, and the message stays short")
    func longHostname() throws {
        let value = "a" + String(repeating: "\u{301}", count: 3001) + "b"
        #expect(value.utf8.count == 6004 && value.count == 2)
        let message = try #require(Self.hostnameProblem(value))
        #expect(message.utf8.starts(with: "hostname 'a\u{301}".utf8))
        #expect(message.hasSuffix("may hold only letters a-z, digits and hyphens (ASCII), and holds U+0301, a combining mark; use ab"))
        #expect(message.contains("(6004 bytes)"))
        #expect(message.utf8.count < 400)
        let reading = Self.read("hostname = \(value)\n")
        #expect(reading.settings.hostname == nil && reading.settings.effectiveHostname == "chronoception")
        #expect(reading.problems.count == 1)
    }

    @Test("keys that look like secrets: removed, not applied, named without their value", arguments: [
        ("password", "did you mean wifi_passphrase?"),
        ("psk", "did you mean wifi_passphrase?"),
        ("wifi_password", "did you mean wifi_passphrase?"),
        ("wifi_passphrse", "did you mean wifi_passphrase?"),
        ("WiFi-Pasphrase", "did you mean wifi_passphrase?"),
        ("passwd", "did you mean wifi_passphrase?"),
        ("api_key", "did you mean ssh_key?"),
        ("token", "the secrets this file takes are wifi_passphrase and ssh_key"),
        ("ssh_private_key", "did you mean ssh_key?"),
    ])
    func lookalikeKeys(key: String, hint: String) throws {
        let secret = "Hunter2-\(key.count)-value"
        let text = "wifi_country = GB\nwifi_ssid = Home\n\(key) = \(secret)\nhostname = kitchen\n"
        let reading = Self.read(text)
        let message = "unknown key '\(key)' looks like a secret's, so its line is removed from the card and not applied; \(hint)"
        #expect(reading.problems.contains(FirstBootProblem(line: 3, key: nil, message: message)))
        #expect(!reading.problems.map(\.description).joined().contains(secret))
        #expect(reading.secretLines == [FirstBootFile.SecretLine(line: 3, lastLine: 3, key: nil, name: "'\(key)'", valid: false)])
        #expect(reading.settings.wifi == nil && reading.settings.hostname == "kitchen")
        let cleaned = try #require(FirstBootFile.removingSecrets(from: text, outcomes: [3: .refused(reason: message)]))
        #expect(cleaned == "wifi_country = GB\nwifi_ssid = Home\n# removed from the card, not applied ('\(key)'): \(message)\nhostname = kitchen\n")
        // Read again, the comment is the same problem on the same line (so a second apply changes
        // nothing), until a secret the file takes is given.
        let again = Self.read(cleaned)
        #expect(again.problems == reading.problems)
        #expect(again.secretLines == reading.secretLines)
        #expect(FirstBootFile.removingSecrets(from: cleaned, outcomes: [3: .refused(reason: message)]) == nil)
        let fixed = Self.read(cleaned + "wifi_passphrase = correct horse\n")
        #expect(fixed.problems == [] && fixed.secretLines.map(\.line) == [5])
    }

    @Test("keys that only share letters with a secret's are no secret")
    func notLookalikes() {
        for key in ["ssid", "network", "colour", "keyboard", "country", "host", "sid"] {
            #expect(Self.read("\(key) = x").secretLines == [], "\(key)")
        }
        #expect(Self.read("password =").secretLines == [])
    }

    @Test("a secret's key without '=' is removed too, and its line never quoted")
    func lookalikeWithoutEquals() {
        let reading = Self.read("wifi_ssid = Home\nwifi_passphrase: correct horse battery\n")
        #expect(reading.problems.contains(FirstBootProblem(line: 2, key: nil,
            message: "starts with 'wifi_passphrase' but is not a setting (no '='); it looks like a secret, so it is removed from the card and not applied; write wifi_passphrase = …")))
        #expect(!reading.problems.map(\.description).joined().contains("horse"))
        #expect(reading.secretLines.map(\.line) == [2])
    }

    static let privateKey = [
        "-----BEGIN OPENSSH PRIVATE KEY-----",
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
        "QyNTUxOQAAACD1UDBajdO7NiadxjUFQWVkK4V6X5MZ2yE/xjNCi+a+hgAAAJgAAAAAAAAA==",
        "-----END OPENSSH PRIVATE KEY-----",
    ]

    @Test("a pasted private key is one problem naming its lines, removed whole, none of it quoted")
    func privateKeyBlock() throws {
        let text = "hostname = kitchen\r\n" + Self.privateKey.joined(separator: "\r\n") + "\r\ntimezone = UTC\r\n"
        let reading = Self.read(text)
        let message = "a PRIVATE key is pasted here (lines 2-5): it is removed from the card; never put it there: give the public one (the line in the .pub file beside it) as ssh_key, and make a new key pair, since this one was exposed"
        #expect(reading.problems == [FirstBootProblem(line: 2, key: nil, message: message)])
        #expect(reading.secretLines == [FirstBootFile.SecretLine(line: 2, lastLine: 5, key: nil, name: "a private key", valid: false)])
        #expect(reading.settings.hostname == "kitchen" && reading.settings.timezone == "UTC")
        let cleaned = try #require(FirstBootFile.removingSecrets(from: text, outcomes: [2: .refused(reason: message)]))
        #expect(cleaned == "hostname = kitchen\r\n# removed from the card, not applied (a private key): \(message)\r\n"
            + String(repeating: "# removed from the card: part of the private key above\r\n", count: 3) + "timezone = UTC\r\n")
        #expect(Self.read(cleaned).problems == reading.problems && Self.read(cleaned).secretLines == reading.secretLines)
        let report = FirstBootReport.text(source: "chronoception.txt", found: true, summary: [], problems: reading.problems, removed: reading.secretLines)
        #expect(report.contains("Removed from chronoception.txt: a private key (lines 2-5, not applied)."))
        for line in Self.privateKey.dropFirst().dropLast() {
            #expect(!report.contains(line.prefix(12)) && !FirstBootReport.marker(reading.problems).contains(line.prefix(12)))
        }
    }

    @Test("a private key under ssh_key, or cut short before its end line, is removed to its last line of key text")
    func privateKeyUnderSSHKeyOrCutShort() throws {
        let underKey = "ssh_key = " + Self.privateKey.joined(separator: "\n") + "\nhostname = kitchen\n"
        let reading = Self.read(underKey)
        #expect(reading.problems.map(\.description) == ["line 1: ssh_key is a PRIVATE key (lines 1-4): never put it on the card; give the public one (the line in the .pub file beside it) and make a new key pair, since this one was exposed"])
        #expect(reading.secretLines == [FirstBootFile.SecretLine(line: 1, lastLine: 4, key: .sshKey, name: "ssh_key", valid: false)])
        let cleaned = try #require(FirstBootFile.removingSecrets(from: underKey, outcomes: [1: .refused(reason: "bad")]))
        #expect(cleaned == "# ssh_key: not applied, removed; write it again: bad\n"
            + String(repeating: "# removed from the card: part of the private key above\n", count: 3) + "hostname = kitchen\n")
        #expect(Self.read(cleaned).secretLines == [FirstBootFile.SecretLine(line: 1, lastLine: 4, key: .sshKey, name: "ssh_key", valid: false)])

        let cutShort = Self.privateKey.dropLast().joined(separator: "\n") + "\n\nboard = desktop\n"
        let short = Self.read(cutShort)
        #expect(short.secretLines.map { [$0.line, $0.lastLine] } == [[1, 3]])
        #expect(short.settings.board == .named("desktop"))
        #expect(FirstBootFile.removingSecrets(from: cutShort, outcomes: [1: .refused(reason: "x")])
            == "# removed from the card, not applied (a private key): x\n# removed from the card: part of the private key above\n"
            + "# removed from the card: part of the private key above\n\nboard = desktop\n")
    }
}
