/// The keys of the first-boot file (`chronoception.txt` on a Raspberry Pi image's boot partition,
/// docs/FIRST-BOOT.md), as written there. A key is read without case and with `-` as `_`
/// (`WiFi-SSID` is `wifi_ssid`); anything else is an unknown key, reported with the nearest one.
public enum FirstBootKey: String, CaseIterable, Sendable {
    case wifiCountry = "wifi_country"
    case wifiSSID = "wifi_ssid"
    case wifiPassphrase = "wifi_passphrase"
    case hostname
    case board
    case timezone
    case sshKey = "ssh_key"
    case companionNetwork = "companion_network"

    /// Values that must not stay on the boot partition (readable by any computer the card is put in)
    /// once applied: the Wi-Fi passphrase, and the SSH keys that say who may log in.
    public var isSecret: Bool { self == .wifiPassphrase || self == .sshKey }

    /// Keys that may be given on several lines, each adding one value (one SSH key a line).
    public var repeats: Bool { self == .sshKey }

    /// The comment an applied secret's line becomes: its presence tells later runs that what the
    /// line set is in place and must be kept, not undone for want of the value.
    public var appliedComment: String { "# \(rawValue): applied on first boot, removed" }

    /// The start of the comment a refused secret's line becomes: removed all the same (it may be a
    /// real secret with a typo), with the reason after it, so the person reading the card sees what to
    /// fix and later runs report the same problem on the same line.
    public var refusedPrefix: String { "# \(rawValue): not applied, removed; write it again: " }

    /// The comment a refused secret's line becomes.
    public func refusedComment(reason: String) -> String { refusedPrefix + reason }

    /// The key a written name stands for: without case, `-` read as `_`.
    public init?(written: String) {
        self.init(rawValue: Self.normalized(written))
    }

    static func normalized(_ name: String) -> String {
        String(name.lowercased().map { $0 == "-" || $0 == " " ? "_" : $0 })
    }

    /// Names people write for a key (from other images' files and habit), for "did you mean".
    static let aliases: [String: FirstBootKey] = [
        "ssid": .wifiSSID, "network": .wifiSSID, "wifi_name": .wifiSSID, "wifi_network": .wifiSSID,
        "password": .wifiPassphrase, "passphrase": .wifiPassphrase, "psk": .wifiPassphrase,
        "wifi_password": .wifiPassphrase, "wifi_psk": .wifiPassphrase, "wifi_key": .wifiPassphrase,
        "country": .wifiCountry, "wifi_country_code": .wifiCountry, "country_code": .wifiCountry,
        "host": .hostname, "host_name": .hostname, "name": .hostname,
        "tz": .timezone, "time_zone": .timezone, "zone": .timezone,
        "ssh": .sshKey, "ssh_public_key": .sshKey, "ssh_keys": .sshKey, "authorized_key": .sshKey,
        "authorized_keys": .sshKey, "public_key": .sshKey,
        "companion": .companionNetwork, "companion_on_network": .companionNetwork, "network_companion": .companionNetwork,
    ]

    /// The key a mistyped name most likely means: an alias, else a key it is part of (or that is part
    /// of it), else the key within three edits.
    public static func suggestion(for written: String) -> FirstBootKey? {
        let name = normalized(written)
        if let alias = aliases[name] { return alias }
        if name.count >= 3, let containing = allCases.first(where: { $0.rawValue.contains(name) || name.contains($0.rawValue) }) {
            return containing
        }
        return EditDistance.nearest(to: name, in: allCases.map(\.rawValue), within: 3).flatMap(FirstBootKey.init(rawValue:))
    }
}

/// Levenshtein distance, for "did you mean" answers in the first-boot file (keys, boards, time
/// zones).
public enum EditDistance {
    /// The fewest single-character insertions, deletions and substitutions from `a` to `b`.
    public static func between(_ a: String, _ b: String) -> Int {
        let source = Array(a), target = Array(b)
        if source.isEmpty { return target.count }
        if target.isEmpty { return source.count }
        var previous = Array(0...target.count)
        var current = previous
        for (row, character) in source.enumerated() {
            current[0] = row + 1
            for column in 1...target.count {
                let substitution = previous[column - 1] + (character == target[column - 1] ? 0 : 1)
                current[column] = min(substitution, previous[column] + 1, current[column - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[target.count]
    }

    /// The candidate closest to `word` (compared without case) when at most `limit` edits away;
    /// the first in `candidates`' order on a tie.
    public static func nearest(to word: String, in candidates: [String], within limit: Int) -> String? {
        let wanted = word.lowercased()
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = between(wanted, candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.name
    }
}
