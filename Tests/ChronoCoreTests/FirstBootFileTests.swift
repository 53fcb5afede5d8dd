import ChronoCore
import Testing

/// The first-boot file's one reader (`FirstBootFile.read`): what editors make of a text file is
/// read, every valid value applies, every bad one is a problem with its line, key and fix, and the
/// secrets' lines are rewritten byte for byte around them.
@Suite("First-boot file")
struct FirstBootFileTests {
    static let context = FirstBootFile.Context(
        boardNames: ["desktop", "keyboard", "raspberry-pi-4b", "raspberry-pi-5", "raspberry-pi-zero-2w", "usb-foot-switch"],
        timezoneNames: ["America/New_York", "Europe/Berlin", "Europe/London", "UTC"])
    static let ed25519 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPVQMFqN07s2Jp3GNQVBZWQrhXpfkxnbIT/GM0KL5r6G me@laptop"
    static let ecdsa = "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBGQWrDpwcotzyvXv2ABOUbT2EG9uE87NV4lWyX5Q2TBHOEEDMqlQpLC0PfBBLkr60+Tos7Wn1muGxXlpngY2vMw= ec key"

    static func read(_ text: String) -> FirstBootFile.Reading { FirstBootFile.read(text, context: context) }

    static func messages(_ text: String) -> [String] { read(text).problems.map(\.description) }

    @Test("every key read to its typed value; Windows line ends, a byte order mark, spaces, quotes and key case taken as written")
    func everyKey() {
        let text = "\u{FEFF}# comment\r\nwifi_country=gb\r\n  WiFi-SSID =  \"Home Net \"  \r\nwifi_passphrase = correct horse # not a comment\r\n"
            + "hostname=Chrono-1\r\nboard = Raspberry-Pi-Zero-2W\r\ntimezone = europe/london\r\nssh_key = \(Self.ed25519)\r\n"
            + "ssh_key=\(Self.ecdsa)\r\ncompanion_network = ON\r\n"
        let reading = Self.read(text)
        #expect(reading.problems == [])
        let settings = reading.settings
        #expect(settings.wifiCountry == "GB")
        #expect(settings.wifi == FirstBootWiFi(ssid: "Home Net ", credential: .passphrase("correct horse # not a comment")))
        #expect(settings.hostname == "chrono-1")
        #expect(settings.board == .named("raspberry-pi-zero-2w"))
        #expect(settings.timezone == "Europe/London")
        #expect(settings.sshKeys.map(\.line) == [Self.ed25519, Self.ecdsa])
        #expect(settings.sshKeys.map(\.comment) == ["me@laptop", "ec key"])
        #expect(settings.companionNetwork == true)
        #expect(settings.keepsEarlierWiFi == false && settings.keepsEarlierSSH == false)
        #expect(reading.secretLines == [
            FirstBootFile.SecretLine(line: 4, key: .wifiPassphrase, valid: true),
            FirstBootFile.SecretLine(line: 8, key: .sshKey, valid: true),
            FirstBootFile.SecretLine(line: 9, key: .sshKey, valid: true),
        ])
    }

    @Test("the shipped template reads with no problem and gives the defaults: chronoception, no Wi-Fi, SSH off, companion off")
    func template() {
        for text in [FirstBootTemplate.text, FirstBootTemplate.crlf] {
            let reading = Self.read(text)
            #expect(reading.problems == [])
            #expect(reading.settings.effectiveHostname == "chronoception")
            #expect(reading.settings.wifi == nil && reading.settings.board == nil && reading.settings.timezone == nil)
            #expect(reading.settings.sshEnabled == false)
            #expect(reading.settings.companionNetwork == false)
            #expect(reading.secretLines == [])
        }
        #expect(FirstBootTemplate.crlf.utf8.filter { $0 == 10 }.count == FirstBootTemplate.crlf.utf8.filter { $0 == 13 }.count)
        #expect(FirstBootFile.read("", context: Self.context).settings == FirstBootSettings())
    }

    @Test("one bad value never throws the rest away: each valid value applies, each bad one is a problem with its line and fix")
    func badValuesBesideGoodOnes() {
        let text = """
            wifi_country = UK
            wifi_ssid = Home
            wifi_passphrase = short
            hostname = chrono
            timezone = Europe/Londn
            companion_network = maybe
            board = auto
            """
        let reading = Self.read(text)
        #expect(reading.problems.map(\.description) == [
            "line 1: wifi_country 'UK' is not a country code; use GB",
            "line 3: wifi_passphrase is 5 characters long; a WPA2 passphrase has 8 to 63 characters (or is a key of 64 hex digits); check it",
            "line 5: timezone 'Europe/Londn' is not a time zone; did you mean Europe/London?",
            "line 6: companion_network 'maybe' is neither on nor off; write on or off",
        ])
        #expect(reading.problems.map(\.line) == [1, 3, 5, 6])
        #expect(reading.problems.map(\.key) == ["wifi_country", "wifi_passphrase", "timezone", "companion_network"])
        #expect(reading.settings.hostname == "chrono")
        #expect(reading.settings.board == .detected)
        #expect(reading.settings.wifi == nil && reading.settings.wifiCountry == nil && reading.settings.timezone == nil)
        #expect(reading.settings.companionNetwork == nil)
        #expect(reading.secretLines == [FirstBootFile.SecretLine(line: 3, key: .wifiPassphrase, valid: false)])
    }

    @Test("each value's rule: the exact problem for each kind of mistake")
    func valueRules() {
        let cases: [(String, String)] = [
            ("wifi_country = Germany", "line 1: wifi_country 'Germany' is a country's name; use its code DE"),
            ("wifi_country = XX", "line 1: wifi_country 'XX' is not a country code; use your country's two letters of ISO 3166 (GB, US, DE, FR …)"),
            ("wifi_country = el", "line 1: wifi_country 'el' is not a country code; use GR"),
            ("wifi_ssid = x\nwifi_passphrase = " + String(repeating: "g", count: 64),
             "line 2: wifi_passphrase is 64 characters long: a key must be 64 hex digits (0-9, a-f), a passphrase at most 63 characters; check it"),
            ("wifi_ssid = x\nwifi_passphrase = pässwörter",
             "line 2: wifi_passphrase holds a character WPA2 does not allow: only printable ASCII (letters, digits, punctuation, space); check it"),
            ("wifi_ssid = x\nwifi_passphrase = " + String(repeating: "p", count: 62) + "é",
             "line 2: wifi_passphrase holds a character WPA2 does not allow: only printable ASCII (letters, digits, punctuation, space); check it"),
            ("hostname = my_pi", "line 1: hostname 'my_pi' may hold only letters a-z, digits and hyphens; use my-pi"),
            ("hostname = pi.local", "line 1: hostname 'pi.local' has dots; give one name without them: pi (the device answers as pi.local)"),
            ("hostname = -pi-", "line 1: hostname '-pi-' may not start or end with a hyphen; use pi"),
            ("hostname = " + String(repeating: "a", count: 64),
             "line 1: hostname '" + String(repeating: "a", count: 64) + "' is 64 characters long; a host name has at most 63; use " + String(repeating: "a", count: 63)),
            ("board = pi4", "line 1: board 'pi4' is not a board here; use one of desktop, keyboard, raspberry-pi-4b, raspberry-pi-5, raspberry-pi-zero-2w, usb-foot-switch, or auto (detected from the device tree)"),
            ("board = raspberry-pi-4", "line 1: board 'raspberry-pi-4' is not a board here; did you mean raspberry-pi-4b? (or auto: detected from the device tree)"),
            ("timezone = Mars/Olympus", "line 1: timezone 'Mars/Olympus' is not a time zone; use a Region/City name such as Europe/London or America/New_York, or UTC"),
            ("ssh_key = ssh-dss AAAAB3NzaC1kc3M=", "line 1: ssh_key is a DSA key, which OpenSSH no longer accepts; make an Ed25519 key (ssh-keygen -t ed25519) and give its .pub line"),
            ("ssh_key = AAAAC3NzaC1lZDI1NTE5AAAAIPVQ", "line 1: ssh_key does not start with a key type (ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256 …); paste the whole line of your .pub file: ssh-ed25519 AAAA… you@computer"),
            ("ssh_key = ssh-ed25519", "line 1: ssh_key has the type ssh-ed25519 but no key after it; paste the whole line of your .pub file"),
            ("ssh_key = ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPVQMFqN07s2Jp3GNQVBZWQrhXpfkxnbIT/GM0KL5r6",
             "line 1: ssh_key has a key that is not valid base64 (cut short or changed?); paste the whole line of your .pub file again"),
            ("ssh_key = ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIPVQMFqN07s2Jp3GNQVBZWQrhXpfkxnbIT/GM0KL5r6G me",
             "line 1: ssh_key says ssh-rsa but its key is of another type or damaged; paste the whole line of your .pub file again"),
            ("ssh_key = from=\"10.0.0.1\" ssh-ed25519 AAAA", "line 1: ssh_key starts with options ('from=\"10.0.0.1\"'); give the key line alone: ssh-ed25519 AAAA… you@computer"),
            ("ssh_key = -----BEGIN OPENSSH PRIVATE KEY-----",
             "line 1: ssh_key is a PRIVATE key: never put it on the card; give the public one (the line in the .pub file beside it) and make a new key pair, since this one was exposed"),
        ]
        for (text, message) in cases {
            #expect(Self.messages(text) == [message], "\(text)")
        }
        #expect(Self.messages("wifi_ssid = " + String(repeating: "n", count: 33) + "\nwifi_passphrase = 12345678") == [
            "line 1: wifi_ssid '" + String(repeating: "n", count: 33) + "' is 33 bytes long; a network name has at most 32 (check it on your phone's Wi-Fi list)",
            "line 2: wifi_passphrase is not applied because wifi_ssid is not valid (line 1); write both again",
        ])
        #expect(Self.read("wifi_ssid = x\nwifi_passphrase = " + String(repeating: "aB", count: 32)).settings.wifi?.credential == .key(String(repeating: "ab", count: 32)))
        #expect(Self.read("wifi_ssid = " + String(repeating: "é", count: 16) + "\nwifi_passphrase = 12345678\nwifi_country = de").settings.wifi?.ssid == String(repeating: "é", count: 16))
        #expect(Self.read("timezone = UTC").settings.timezone == "UTC")
    }

    @Test("lines that are no setting, unknown keys (with the key meant), repeated keys and bytes that are not UTF-8")
    func shapeProblems() {
        let text = "wifi ssid Home\nssid = Home\npassword = secret123\nsid = x\ncolour = blue\n = x\nhostname = a\nhostname = b\nhostname = c_d\nboard = desktop\u{FFFD}\n"
        #expect(Self.messages(text) == [
            "line 1: 'wifi ssid Home' is not a setting; write key = value, or start the line with # for a comment",
            "line 2: unknown key 'ssid'; did you mean wifi_ssid?",
            "line 3: unknown key 'password' looks like a secret's, so its line is removed from the card and not applied; did you mean wifi_passphrase?",
            "line 4: unknown key 'sid'; did you mean wifi_ssid?",
            "line 5: unknown key 'colour'; the keys are wifi_country, wifi_ssid, wifi_passphrase, hostname, board, timezone, ssh_key, companion_network",
            "line 6: has no key before '='; write key = value (the keys are wifi_country, wifi_ssid, wifi_passphrase, hostname, board, timezone, ssh_key, companion_network)",
            "line 8: hostname is given again (first on line 7); the value on this line is used if it is valid",
            "line 9: hostname is given again (first on line 7); the value on this line is used if it is valid",
            "line 9: hostname 'c_d' may hold only letters a-z, digits and hyphens; use c-d",
            "line 10: holds bytes that are not UTF-8 text; save the file as UTF-8 (or plain ASCII) and write this line again",
        ])
        #expect(Self.read(text).settings.hostname == "b")
        #expect(Self.read("hostnmae = x").problems.map(\.description) == ["line 1: unknown key 'hostnmae'; did you mean hostname?"])
    }

    @Test("Wi-Fi needs its name and passphrase together; a missing country is reported but Wi-Fi still applies")
    func wifiTogether() {
        #expect(Self.messages("wifi_country = GB\nwifi_ssid = Home") == [
            "line 2: wifi_ssid has no wifi_passphrase, so Wi-Fi is not set up; add the line wifi_passphrase = your Wi-Fi password (open networks are not supported)",
        ])
        #expect(Self.messages("wifi_passphrase = 12345678") == [
            "line 1: wifi_passphrase is given without wifi_ssid, so Wi-Fi is not set up; add the line wifi_ssid = your network's name",
        ])
        #expect(Self.read("wifi_passphrase = 12345678").secretLines == [FirstBootFile.SecretLine(line: 1, key: .wifiPassphrase, valid: false)])
        let noCountry = Self.read("wifi_ssid = Home\nwifi_passphrase = 12345678")
        #expect(noCountry.problems == [FirstBootProblem(line: nil, key: "wifi_country",
            message: "wifi_country is missing: Wi-Fi keeps to the channels allowed everywhere and may not see your network; add wifi_country = your country's two letters (GB, US, DE …)")])
        #expect(noCountry.settings.wifi == FirstBootWiFi(ssid: "Home", credential: .passphrase("12345678")))
        // A bad name makes the passphrase useless: it is refused with it (and removed as not applied).
        let badName = Self.read("wifi_country = GB\nwifi_ssid = \(String(repeating: "x", count: 40))\nwifi_passphrase = 12345678")
        #expect(badName.settings.wifi == nil)
        #expect(badName.problems.map(\.description) == [
            "line 2: wifi_ssid '\(String(repeating: "x", count: 40))' is 40 bytes long; a network name has at most 32 (check it on your phone's Wi-Fi list)",
            "line 3: wifi_passphrase is not applied because wifi_ssid is not valid (line 2); write both again",
        ])
        #expect(badName.secretLines == [FirstBootFile.SecretLine(line: 3, key: .wifiPassphrase, valid: false)])
    }

    @Test("after the secrets were removed, the comments left keep Wi-Fi and SSH as they were set")
    func keptAfterRemoval() {
        let text = "wifi_country = GB\nwifi_ssid = Home\n# wifi_passphrase: applied on first boot, removed\n# ssh_key: applied on first boot, removed\n"
        let reading = Self.read(text)
        #expect(reading.problems == [])
        #expect(reading.settings.keepsEarlierWiFi && reading.settings.keepsEarlierSSH)
        #expect(reading.settings.sshEnabled)
        #expect(reading.settings.wifi == nil)
        // A refused secret's comment is the same problem on the same line (not "no passphrase"), until
        // a valid value is given again.
        let refused = Self.read("wifi_ssid = Home\n" + FirstBootKey.wifiPassphrase.refusedComment(reason: "wifi_passphrase is 5 characters long") + "\nssh_key =\n# ssh_key: not applied, removed; write it again: ssh_key is bad\n")
        #expect(refused.settings.keepsEarlierWiFi == false)
        #expect(refused.problems == [FirstBootProblem(line: 2, key: "wifi_passphrase", message: "wifi_passphrase is 5 characters long"),
                                     FirstBootProblem(line: 4, key: "ssh_key", message: "ssh_key is bad")])
        #expect(refused.secretLines == [FirstBootFile.SecretLine(line: 2, key: .wifiPassphrase, valid: false), FirstBootFile.SecretLine(line: 4, key: .sshKey, valid: false)])
        let givenAgain = Self.read("wifi_country = GB\nwifi_ssid = Home\n" + FirstBootKey.wifiPassphrase.refusedComment(reason: "old") + "\nwifi_passphrase = 12345678\n")
        #expect(givenAgain.problems == [])
        #expect(givenAgain.settings.wifi == FirstBootWiFi(ssid: "Home", credential: .passphrase("12345678")))
    }

    @Test("the secrets' lines become comments; every other byte is kept (byte order mark, CRLF, a last line without an end)")
    func removingSecrets() {
        let text = "\u{FEFF}wifi_passphrase = correct horse\r\nwifi_ssid = Home  \r\nssh_key = \(Self.ed25519)\r\nssh_key = ssh-foo AAAA\r\nssh_key =\r\n# ssh_key = old"
        let cleaned = FirstBootFile.removingSecrets(from: text, outcomes: [1: .applied, 3: .applied, 4: .refused(reason: "bad"), 5: .applied, 6: .applied])
        #expect(cleaned == "\u{FEFF}# wifi_passphrase: applied on first boot, removed\r\nwifi_ssid = Home  \r\n# ssh_key: applied on first boot, removed\r\n"
            + "# ssh_key: not applied, removed; write it again: bad\r\nssh_key =\r\n# ssh_key = old")
        #expect(FirstBootFile.removingSecrets(from: text, outcomes: [:]) == nil)
        #expect(FirstBootFile.removingSecrets(from: "a = b\rwifi_passphrase = x\r", outcomes: [2: .applied]) == "a = b\r# wifi_passphrase: applied on first boot, removed\r")
        // The line numbers the rewrite uses are the reader's.
        let reading = Self.read(text)
        #expect(reading.secretLines.map(\.line) == [1, 3, 4])
    }

    @Test("a repeated SSH key is kept once")
    func repeatedKey() {
        let reading = Self.read("ssh_key = \(Self.ed25519)\nssh_key = \(Self.ed25519.replacingLast("me@laptop", with: "again"))")
        #expect(reading.settings.sshKeys.count == 1)
        #expect(reading.secretLines.map(\.line) == [1, 2])
    }

    @Test("did you mean: edit distance")
    func editDistance() {
        #expect(EditDistance.between("kitten", "sitting") == 3)
        #expect(EditDistance.between("", "abc") == 3)
        #expect(EditDistance.nearest(to: "europe/londn", in: Self.context.timezoneNames, within: 3) == "Europe/London")
        #expect(EditDistance.nearest(to: "xyz", in: ["abcdef"], within: 3) == nil)
    }
}

extension String {
    fileprivate func replacingLast(_ word: String, with replacement: String) -> String {
        guard hasSuffix(word) else { return self }
        return String(dropLast(word.count)) + replacement
    }
}
