/// What applying the first-boot file changes on the device's root file system, decided from the
/// settings and the files as they are (pure: `FirstBootApplier` in ChronoDevice reads the files and
/// carries the changes out). A change that would leave a file as it is is not planned, so applying the
/// same file twice changes nothing the second time.
public struct FirstBootPlan: Equatable, Sendable {
    /// The root-relative paths the plan reads and writes (never absolute: the applier joins them to
    /// `--root`, so nothing is written outside it).
    public enum Path {
        public static let hostname = "etc/hostname"
        public static let hosts = "etc/hosts"
        public static let timezone = "etc/timezone"
        public static let localtime = "etc/localtime"
        public static let wifi = "etc/wpa_supplicant/wpa_supplicant-wlan0.conf"
        /// root's keys, under /etc rather than /root: the image's root file system is read-only and only
        /// /etc and /var/lib are writable overlays kept on the data partition (docs/IMAGE.md); sshd is
        /// told to look there by `sshdConfig`.
        public static let authorizedKeys = "etc/ssh/authorized_keys/root"
        /// Debian's ssh.service does not start while this file exists (`ConditionPathExists=!`).
        public static let sshOff = "etc/ssh/sshd_not_to_be_run"
        public static let sshdConfig = "etc/ssh/sshd_config.d/50-chronoception.conf"
        /// The service's environment file: `CHRONOCEPTION_BOARD`, `CHRONOCEPTION_LISTEN`.
        public static let serviceDefaults = "etc/default/chronoception"
        public static let report = "var/lib/chronoception/first-boot.txt"
        /// Present while the last apply found problems: the daemon's cue to signal them.
        public static let problems = "var/lib/chronoception/first-boot-problems"

        /// The regular files the plan needs to see.
        public static let read = [hostname, hosts, timezone, wifi, authorizedKeys, sshOff, sshdConfig, serviceDefaults]
    }

    /// The address the companion listens on when `companion_network = on`.
    public static let companionAddress = "0.0.0.0:8737"

    /// One change under the root.
    public enum Change: Equatable, Sendable {
        /// Write `text` to `path` with `mode`; a missing parent folder is made with `folderMode`.
        case write(path: String, text: String, mode: UInt32, folderMode: UInt32)
        /// Make `path` a symbolic link to `target` (replacing what is there).
        case link(path: String, target: String)
        /// Remove the file at `path`.
        case remove(path: String)

        public var path: String {
            switch self {
            case .write(let path, _, _, _), .link(let path, _), .remove(let path): return path
            }
        }
    }

    /// The system's files as they are now.
    public struct System: Equatable, Sendable {
        /// Root-relative path → text, for each file of `Path.read` that exists.
        public var files: [String: String]
        /// What `etc/localtime` points to, when it is a symbolic link.
        public var localtimeTarget: String?

        public init(files: [String: String] = [:], localtimeTarget: String? = nil) {
            self.files = files
            self.localtimeTarget = localtimeTarget
        }
    }

    /// The changes, in the order they are made.
    public var changes: [Change]
    /// One line per setting for the report: what the device has after this apply.
    public var summary: [String]
    /// Whether the plan writes what the Wi-Fi passphrase gave (so its line may be removed).
    public var writesWiFi: Bool
    /// Whether the plan writes the SSH keys given (so their lines may be removed).
    public var writesSSHKeys: Bool

    public init(_ settings: FirstBootSettings, system: System) {
        var changes: [Change] = []
        var summary: [String] = []
        func write(_ path: String, _ text: String, mode: UInt32 = 0o644, folderMode: UInt32 = 0o755) {
            if system.files[path] != text { changes.append(.write(path: path, text: text, mode: mode, folderMode: folderMode)) }
        }

        let hostname = settings.effectiveHostname
        write(Path.hostname, hostname + "\n")
        write(Path.hosts, Self.hosts(system.files[Path.hosts], hostname: hostname))
        summary.append("hostname: \(hostname)\(settings.hostname == nil ? " (the default)" : ""); on the network as \(hostname).local")

        if let zone = settings.timezone {
            write(Path.timezone, zone + "\n")
            let target = "/usr/share/zoneinfo/" + zone
            if system.localtimeTarget != target { changes.append(.link(path: Path.localtime, target: target)) }
            summary.append("timezone: \(zone)")
        } else {
            summary.append("timezone: not given; left as it is")
        }

        if let wifi = settings.wifi {
            write(Path.wifi, Self.wpaSupplicant(country: settings.wifiCountry, wifi: wifi), mode: 0o600)
            summary.append("Wi-Fi: network \(TerminalSafeText.quoted(wifi.ssid, limit: 40)), country \(settings.wifiCountry ?? "not set (world-wide channels only)"); only the network's key is stored, never the passphrase")
        } else if settings.keepsEarlierWiFi {
            summary.append("Wi-Fi: kept as set on an earlier boot (its passphrase was removed from chronoception.txt)")
        } else {
            summary.append("Wi-Fi: not set up (no valid wifi_ssid and wifi_passphrase); the device trains offline")
        }

        if !settings.sshKeys.isEmpty {
            write(Path.authorizedKeys, Self.authorizedKeys(system.files[Path.authorizedKeys], adding: settings.sshKeys), mode: 0o600)
            write(Path.sshdConfig, Self.sshdConfig)
            if system.files[Path.sshOff] != nil { changes.append(.remove(path: Path.sshOff)) }
            let count = settings.sshKeys.count
            summary.append("SSH: on, keys only (no password), as root with \(count == 1 ? "1 key" : "\(count) keys"): \(settings.sshKeys.map { $0.comment.isEmpty ? $0.type : "\($0.type) \($0.comment)" }.joined(separator: ", "))")
        } else if settings.keepsEarlierSSH {
            summary.append("SSH: kept as set on an earlier boot (its keys were removed from chronoception.txt)")
        } else {
            // Only its presence counts: one already there (the image's) is left as it is.
            if system.files[Path.sshOff] == nil {
                write(Path.sshOff, "# SSH stays off until chronoception.txt on the boot partition gives an ssh_key (docs/FIRST-BOOT.md).\n")
            }
            summary.append("SSH: off (no ssh_key given)")
        }

        var defaults = system.files[Path.serviceDefaults] ?? "# Settings for chronoception.service (written on first boot from chronoception.txt).\n"
        switch settings.board {
        case .named(let name)?:
            defaults = Self.setting("CHRONOCEPTION_BOARD", to: name, in: defaults)
            summary.append("board: \(name)")
        case .detected?:
            defaults = Self.setting("CHRONOCEPTION_BOARD", to: "", in: defaults)
            summary.append("board: detected from the device tree when the service starts")
        case nil:
            summary.append("board: not given; left as it is")
        }
        let listen = settings.companionListens ? Self.companionAddress : ""
        defaults = Self.setting("CHRONOCEPTION_LISTEN", to: listen, in: defaults, comment:
            "# The companion beyond loopback (ADDR:PORT; empty: this device only), from chronoception.txt's companion_network.")
        write(Path.serviceDefaults, defaults)
        summary.append(settings.companionListens
            ? "companion: on the network at http://\(hostname).local:8737/ (every request needs a key: pair from the page with a long press)"
            : "companion: this device only (companion_network off)")

        self.changes = changes
        self.summary = summary
        writesWiFi = settings.wifi != nil
        writesSSHKeys = !settings.sshKeys.isEmpty
    }

    /// `/etc/hosts` with the host's own line (127.0.1.1, Debian's) naming `hostname`; the others kept.
    static func hosts(_ current: String?, hostname: String) -> String {
        let own = "127.0.1.1\t\(hostname)"
        guard let current, !current.isEmpty else {
            return "127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n\(own)\n"
        }
        var lines = current.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        if let index = lines.firstIndex(where: { $0.hasPrefix("127.0.1.1") && ($0.dropFirst(9).first?.isWhitespace ?? false) }) {
            lines[index] = own
        } else {
            lines.append(own)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// wpa_supplicant's configuration for wlan0 (systemd-networkd's `wpa_supplicant@wlan0`): the
    /// network's 256-bit key, not the passphrase.
    static func wpaSupplicant(country: String?, wifi: FirstBootWiFi) -> String {
        let bytes = Array(wifi.ssid.utf8)
        let plain = bytes.allSatisfy { $0 >= 0x20 && $0 <= 0x7E && $0 != UInt8(ascii: "\"") }
        let ssid = plain ? "\"\(wifi.ssid)\"" : WPAPassphrase.hex(bytes)
        return """
            # Written by chronoception first-boot apply from chronoception.txt on the boot partition: the
            # network's key (WPA2's PBKDF2 of the passphrase), never the passphrase itself.
            ctrl_interface=DIR=/run/wpa_supplicant GROUP=netdev
            \(country.map { "country=\($0)\n" } ?? "")
            network={
            \tssid=\(ssid)
            \tscan_ssid=1
            \tkey_mgmt=WPA-PSK
            \tpsk=\(wifi.pskHex)
            }

            """
    }

    /// `authorized_keys` with each key not yet in it appended (a key already there, by type and
    /// blob, is not added twice; nothing there is removed).
    static func authorizedKeys(_ current: String?, adding keys: [SSHPublicKey]) -> String {
        var text = current ?? ""
        if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
        let present = Set(text.split(separator: "\n").map { line -> String in
            let words = line.split(separator: " ")
            return words.count >= 2 ? "\(words[0]) \(words[1])" : String(line)
        })
        for key in keys where !present.contains("\(key.type) \(key.blob)") { text += key.line + "\n" }
        return text
    }

    /// sshd's drop-in: keys only, whoever logs in, and the keys first boot writes under /etc.
    static let sshdConfig = """
        # Written by chronoception first-boot apply: SSH with keys only (docs/FIRST-BOOT.md).
        PasswordAuthentication no
        KbdInteractiveAuthentication no
        PermitRootLogin prohibit-password
        AuthorizedKeysFile .ssh/authorized_keys /etc/ssh/authorized_keys/%u

        """

    /// `text` (a shell-style environment file) with `NAME=value`: its first line for NAME replaced,
    /// else appended after `comment`.
    static func setting(_ name: String, to value: String, in text: String, comment: String? = nil) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        if let index = lines.firstIndex(where: { $0.hasPrefix(name + "=") }) {
            lines[index] = "\(name)=\(value)"
        } else {
            if let comment { lines.append(comment) }
            lines.append("\(name)=\(value)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
