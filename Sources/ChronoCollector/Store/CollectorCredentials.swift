import ChronoCore
import ChronoAPI

/// One-time enrolment codes and device keys: made from the kernel's CSPRNG, stored by SHA-256 only
/// (`ChronoCore.SHA256`, the device API's own digest), compared by digest.
public enum CollectorCredentials {
    /// Crockford's base32 alphabet: no I, L, O or U, so a code read aloud or copied by hand survives.
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    /// Characters in a code: 12 × 5 = 60 random bits. With enrolment attempts rate-limited and codes
    /// expiring, guessing one is out of reach.
    public static let codeLength = 12

    /// A new code, shown in groups of four (`7K3Q-9XWD-M2PA`).
    public static func newCode() -> String {
        var generator = SystemRandomNumberGenerator()
        let characters = (0..<codeLength).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        return stride(from: 0, to: codeLength, by: 4).map { String(characters[$0..<min($0 + 4, codeLength)]) }.joined(separator: "-")
    }

    /// A code as typed, reduced to what is hashed: upper case, without dashes and spaces; the look-alike
    /// letters read as the digits they stand for (Crockford). Nil when it cannot be a code.
    public static func normalisedCode(_ text: String) -> String? {
        var result = ""
        for character in text.uppercased() {
            switch character {
            case "-", " ": continue
            case "O": result.append("0")
            case "I", "L": result.append("1")
            default:
                guard alphabet.contains(character) else { return nil }
                result.append(character)
            }
        }
        return result.count == codeLength ? result : nil
    }

    public static func codeDigest(_ code: String) -> String? {
        normalisedCode(code).map(SHA256.hex)
    }

    /// A device's key: a recognisable prefix and 256 random bits.
    public static func newDeviceKey() -> String { "ccd_" + Secrets.token(byteCount: 32) }
    /// A reader's key (the collector's API for people).
    public static func newReaderKey() -> String { "ccr_" + Secrets.token(byteCount: 32) }

    public static func keyDigest(_ key: String) -> String { SHA256.hex(key) }

    /// 8-4-4-4-12 hexadecimal digits.
    public static func isUUID(_ text: String) -> Bool {
        // ASCII hex only (the core's one UUID rule): `Character.isHexDigit` also takes fullwidth digits.
        CanonicalUUID(text) != nil
    }

    /// A device or key name: 1 to 64 printable characters, by the one text rule notes and labels
    /// use (`TerminalSafeText.isUnsafe`: no controls, line breaks or text-direction marks).
    public static func validName(_ raw: String) throws(CollectorError) -> String {
        let name = raw.trimmingWhitespace
        guard !name.isEmpty, name.count <= 64, !name.unicodeScalars.contains(where: TerminalSafeText.isUnsafe) else {
            throw .invalidValue("A name is 1 to 64 printable characters, e.g. P017 or \"Anna's Pi\"; got '\(raw)'.")
        }
        return name
    }

    /// A random UUID (version 4), for the collector's own id.
    public static func newUUID() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        bytes[6] = bytes[6] & 0x0f | 0x40
        bytes[8] = bytes[8] & 0x3f | 0x80
        let hex = bytes.map { byte in String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }.joined()
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }
}
