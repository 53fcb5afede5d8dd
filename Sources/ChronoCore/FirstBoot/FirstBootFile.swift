/// The first-boot file (`chronoception.txt` on the boot partition, docs/FIRST-BOOT.md): its one
/// reader and validator, and the rewrite that takes the secrets out of it once applied.
///
/// The file is written on any computer, so the reader takes what editors make of it: a UTF-8 byte
/// order mark, Windows (CRLF) or old Mac (CR) line ends, spaces or tabs around `=`, trailing spaces,
/// `Key-Name` for `key_name`. A line is blank, a comment (`#` first), or `key = value`; the value
/// runs to the end of the line (a `#` inside it is part of it: passphrases hold them), and double
/// quotes around it keep spaces at its ends. An empty value is no value (the template's lines).
///
/// One bad value never throws the rest away: every valid value is in the settings, every bad one is
/// a problem naming its line, key, what is wrong and what to write.
public enum FirstBootFile {
    /// The file's name on the boot partition.
    public static let name = "chronoception.txt"

    /// What the reader needs to know of the system the file is for.
    public struct Context: Sendable {
        /// The board names the device knows (its built-in and installed board files).
        public var boardNames: [String]
        /// The time zones under the system's zoneinfo (`Europe/London`, `UTC` …); empty when it has none.
        public var timezoneNames: [String]

        public init(boardNames: [String], timezoneNames: [String]) {
            self.boardNames = boardNames
            self.timezoneNames = timezoneNames
        }
    }

    /// A line holding a secret with a value (or the lines of a private key pasted in): where it is,
    /// the key, and whether the value is applied (a Wi-Fi passphrase only when the network's name is
    /// valid too; a lookalike or a private key never).
    public struct SecretLine: Equatable, Sendable {
        public var line: Int
        /// The last line it spans: a pasted private key runs over several, anything else is one.
        public var lastLine: Int
        /// The secret key the line sets; nil for a key that only looks like a secret's (`password`,
        /// `psk`, `wifi_passphrse`) and for a private key pasted in on lines of its own.
        public var key: FirstBootKey?
        /// What the report calls it: the key, the key as written (quoted), or "a private key".
        public var name: String
        public var valid: Bool

        public init(line: Int, key: FirstBootKey, valid: Bool) {
            self.init(line: line, lastLine: line, key: key, name: key.rawValue, valid: valid)
        }

        public init(line: Int, lastLine: Int, key: FirstBootKey?, name: String, valid: Bool) {
            self.line = line
            self.lastLine = lastLine
            self.key = key
            self.name = name
            self.valid = valid
        }
    }

    /// What becomes of a secret's line on the card.
    public enum SecretOutcome: Equatable, Sendable {
        /// Applied: the line becomes the key's applied comment.
        case applied
        /// Refused: the line becomes the key's refused comment with the reason.
        case refused(reason: String)
    }

    /// The file read: the settings, the problems in line order (then those of the file as a whole),
    /// and the secret lines (with the refused comments of earlier runs, which are not applied).
    public struct Reading: Equatable, Sendable {
        public var settings = FirstBootSettings()
        public var problems: [FirstBootProblem] = []
        public var secretLines: [SecretLine] = []
    }

    /// Reads `text` (already decoded; bytes that were not UTF-8 show as U+FFFD and are reported).
    public static func read(_ text: String, context: Context) -> Reading {
        var reading = Reading()
        var firstLine: [FirstBootKey: Int] = [:]
        var wifiCountryGiven = false
        var ssidLine: Int?, ssidValue: String?
        var passphraseLine: Int?, credential: FirstBootWiFi.Credential?
        var refusedEarlier: [(line: Int, lastLine: Int, key: FirstBootKey?, name: String, reason: String)] = []
        let allLines = lines(of: text)
        let privateKeys = privateKeyBlocks(allLines.map(\.content))
        var insidePrivateKey = 0
        for (index, line) in allLines.enumerated() {
            let number = index + 1
            // A private key pasted in is one secret: its lines are never read as settings or quoted.
            if let last = privateKeys[index] {
                insidePrivateKey = last + 1
                let key = secretKey(of: line.content)
                let span = last == index ? "" : " (lines \(number)-\(last + 1))"
                let message = key == .sshKey
                    ? "ssh_key is a PRIVATE key\(span): never put it on the card; give the public one (the line in the .pub file beside it) and make a new key pair, since this one was exposed"
                    : "a PRIVATE key is pasted here\(span): it is removed from the card; never put it there: give the public one (the line in the .pub file beside it) as ssh_key, and make a new key pair, since this one was exposed"
                reading.problems.append(FirstBootProblem(line: number, key: key?.rawValue, message: message))
                reading.secretLines.append(SecretLine(line: number, lastLine: last + 1, key: key, name: key?.rawValue ?? "a private key", valid: false))
                continue
            }
            if index < insidePrivateKey { continue }
            let trimmed = withoutByteOrderMark(line.content).trimmingWhitespace
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("#") {
                if trimmed.hasPrefix(FirstBootKey.wifiPassphrase.appliedComment) { reading.settings.keepsEarlierWiFi = true }
                if trimmed.hasPrefix(FirstBootKey.sshKey.appliedComment) { reading.settings.keepsEarlierSSH = true }
                // A removed private key's further lines follow its first as comments of their own.
                let lastLine = number + allLines[(index + 1)...].prefix { withoutByteOrderMark($0.content).trimmingWhitespace == removedContinuationComment }.count
                for key in [FirstBootKey.wifiPassphrase, .sshKey] where trimmed.hasPrefix(key.refusedPrefix) {
                    refusedEarlier.append((number, lastLine, key, key.rawValue, String(trimmed.dropFirst(key.refusedPrefix.count))))
                }
                if let removed = removedEarlier(trimmed) {
                    refusedEarlier.append((number, lastLine, nil, removed.name, removed.reason))
                }
                continue
            }
            func problem(_ key: String?, _ message: String) {
                reading.problems.append(FirstBootProblem(line: number, key: key, message: message))
            }
            // A secret's line is removed whatever is wrong with it, and named by its key alone.
            let secret = secretKey(of: line.content)
            let lookalike = secret == nil ? lookalikeSecretKey(of: line.content) : nil
            func removed(_ key: FirstBootKey?, _ message: String) {
                problem(key?.rawValue, message)
                let name = key?.rawValue ?? TerminalSafeText.quoted(lookalike ?? "", limit: 30)
                reading.secretLines.append(SecretLine(line: number, lastLine: number, key: key, name: name, valid: false))
            }
            if trimmed.unicodeScalars.contains("\u{FFFD}") {
                let message = "holds bytes that are not UTF-8 text; save the file as UTF-8 (or plain ASCII) and write this line again"
                if secret != nil || lookalike != nil { removed(secret, message + " (it is removed from the card: it looks like a secret)") } else { problem(nil, message) }
                continue
            }
            guard let equals = trimmed.firstIndex(of: "=") else {
                if let lookalike {
                    let meant = FirstBootKey(written: lookalike) ?? meantSecret(lookalike)
                    let fix = meant.map { "write \($0.rawValue) = …" } ?? "the secrets this file takes are wifi_passphrase and ssh_key (key = value)"
                    removed(nil, "starts with \(TerminalSafeText.quoted(lookalike, limit: 30)) but is not a setting (no '='); it looks like a secret, so it is removed from the card and not applied; \(fix)")
                } else {
                    problem(nil, "\(TerminalSafeText.quoted(trimmed, limit: 30)) is not a setting; write key = value, or start the line with # for a comment")
                }
                continue
            }
            let written = String(trimmed[..<equals]).trimmingWhitespace
            let value = unquoted(String(trimmed[trimmed.index(after: equals)...]).trimmingWhitespace)
            guard !written.isEmpty else {
                problem(nil, "has no key before '='; write key = value (the keys are \(FirstBootKey.allCases.map(\.rawValue).joined(separator: ", ")))")
                continue
            }
            guard let key = FirstBootKey(written: written) else {
                let shown = "unknown key \(TerminalSafeText.quoted(written, limit: 30))"
                if lookalike != nil {
                    removed(nil, "\(shown) looks like a secret's, so its line is removed from the card and not applied; "
                        + (meantSecret(written).map { "did you mean \($0.rawValue)?" } ?? "the secrets this file takes are wifi_passphrase and ssh_key"))
                } else if let near = FirstBootKey.suggestion(for: written) {
                    problem(written, "\(shown); did you mean \(near.rawValue)?")
                } else {
                    problem(written, "\(shown); the keys are \(FirstBootKey.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                continue
            }
            if value.isEmpty { continue }
            if !key.repeats {
                if let first = firstLine[key] {
                    problem(key.rawValue, "\(key.rawValue) is given again (first on line \(first)); the value on this line is used if it is valid")
                } else {
                    firstLine[key] = number
                }
            }
            func take<Value>(_ result: Result<Value, FirstBootValues.Refusal>, _ store: (Value) -> Void) {
                switch result {
                case .success(let valid): store(valid)
                case .failure(let refusal): problem(key.rawValue, refusal.message)
                }
            }
            switch key {
            case .wifiCountry:
                wifiCountryGiven = true
                take(FirstBootValues.country(value)) { reading.settings.wifiCountry = $0 }
            case .wifiSSID:
                ssidLine = number
                take(FirstBootValues.ssid(value)) { ssidValue = $0 }
            case .wifiPassphrase:
                passphraseLine = number
                take(FirstBootValues.passphrase(value)) { credential = $0 }
            case .hostname:
                take(FirstBootValues.hostname(value)) { reading.settings.hostname = $0 }
            case .board:
                take(FirstBootValues.board(value, names: context.boardNames)) { reading.settings.board = $0 }
            case .timezone:
                take(FirstBootValues.timezone(value, names: context.timezoneNames)) { reading.settings.timezone = $0 }
            case .companionNetwork:
                take(FirstBootValues.onOff(value, key: key)) { reading.settings.companionNetwork = $0 }
            case .sshKey:
                switch SSHPublicKey.parse(value) {
                case .success(let sshKey):
                    if !reading.settings.sshKeys.contains(where: { $0.type == sshKey.type && $0.blob == sshKey.blob }) {
                        reading.settings.sshKeys.append(sshKey)
                    }
                    reading.secretLines.append(SecretLine(line: number, key: .sshKey, valid: true))
                case .failure(let refusal):
                    problem(key.rawValue, "ssh_key \(refusal.reason)")
                    reading.secretLines.append(SecretLine(line: number, key: .sshKey, valid: false))
                }
            }
        }
        // Wi-Fi needs its name and its passphrase together; the country only narrows the channels.
        if let ssidValue, let credential {
            reading.settings.wifi = FirstBootWiFi(ssid: ssidValue, credential: credential)
            if !wifiCountryGiven {
                reading.problems.append(FirstBootProblem(line: nil, key: FirstBootKey.wifiCountry.rawValue,
                    message: "wifi_country is missing: Wi-Fi keeps to the channels allowed everywhere and may not see your network; add wifi_country = your country's two letters (GB, US, DE …)"))
            }
        } else if let ssidLine, passphraseLine == nil, !reading.settings.keepsEarlierWiFi,
                  !refusedEarlier.contains(where: { $0.key == .wifiPassphrase }) {
            reading.problems.append(FirstBootProblem(line: ssidLine, key: FirstBootKey.wifiPassphrase.rawValue,
                message: "wifi_ssid has no wifi_passphrase, so Wi-Fi is not set up; add the line wifi_passphrase = your Wi-Fi password (open networks are not supported)"))
        } else if let passphraseLine, ssidLine == nil {
            reading.problems.append(FirstBootProblem(line: passphraseLine, key: FirstBootKey.wifiSSID.rawValue,
                message: "wifi_passphrase is given without wifi_ssid, so Wi-Fi is not set up; add the line wifi_ssid = your network's name"))
        }
        if let passphraseLine {
            reading.secretLines.append(SecretLine(line: passphraseLine, key: .wifiPassphrase, valid: reading.settings.wifi != nil))
            // A good passphrase beside a bad network name is removed too: say so on its own line.
            if reading.settings.wifi == nil, credential != nil, !reading.problems.contains(where: { $0.line == passphraseLine }) {
                reading.problems.append(FirstBootProblem(line: passphraseLine, key: FirstBootKey.wifiPassphrase.rawValue,
                    message: "wifi_passphrase is not applied because wifi_ssid is not valid (line \(ssidLine ?? 0)); write both again"))
            }
        }
        // A secret refused on an earlier run is the same problem on the same line, until a valid value
        // of its key is given again.
        // A lookalike or a private key removed earlier: until a secret the file takes is given.
        for earlier in refusedEarlier {
            let givenAgain = switch earlier.key {
            case .wifiPassphrase?: reading.settings.wifi != nil
            case .sshKey?: !reading.settings.sshKeys.isEmpty
            default: reading.settings.wifi != nil || !reading.settings.sshKeys.isEmpty || reading.settings.keepsEarlierWiFi || reading.settings.keepsEarlierSSH
            }
            guard !givenAgain else { continue }
            reading.problems.append(FirstBootProblem(line: earlier.line, key: earlier.key?.rawValue, message: earlier.reason))
            reading.secretLines.append(SecretLine(line: earlier.line, lastLine: earlier.lastLine, key: earlier.key, name: earlier.name, valid: false))
        }
        reading.secretLines.sort { $0.line < $1.line }
        // In line order, those of the whole file last; each line's in the order found.
        reading.problems = reading.problems.enumerated()
            .sorted { ($0.element.line ?? Int.max, $0.offset) < ($1.element.line ?? Int.max, $1.offset) }
            .map(\.element)
        reading.problems = capped(reading.problems)
        return reading
    }

    /// `text` with each secret line in `outcomes` replaced by its key's applied or refused comment,
    /// every other byte kept (line ends, byte order mark); nil when no line changes. A line not in
    /// `outcomes` stays (a secret whose write failed waits for the next run).
    public static func removingSecrets(from text: String, outcomes: [Int: SecretOutcome]) -> String? {
        var output = ""
        var changed = false
        let allLines = lines(of: text)
        let privateKeys = privateKeyBlocks(allLines.map(\.content))
        var index = 0
        while index < allLines.count {
            let line = allLines[index]
            let number = index + 1
            index += 1
            guard let outcome = outcomes[number] else {
                output += line.content + line.ending
                continue
            }
            let key = secretKey(of: line.content)
            let bom = number == 1 && line.content.unicodeScalars.first == "\u{FEFF}" ? "\u{FEFF}" : ""
            var ending = line.ending
            let comment: String
            if let last = privateKeys[number - 1] {
                // The whole block goes; each further line becomes a comment, so that the lines after
                // it keep their numbers (and a later run's problems are the same on the same lines).
                let reason: String = if case .refused(let reason) = outcome { reason } else { "a PRIVATE key was pasted here" }
                comment = key.map { $0.refusedComment(reason: reason) } ?? removedComment(name: "a private key", reason: reason)
                ending = line.ending + allLines[index..<(last + 1)].map { removedContinuationComment + $0.ending }.joined()
                index = last + 1
            } else if let key {
                switch outcome {
                case .applied: comment = key.appliedComment
                case .refused(let reason): comment = key.refusedComment(reason: reason)
                }
            } else if let written = lookalikeSecretKey(of: line.content) {
                let reason: String = if case .refused(let reason) = outcome { reason } else { "its key looks like a secret's" }
                comment = removedComment(name: TerminalSafeText.quoted(written, limit: 30), reason: reason)
            } else {
                output += line.content + line.ending
                continue
            }
            output += bom + comment + ending
            changed = true
        }
        return changed ? output : nil
    }

    /// The secret key a line sets with a value, if it does.
    static func secretKey(of content: String) -> FirstBootKey? {
        let trimmed = withoutByteOrderMark(content).trimmingWhitespace
        guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "="),
              let key = FirstBootKey(written: String(trimmed[..<equals]).trimmingWhitespace), key.isSecret,
              !String(trimmed[trimmed.index(after: equals)...]).trimmingWhitespace.isEmpty else { return nil }
        return key
    }

    /// `content` without a leading byte order mark (U+FEFF, which Windows editors put first and
    /// `trimmingWhitespace` does not count as space).
    static func withoutByteOrderMark(_ content: String) -> String {
        content.unicodeScalars.first == "\u{FEFF}" ? String(content.unicodeScalars.dropFirst()) : content
    }

    /// The lines of `text` with their ends (CRLF, LF or CR; "" for a last line without one); a byte
    /// order mark stays in the first line's content, so the rewrite keeps every byte it does not change.
    static func lines(of text: String) -> [(content: String, ending: String)] {
        var result: [(content: String, ending: String)] = []
        var content = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            switch scalar {
            case "\r":
                if pending == "\n" {
                    pending = scalars.next()
                    result.append((String(content), "\r\n"))
                } else {
                    result.append((String(content), "\r"))
                }
                content = String.UnicodeScalarView()
            case "\n":
                result.append((String(content), "\n"))
                content = String.UnicodeScalarView()
            default:
                content.append(scalar)
            }
        }
        if !content.isEmpty { result.append((String(content), "")) }
        return result
    }

    /// A value in double quotes without them (so its ends may be spaces).
    static func unquoted(_ value: String) -> String {
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return value }
        return String(value.dropFirst().dropLast())
    }
}
