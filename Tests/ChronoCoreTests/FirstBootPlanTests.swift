import ChronoCore
import Testing

/// `FirstBootPlan`: from the settings and the files as they are, the exact changes — none when the
/// files already say it (so a second apply changes nothing), and what was there kept (hosts' other
/// lines, authorized keys, the environment file's other settings).
@Suite("First-boot plan")
struct FirstBootPlanTests {
    static let key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPVQMFqN07s2Jp3GNQVBZWQrhXpfkxnbIT/GM0KL5r6G me@laptop"

    static func settings(_ text: String) -> FirstBootSettings {
        FirstBootFile.read(text, context: FirstBootFile.Context(boardNames: ["raspberry-pi-4b"], timezoneNames: ["Europe/London"])).settings
    }

    @Test("the changes for a full file on an empty root, then none once the root has them")
    func changesThenNone() {
        let settings = Self.settings("wifi_country = GB\nwifi_ssid = say \"hi\"\nwifi_passphrase = 12345678\nhostname = pi\ntimezone = Europe/London\nboard = raspberry-pi-4b\nssh_key = \(Self.key)\n")
        let plan = FirstBootPlan(settings, system: FirstBootPlan.System())
        #expect(plan.changes.map(\.path) == ["etc/hostname", "etc/hosts", "etc/timezone", "etc/localtime",
                                             "etc/wpa_supplicant/wpa_supplicant-wlan0.conf", "etc/ssh/authorized_keys/root",
                                             "etc/ssh/sshd_config.d/50-chronoception.conf", "etc/default/chronoception"])
        #expect(plan.writesWiFi && plan.writesSSHKeys)
        var system = FirstBootPlan.System()
        for change in plan.changes {
            switch change {
            case .write(let path, let text, _, _): system.files[path] = text
            case .link(_, let target): system.localtimeTarget = target
            case .remove(let path): system.files[path] = nil
            }
        }
        #expect(system.localtimeTarget == "/usr/share/zoneinfo/Europe/London")
        // A network name with a quote is written as its bytes in hex, as wpa_supplicant reads it.
        #expect(system.files["etc/wpa_supplicant/wpa_supplicant-wlan0.conf"]?.contains("\n\tssid=7361792022686922\n") == true)
        #expect(system.files["etc/default/chronoception"] == "# Settings for chronoception.service (written on first boot from chronoception.txt).\nCHRONOCEPTION_BOARD=raspberry-pi-4b\n# The companion beyond loopback (ADDR:PORT; empty: this device only), from chronoception.txt's companion_network.\nCHRONOCEPTION_LISTEN=\n")
        #expect(FirstBootPlan(settings, system: system).changes == [])
    }

    @Test("SSH: a key removes the image's off-marker; no key makes one only where none is")
    func sshMarker() {
        let on = FirstBootPlan(Self.settings("ssh_key = \(Self.key)"), system: FirstBootPlan.System(files: ["etc/ssh/sshd_not_to_be_run": ""]))
        #expect(on.changes.contains(.remove(path: "etc/ssh/sshd_not_to_be_run")))
        let off = FirstBootPlan(Self.settings(""), system: FirstBootPlan.System())
        #expect(off.changes.contains(.write(path: "etc/ssh/sshd_not_to_be_run", text: "# SSH stays off until chronoception.txt on the boot partition gives an ssh_key (docs/FIRST-BOOT.md).\n", mode: 0o644, folderMode: 0o755)))
        let already = FirstBootPlan(Self.settings(""), system: FirstBootPlan.System(files: ["etc/ssh/sshd_not_to_be_run": ""]))
        #expect(!already.changes.map(\.path).contains("etc/ssh/sshd_not_to_be_run"))
        let kept = FirstBootPlan(Self.settings("# ssh_key: applied on first boot, removed"), system: FirstBootPlan.System())
        #expect(!kept.changes.map(\.path).contains { $0.hasPrefix("etc/ssh/") })
    }

    @Test("hosts: the host's own line replaced or added, the others kept")
    func hosts() {
        let settings = Self.settings("hostname = pi")
        func hostsAfter(_ current: String?) -> String? {
            let plan = FirstBootPlan(settings, system: FirstBootPlan.System(files: current.map { ["etc/hosts": $0] } ?? [:]))
            for case .write(let path, let text, _, _) in plan.changes where path == "etc/hosts" { return text }
            return nil
        }
        #expect(hostsAfter(nil) == "127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\tpi\n")
        #expect(hostsAfter("127.0.0.1 localhost\n127.0.1.1   builder  builder.lan\n10.0.0.1 nas\n") == "127.0.0.1 localhost\n127.0.1.1\tpi\n10.0.0.1 nas\n")
        #expect(hostsAfter("127.0.0.1 localhost\n127.0.1.10 other") == "127.0.0.1 localhost\n127.0.1.10 other\n127.0.1.1\tpi\n")
        #expect(hostsAfter("127.0.0.1 localhost\n127.0.1.1\tpi\n") == nil)
    }

    @Test("authorized_keys: new keys appended, a key already there (any comment) not twice, nothing removed")
    func authorizedKeys() {
        let other = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBBBB old"
        let settings = Self.settings("ssh_key = \(Self.key)")
        func keysAfter(_ current: String) -> String? {
            let plan = FirstBootPlan(settings, system: FirstBootPlan.System(files: ["etc/ssh/authorized_keys/root": current]))
            for case .write(let path, let text, let mode, let folderMode) in plan.changes where path == "etc/ssh/authorized_keys/root" {
                #expect(mode == 0o600 && folderMode == 0o755)
                return text
            }
            return nil
        }
        #expect(keysAfter(other) == other + "\n" + Self.key + "\n")
        #expect(keysAfter(Self.key.replacingOccurrences(of: "me@laptop", with: "renamed") + "\n") == nil)
    }

    @Test("the environment file: its other lines kept, each setting replaced where it is")
    func environmentFile() {
        let settings = Self.settings("board = auto\ncompanion_network = on")
        let current = "# mine\nCHRONOCEPTION_LISTEN=127.0.0.1:9000\nOTHER=1\nCHRONOCEPTION_BOARD=desktop\n"
        let plan = FirstBootPlan(settings, system: FirstBootPlan.System(files: ["etc/default/chronoception": current]))
        #expect(plan.changes.contains(.write(path: "etc/default/chronoception", text: "# mine\nCHRONOCEPTION_LISTEN=0.0.0.0:8737\nOTHER=1\nCHRONOCEPTION_BOARD=\n", mode: 0o644, folderMode: 0o755)))
        #expect(plan.summary.contains("board: detected from the device tree when the service starts"))
    }
}

extension String {
    fileprivate func replacingOccurrences(of word: String, with replacement: String) -> String {
        split(separator: " ").map { $0 == word ? replacement : String($0) }.joined(separator: " ")
    }
}
