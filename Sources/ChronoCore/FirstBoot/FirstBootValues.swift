/// The rule for each first-boot value: text in, the typed value or the sentence that says what is
/// wrong and what to write (after the key's name: `wifi_country 'UK' is not a country code; use GB`).
/// Secrets are never quoted back: the report goes to the journal and the serial console.
public enum FirstBootValues {
    /// A refused value: the sentence that follows the line number.
    public struct Refusal: Error, Equatable, Sendable {
        public var message: String
        init(_ message: String) { self.message = message }
    }

    /// ISO 3166-1 alpha-2, any case in, upper case out.
    public static func country(_ text: String) -> Result<String, Refusal> {
        let code = text.uppercased()
        if CountryCodes.names[code] != nil { return .success(code) }
        let shown = "wifi_country \(TerminalSafeText.quoted(text, limit: 40))"
        if let meant = CountryCodes.commonMistakes[code] { return .failure(Refusal("\(shown) is not a country code; use \(meant)")) }
        if let meant = CountryCodes.code(forName: text) { return .failure(Refusal("\(shown) is a country's name; use its code \(meant)")) }
        return .failure(Refusal("\(shown) is not a country code; use your country's two letters of ISO 3166 (GB, US, DE, FR …)"))
    }

    /// A network name: 1 to 32 bytes of UTF-8 (802.11's limit).
    public static func ssid(_ text: String) -> Result<String, Refusal> {
        let bytes = text.utf8.count
        guard bytes <= 32 else {
            return .failure(Refusal("wifi_ssid \(TerminalSafeText.quoted(text, limit: 40)) is \(bytes) bytes long; a network name has at most 32 (check it on your phone's Wi-Fi list)"))
        }
        if let unsafe = text.unicodeScalars.first(where: TerminalSafeText.isUnsafe) {
            return .failure(Refusal("wifi_ssid holds a control character (U+\(hex(unsafe.value))); write the network's name as your phone shows it"))
        }
        return .success(text)
    }

    /// A WPA2-Personal passphrase (8 to 63 printable ASCII characters) or its key (64 hex digits).
    public static func passphrase(_ text: String) -> Result<FirstBootWiFi.Credential, Refusal> {
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value > 0x7E }) {
            return .failure(Refusal("wifi_passphrase holds a character WPA2 does not allow: only printable ASCII (letters, digits, punctuation, space); check it"))
        }
        if text.utf8.count == 64 {
            guard text.utf8.allSatisfy(isASCIIHexDigit) else {
                return .failure(Refusal("wifi_passphrase is 64 characters long: a key must be 64 hex digits (0-9, a-f), a passphrase at most 63 characters; check it"))
            }
            return .success(.key(text.lowercased()))
        }
        guard (8...63).contains(text.count) else {
            return .failure(Refusal("wifi_passphrase is \(text.count) characters long; a WPA2 passphrase has 8 to 63 characters (or is a key of 64 hex digits); check it"))
        }
        return .success(.passphrase(text))
    }

    /// A host name: one RFC 1123 label (ASCII letters, digits and hyphens, 1 to 63 bytes, no hyphen at
    /// either end), lower case out. Checked as bytes, as the kernel and the resolver see it: a
    /// combining mark, a joiner or a variation selector is a byte sequence of its own, not part of a
    /// letter (`İ` is not `i`). The device answers as NAME.local over mDNS.
    public static func hostname(_ text: String) -> Result<String, Refusal> {
        let bytes = text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        let shown = "hostname \(shownBounded(text, limit: 70))"
        if let dot = bytes.firstIndex(of: UInt8(ascii: ".")) {
            let label = String(decoding: bytes[..<dot], as: UTF8.self)
            if case .success(let fixed) = hostname(label) {
                return .failure(Refusal("\(shown) has dots; give one name without them: \(fixed) (the device answers as \(fixed).local)"))
            }
            return .failure(Refusal("\(shown) has dots; give one name of letters, digits and hyphens, such as \(FirstBootSettings.defaultHostname)"))
        }
        let allowed = bytes.allSatisfy(isHostnameByte)
        if !allowed || bytes.first == UInt8(ascii: "-") || bytes.last == UInt8(ascii: "-") {
            let fixed = suggestedLabel(text)
            let fix = fixed.isEmpty ? "such as \(FirstBootSettings.defaultHostname)" : fixed
            let what: String
            if allowed {
                what = "may not start or end with a hyphen"
            } else if let foreign = text.unicodeScalars.first(where: { !$0.isASCII }) {
                what = "may hold only letters a-z, digits and hyphens (ASCII), and holds U+\(hex(foreign.value))\(describe(foreign))"
            } else {
                what = "may hold only letters a-z, digits and hyphens"
            }
            return .failure(Refusal("\(shown) \(what); use \(fix)"))
        }
        guard bytes.count <= 63 else {
            let cut = String(decoding: bytes.prefix(63), as: UTF8.self).trimmingHyphens
            return .failure(Refusal("\(shown) is \(bytes.count) characters long; a host name has at most 63; use \(cut)"))
        }
        return .success(String(decoding: bytes, as: UTF8.self))
    }

    /// a-z, 0-9 and `-` (upper case is folded before).
    private static func isHostnameByte(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "-")
    }

    /// What a character that cannot be seen in the quote is, so the message says what to delete.
    private static func describe(_ scalar: Unicode.Scalar) -> String {
        if (0xFE00...0xFE0F).contains(scalar.value) || (0xE0100...0xE01EF).contains(scalar.value) { return ", a variation selector" }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return ", a combining mark"
        case .format: return scalar.value == 0x200D ? ", a zero-width joiner" : ", an invisible formatting character"
        default:
            return " ('\(Character(scalar))'), which is not a letter a-z"
        }
    }

    /// `text` quoted for a message, cut to `limit` Unicode scalars first: a quote counts characters,
    /// and one character can carry thousands of combining marks.
    static func shownBounded(_ text: String, limit: Int) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > limit else { return TerminalSafeText.quoted(text, limit: limit) }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars.prefix(limit))
        return TerminalSafeText.quoted(String(kept) + "…(\(text.utf8.count) bytes)", limit: limit + 20)
    }

    /// `name` as a label that is valid: ASCII letters and digits kept (lower case), the marks, joiners
    /// and selectors that ride on them dropped, every run of anything else made one hyphen, no hyphen
    /// at either end, at most 63 bytes.
    static func suggestedLabel(_ name: String) -> String {
        var label = ""
        // Lower case first: `İ` becomes `i` and a combining dot, which is dropped below.
        for scalar in name.lowercased().unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                label.unicodeScalars.append(scalar)
                continue
            }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .format: continue
            default: break
            }
            if (0xFE00...0xFE0F).contains(scalar.value) || (0xE0100...0xE01EF).contains(scalar.value) { continue }
            if !label.hasSuffix("-") { label.append("-") }
        }
        return String(label.trimmingHyphens.prefix(63)).trimmingHyphens
    }

    /// A board: `auto` (detected from the device tree) or a board file's name among `names`.
    public static func board(_ text: String, names: [String]) -> Result<FirstBootBoard, Refusal> {
        let name = text.lowercased()
        if name == "auto" { return .success(.detected) }
        if names.contains(name) { return .success(.named(name)) }
        let shown = "board \(TerminalSafeText.quoted(text, limit: 40))"
        if let near = EditDistance.nearest(to: name, in: names, within: 4) {
            return .failure(Refusal("\(shown) is not a board here; did you mean \(near)? (or auto: detected from the device tree)"))
        }
        return .failure(Refusal("\(shown) is not a board here; use one of \(names.joined(separator: ", ")), or auto (detected from the device tree)"))
    }

    /// An IANA time zone among `names` (those under the system's zoneinfo). A name in the wrong case
    /// is taken as the one it matches; a near miss is answered with it.
    public static func timezone(_ text: String, names: [String]) -> Result<String, Refusal> {
        if names.contains(text) { return .success(text) }
        let lower = text.lowercased()
        if let match = names.first(where: { $0.lowercased() == lower }) { return .success(match) }
        let shown = "timezone \(TerminalSafeText.quoted(text, limit: 40))"
        if names.isEmpty {
            return .failure(Refusal("\(shown) cannot be checked: this system has no time zone data (/usr/share/zoneinfo); the time zone is left as it is"))
        }
        if let near = EditDistance.nearest(to: text, in: names, within: 3) {
            return .failure(Refusal("\(shown) is not a time zone; did you mean \(near)?"))
        }
        return .failure(Refusal("\(shown) is not a time zone; use a Region/City name such as Europe/London or America/New_York, or UTC"))
    }

    /// on or off (also yes/no, true/false, 1/0).
    public static func onOff(_ text: String, key: FirstBootKey) -> Result<Bool, Refusal> {
        switch text.lowercased() {
        case "on", "yes", "true", "1", "enabled": return .success(true)
        case "off", "no", "false", "0", "disabled": return .success(false)
        default: return .failure(Refusal("\(key.rawValue) \(TerminalSafeText.quoted(text, limit: 40)) is neither on nor off; write on or off"))
        }
    }

    private static func isASCIIHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

extension String {
    var trimmingHyphens: String {
        var text = Substring(self)
        while text.first == "-" { text.removeFirst() }
        while text.last == "-" { text.removeLast() }
        return String(text)
    }
}
