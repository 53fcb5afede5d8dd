import ChronoCore
import Foundation
import Testing

/// `chronoception first-boot apply --boot DIR --root DIR` run as the program, as the image's
/// first-boot unit runs it, on temporary folders: the exact files written, the cleaned file on the
/// boot partition, the report and the problem marker; a second run changes nothing; bad values are
/// reported while the rest applies; nothing is written outside the two folders.
@Suite("chronoception first-boot")
struct FirstBootCommandTests {
    static let ed25519 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPVQMFqN07s2Jp3GNQVBZWQrhXpfkxnbIT/GM0KL5r6G me@laptop"

    /// A temporary folder holding `boot/` and `root/`, the root with what the image has: hosts,
    /// the package's /etc/default/chronoception, SSH off, two time zones.
    final class Card {
        let folder = NSTemporaryDirectory() + "chronoception-first-boot-\(UUID().uuidString)"
        var boot: String { folder + "/boot" }
        var root: String { folder + "/root" }

        init(file: String?) throws {
            let manager = FileManager.default
            for path in ["boot", "root/etc/ssh", "root/etc/default", "root/usr/share/zoneinfo/Europe"] {
                try manager.createDirectory(atPath: folder + "/" + path, withIntermediateDirectories: true)
            }
            try "127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\tbuilder\n".write(toFile: root + "/etc/hosts", atomically: false, encoding: .utf8)
            try "chronoception\n".write(toFile: root + "/etc/hostname", atomically: false, encoding: .utf8)
            try "# Settings for chronoception.service.\nCHRONOCEPTION_BOARD=\n".write(toFile: root + "/etc/default/chronoception", atomically: false, encoding: .utf8)
            try "".write(toFile: root + "/etc/ssh/sshd_not_to_be_run", atomically: false, encoding: .utf8)
            try "TZif-london".write(toFile: root + "/usr/share/zoneinfo/Europe/London", atomically: false, encoding: .utf8)
            try "TZif-utc".write(toFile: root + "/usr/share/zoneinfo/UTC", atomically: false, encoding: .utf8)
            try manager.createSymbolicLink(atPath: root + "/etc/localtime", withDestinationPath: "/usr/share/zoneinfo/UTC")
            if let file { try Data(file.utf8).write(to: URL(fileURLWithPath: boot + "/chronoception.txt")) }
        }

        func apply() throws -> (status: Int32, output: String, errors: String) {
            let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
            return try FullDiskCommandTests.run(binary, ["first-boot", "apply", "--boot", boot, "--root", root])
        }

        func text(_ path: String) -> String? {
            FileManager.default.contents(atPath: folder + "/" + path).map { String(decoding: $0, as: UTF8.self) }
        }

        func mode(_ path: String) throws -> Int {
            try (FileManager.default.attributesOfItem(atPath: folder + "/" + path)[.posixPermissions] as? Int) ?? -1
        }

        /// Every file, folder and link under the folder with its contents or target, for "nothing changed".
        func snapshot() throws -> [String: String] {
            var result: [String: String] = [:]
            let manager = FileManager.default
            for path in try manager.subpathsOfDirectory(atPath: folder) {
                let full = folder + "/" + path
                if let target = try? manager.destinationOfSymbolicLink(atPath: full) {
                    result[path] = "-> " + target
                } else if let data = manager.contents(atPath: full) {
                    let modified = (try manager.attributesOfItem(atPath: full)[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                    result[path] = String(decoding: data, as: UTF8.self) + " @\(modified)"
                } else {
                    result[path] = "folder"
                }
            }
            return result
        }

        func remove() { try? FileManager.default.removeItem(atPath: folder) }
    }

    static let sample = "\u{FEFF}# my device\r\nwifi_country = gb\r\nwifi_ssid = Home Net\r\nwifi_passphrase = correct horse  \r\n"
        + "hostname = Chrono-Kitchen\r\ntimezone = Europe/London\r\nboard = raspberry-pi-zero-2w\r\nssh_key = \(ed25519)\r\ncompanion_network = on\r\n"

    @Test("a sample file applied: the exact files written, the secrets gone from the boot partition, the report; a second run changes nothing")
    func appliesSample() throws {
        let card = try Card(file: Self.sample)
        defer { card.remove() }
        let first = try card.apply()
        #expect(first.status == 0)
        #expect(first.errors == "")
        #expect(first.output == """
            Applied chronoception.txt:
              hostname: chrono-kitchen; on the network as chrono-kitchen.local
              timezone: Europe/London
              Wi-Fi: network 'Home Net', country GB; only the network's key is stored, never the passphrase
              SSH: on, keys only (no password), as root with 1 key: ssh-ed25519 me@laptop
              board: raspberry-pi-zero-2w
              companion: on the network at http://chrono-kitchen.local:8737/ (every request needs a key: pair from the page with a long press)
            Changed: \(card.root)/etc/hostname, \(card.root)/etc/hosts, \(card.root)/etc/timezone, \(card.root)/etc/localtime, \(card.root)/etc/wpa_supplicant/wpa_supplicant-wlan0.conf, \(card.root)/etc/ssh/authorized_keys/root, \(card.root)/etc/ssh/sshd_config.d/50-chronoception.conf, \(card.root)/etc/ssh/sshd_not_to_be_run, \(card.root)/etc/default/chronoception, \(card.boot)/chronoception.txt, \(card.root)/var/lib/chronoception/first-boot.txt.

            """)
        #expect(card.text("root/etc/hostname") == "chrono-kitchen\n")
        #expect(card.text("root/etc/hosts") == "127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\tchrono-kitchen\n")
        #expect(card.text("root/etc/timezone") == "Europe/London\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: card.root + "/etc/localtime") == "/usr/share/zoneinfo/Europe/London")
        #expect(card.text("root/etc/wpa_supplicant/wpa_supplicant-wlan0.conf") == """
            # Written by chronoception first-boot apply from chronoception.txt on the boot partition: the
            # network's key (WPA2's PBKDF2 of the passphrase), never the passphrase itself.
            ctrl_interface=DIR=/run/wpa_supplicant GROUP=netdev
            country=GB

            network={
            \tssid="Home Net"
            \tscan_ssid=1
            \tkey_mgmt=WPA-PSK
            \tpsk=bb4b86441ece5d83bfa5c94c563c6608457f85482d7bd7cad7e0ca3dcfa91591
            }

            """)
        #expect(try card.mode("root/etc/wpa_supplicant/wpa_supplicant-wlan0.conf") == 0o600)
        #expect(card.text("root/etc/ssh/authorized_keys/root") == Self.ed25519 + "\n")
        #expect(try card.mode("root/etc/ssh/authorized_keys/root") == 0o600)
        #expect(try card.mode("root/etc/ssh/authorized_keys") == 0o755)
        #expect(card.text("root/etc/ssh/sshd_config.d/50-chronoception.conf") == "# Written by chronoception first-boot apply: SSH with keys only (docs/FIRST-BOOT.md).\nPasswordAuthentication no\nKbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\nAuthorizedKeysFile .ssh/authorized_keys /etc/ssh/authorized_keys/%u\n")
        #expect(card.text("root/etc/ssh/sshd_not_to_be_run") == nil)
        #expect(card.text("root/etc/default/chronoception") == """
            # Settings for chronoception.service.
            CHRONOCEPTION_BOARD=raspberry-pi-zero-2w
            # The companion beyond loopback (ADDR:PORT; empty: this device only), from chronoception.txt's companion_network.
            CHRONOCEPTION_LISTEN=0.0.0.0:8737

            """)
        // The secrets are gone; every other byte (the byte order mark, CRLF, trailing spaces) is kept.
        #expect(card.text("boot/chronoception.txt") == "\u{FEFF}# my device\r\nwifi_country = gb\r\nwifi_ssid = Home Net\r\n# wifi_passphrase: applied on first boot, removed\r\n"
            + "hostname = Chrono-Kitchen\r\ntimezone = Europe/London\r\nboard = raspberry-pi-zero-2w\r\n# ssh_key: applied on first boot, removed\r\ncompanion_network = on\r\n")
        // The passphrase is nowhere: not on the card, not under the root, not in what was printed.
        #expect(try card.snapshot().filter { $0.value.contains("correct horse") }.keys.sorted() == [])
        #expect(!first.output.contains("correct horse") && !first.errors.contains("correct horse"))
        #expect(card.text("root/var/lib/chronoception/first-boot.txt") == """
            Chronoception first boot: applied chronoception.txt on the boot partition.

            What the device has:
              hostname: chrono-kitchen; on the network as chrono-kitchen.local
              timezone: Europe/London
              Wi-Fi: network 'Home Net', country GB; only the network's key is stored, never the passphrase
              SSH: on, keys only (no password), as root with 1 key: ssh-ed25519 me@laptop
              board: raspberry-pi-zero-2w
              companion: on the network at http://chrono-kitchen.local:8737/ (every request needs a key: pair from the page with a long press)

            Problems: none.

            Removed from chronoception.txt: wifi_passphrase (line 4), ssh_key (line 8).

            """)
        #expect(card.text("root/var/lib/chronoception/first-boot-problems") == nil)
        // Nothing outside the two folders.
        #expect(try FileManager.default.contentsOfDirectory(atPath: card.folder).sorted() == ["boot", "root"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: card.boot) == ["chronoception.txt"])

        // Again, with the cleaned file: nothing changes and nothing is lost (Wi-Fi and SSH kept).
        let before = try card.snapshot()
        let second = try card.apply()
        #expect(second.status == 0 && second.errors == "")
        #expect(second.output.hasSuffix("""
              Wi-Fi: kept as set on an earlier boot (its passphrase was removed from chronoception.txt)
              SSH: kept as set on an earlier boot (its keys were removed from chronoception.txt)
              board: raspberry-pi-zero-2w
              companion: on the network at http://chrono-kitchen.local:8737/ (every request needs a key: pair from the page with a long press)
            Nothing changed.

            """))
        #expect(try card.snapshot() == before)
    }

    @Test("bad values: each reported on standard error with its line and fix, in the report and the marker; the valid ones and the defaults still apply; exit 0")
    func badValues() throws {
        let card = try Card(file: "wifi_country = UK\nwifi_ssid = Home\nwifi_passphrase = short\nhostname = kitchen_pi\ntimezone = Europe/Londn\nssh_key = ssh-rsa AAAA\ncolour = blue\ncompanion_network = off\n")
        defer { card.remove() }
        let result = try card.apply()
        #expect(result.status == 0)
        let problems = [
            "line 1: wifi_country 'UK' is not a country code; use GB",
            "line 3: wifi_passphrase is 5 characters long; a WPA2 passphrase has 8 to 63 characters (or is a key of 64 hex digits); check it",
            "line 4: hostname 'kitchen_pi' may hold only letters a-z, digits and hyphens; use kitchen-pi",
            "line 5: timezone 'Europe/Londn' is not a time zone; did you mean Europe/London?",
            "line 6: ssh_key has a key that is not valid base64 (cut short or changed?); paste the whole line of your .pub file again",
            "line 7: unknown key 'colour'; the keys are wifi_country, wifi_ssid, wifi_passphrase, hostname, board, timezone, ssh_key, companion_network",
        ]
        #expect(result.errors == problems.map { "chronoception.txt: \($0)\n" }.joined())
        #expect(result.output.hasSuffix("6 problems (on standard error and in /var/lib/chronoception/first-boot.txt); every valid value was applied.\n"))
        #expect(card.text("root/var/lib/chronoception/first-boot-problems") == """
            1\twifi_country\twifi_country 'UK' is not a country code; use GB
            3\twifi_passphrase\twifi_passphrase is 5 characters long; a WPA2 passphrase has 8 to 63 characters (or is a key of 64 hex digits); check it
            4\thostname\thostname 'kitchen_pi' may hold only letters a-z, digits and hyphens; use kitchen-pi
            5\ttimezone\ttimezone 'Europe/Londn' is not a time zone; did you mean Europe/London?
            6\tssh_key\tssh_key has a key that is not valid base64 (cut short or changed?); paste the whole line of your .pub file again
            7\tcolour\tunknown key 'colour'; the keys are wifi_country, wifi_ssid, wifi_passphrase, hostname, board, timezone, ssh_key, companion_network

            """)
        #expect(card.text("root/var/lib/chronoception/first-boot.txt") == """
            Chronoception first boot: applied chronoception.txt on the boot partition.

            What the device has:
              hostname: chronoception (the default); on the network as chronoception.local
              timezone: not given; left as it is
              Wi-Fi: not set up (no valid wifi_ssid and wifi_passphrase); the device trains offline
              SSH: off (no ssh_key given)
              board: not given; left as it is
              companion: this device only (companion_network off)

            Problems (6), each with its fix in chronoception.txt:
            \(problems.map { "  " + $0 }.joined(separator: "\n"))

            Removed from chronoception.txt: wifi_passphrase (line 3, not applied), ssh_key (line 6, not applied).

            """)
        // The defaults and what was valid: SSH stays off, the companion on this device only.
        #expect(card.text("root/etc/hostname") == "chronoception\n")
        #expect(card.text("root/etc/ssh/sshd_not_to_be_run") == "")
        #expect(card.text("root/etc/ssh/authorized_keys/root") == nil)
        #expect(card.text("root/etc/wpa_supplicant/wpa_supplicant-wlan0.conf") == nil)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: card.root + "/etc/localtime") == "/usr/share/zoneinfo/UTC")
        #expect(card.text("root/etc/default/chronoception")?.hasSuffix("\nCHRONOCEPTION_BOARD=\n# The companion beyond loopback (ADDR:PORT; empty: this device only), from chronoception.txt's companion_network.\nCHRONOCEPTION_LISTEN=\n") == true)
        #expect(card.text("boot/chronoception.txt") == "wifi_country = UK\nwifi_ssid = Home\n"
            + "# wifi_passphrase: not applied, removed; write it again: \(problems[1].dropFirst(8))\nhostname = kitchen_pi\ntimezone = Europe/Londn\n"
            + "# ssh_key: not applied, removed; write it again: \(problems[4].dropFirst(8))\ncolour = blue\ncompanion_network = off\n")

        // Again, with the cleaned file: the same problems on the same lines, nothing changes.
        let before = try card.snapshot()
        let again = try card.apply()
        #expect(again.status == 0)
        #expect(again.errors == result.errors)
        #expect(again.output.contains("\nNothing changed.\n"))
        #expect(try card.snapshot() == before)

        // Fixed on another computer: the problems and the marker go.
        try Data("wifi_country = GB\nhostname = kitchen-pi\n".utf8).write(to: URL(fileURLWithPath: card.boot + "/chronoception.txt"))
        let fixed = try card.apply()
        #expect(fixed.status == 0 && fixed.errors == "")
        #expect(card.text("root/var/lib/chronoception/first-boot-problems") == nil)
        #expect(card.text("root/etc/hostname") == "kitchen-pi\n")
        #expect(card.text("root/var/lib/chronoception/first-boot.txt")?.contains("\nProblems: none.\n") == true)
    }

    /// The image's unit: the boot partition mounted read-only, `--remount-boot`. Run in a mount namespace
    /// of its own (`unshare -m`), on a tmpfs mounted read-only over the card's boot folder, so nothing of
    /// it reaches this machine's mounts; needs root, as the image's unit has.
    @Test("--remount-boot on a read-only boot partition: read-write only for the rewrite that takes the secrets out, read-only after; with no secret left, never remounted",
          .enabled(if: getuid() == 0, "needs root (mount namespaces and remounts)"))
    func remountsBootOnlyForTheRewrite() throws {
        let card = try Card(file: Self.sample)
        defer { card.remove() }
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let script = """
            set -e
            cp "$1/chronoception.txt" "$3/original.txt"
            mount -t tmpfs -o size=1m,noatime tmpfs "$1"
            cp "$3/original.txt" "$1/chronoception.txt"
            mount -o remount,ro "$1"
            for run in 1 2; do
                "$0" first-boot apply --boot "$1" --root "$2" --remount-boot > "$3/output-$run.txt"
                findmnt -n -o OPTIONS --mountpoint "$1" > "$3/mount-$run.txt"
            done
            cp "$1/chronoception.txt" "$3/after.txt"
            """
        let result = try FullDiskCommandTests.run("/usr/bin/unshare", ["-m", "sh", "-c", script, binary, card.boot, card.root, card.folder])
        #expect(result.status == 0, "\(result.errors)")
        let first = try #require(card.text("output-1.txt"))
        let second = try #require(card.text("output-2.txt"))
        #expect(first.hasSuffix("\(card.boot)/chronoception.txt, \(card.root)/var/lib/chronoception/first-boot.txt.\nThe boot partition was read-write while the secrets were taken out, then read-only again.\n"))
        #expect(second.hasSuffix("Nothing changed.\nThe boot partition was not remounted: nothing on it to rewrite, or it was already read-write.\n"))
        // Read-only after each run, with the mount's own flags kept (noatime), and the file cleaned as without the flag.
        // (What follows the per-mount flags, tmpfs's own options, differs between kernels.)
        #expect(card.text("mount-1.txt")?.hasPrefix("ro,noatime,size=1024k") == true, "\(card.text("mount-1.txt") ?? "")")
        #expect(card.text("mount-2.txt")?.hasPrefix("ro,noatime,size=1024k") == true, "\(card.text("mount-2.txt") ?? "")")
        #expect(card.text("after.txt") == "\u{FEFF}# my device\r\nwifi_country = gb\r\nwifi_ssid = Home Net\r\n# wifi_passphrase: applied on first boot, removed\r\n"
            + "hostname = Chrono-Kitchen\r\ntimezone = Europe/London\r\nboard = raspberry-pi-zero-2w\r\n# ssh_key: applied on first boot, removed\r\ncompanion_network = on\r\n")
    }

    @Test("no file on the boot partition: the defaults apply (SSH off, companion on this device only); exit 0")
    func noFile() throws {
        let card = try Card(file: nil)
        defer { card.remove() }
        let result = try card.apply()
        #expect(result.status == 0 && result.errors == "")
        #expect(result.output.hasPrefix("No chronoception.txt on the boot partition; the defaults apply:\n  hostname: chronoception (the default); on the network as chronoception.local\n"))
        #expect(card.text("root/var/lib/chronoception/first-boot.txt")?.hasPrefix("Chronoception first boot: no chronoception.txt on the boot partition; the defaults apply.\n") == true)
        #expect(card.text("root/etc/ssh/sshd_not_to_be_run") == "")
        #expect(try FileManager.default.contentsOfDirectory(atPath: card.boot) == [])
        // Without the image's marker, SSH is turned off by making it.
        try FileManager.default.removeItem(atPath: card.root + "/etc/ssh/sshd_not_to_be_run")
        #expect(try card.apply().status == 0)
        #expect(card.text("root/etc/ssh/sshd_not_to_be_run") == "# SSH stays off until chronoception.txt on the boot partition gives an ssh_key (docs/FIRST-BOOT.md).\n")
    }

    @Test("nothing outside --root: a folder on the way that leads out is refused, and a write that fails keeps the secret for the next boot (exit 74)")
    func staysInside() throws {
        let card = try Card(file: Self.sample)
        defer { card.remove() }
        let outside = card.folder + "-outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: outside) }
        // /etc/wpa_supplicant is a link to a folder outside the root.
        try FileManager.default.createSymbolicLink(atPath: card.root + "/etc/wpa_supplicant", withDestinationPath: outside)
        let result = try card.apply()
        #expect(result.status == 74)
        #expect(result.errors.hasSuffix("error: cannot write '\(card.root)/etc/wpa_supplicant/wpa_supplicant-wlan0.conf': a folder on the way leads outside \(card.root); nothing was written there; what it sets is not applied and a secret it needs stays on the boot partition for the next boot. Run it as root on a writable root file system.\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == [])
        // The passphrase stays (its write failed); the SSH key, applied, is gone.
        let boot = card.text("boot/chronoception.txt") ?? ""
        #expect(boot.contains("\r\nwifi_passphrase = correct horse  \r\n"))
        #expect(boot.contains("\r\n# ssh_key: applied on first boot, removed\r\n"))
        #expect(card.text("root/etc/hostname") == "chrono-kitchen\n")
    }

    @Test("--boot or --root that is not a folder: nothing applied, exit 66")
    func missingFolder() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let result = try FullDiskCommandTests.run(binary, ["first-boot", "apply", "--boot", "/nonexistent-boot", "--root", "/"])
        #expect(result.status == 66)
        #expect(result.errors == "error: --boot '/nonexistent-boot' is not a folder; give the boot partition's mount point (/boot/firmware) and the root (/)\n")
    }

    @Test("check lists a file's problems (exit 1) or says it has none; template prints the shipped file")
    func checkAndTemplate() throws {
        let card = try Card(file: "wifi_country = UK\n")
        defer { card.remove() }
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let bad = try FullDiskCommandTests.run(binary, ["first-boot", "check", card.boot + "/chronoception.txt", "--root", card.root])
        #expect(bad.status == 1)
        #expect(bad.output == "line 1: wifi_country 'UK' is not a country code; use GB\n")
        let template = try FullDiskCommandTests.run(binary, ["first-boot", "template"])
        #expect(template.status == 0 && template.output == FirstBootTemplate.text)
        let crlf = try FullDiskCommandTests.run(binary, ["first-boot", "template", "--crlf"])
        #expect(crlf.output == FirstBootTemplate.crlf)
        // The copy the image build puts on the FAT partition is the template, byte for byte.
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let shipped = try String(contentsOf: repository.appendingPathComponent("image/firmware/chronoception.txt"), encoding: .utf8)
        #expect(shipped == FirstBootTemplate.crlf, "regenerate it: chronoception first-boot template --crlf > image/firmware/chronoception.txt")
        try Data(FirstBootTemplate.crlf.utf8).write(to: URL(fileURLWithPath: card.boot + "/chronoception.txt"))
        let good = try FullDiskCommandTests.run(binary, ["first-boot", "check", card.boot + "/chronoception.txt", "--root", card.root])
        #expect(good.status == 0 && good.output == "\(card.boot)/chronoception.txt: no problems.\n")
    }
}
