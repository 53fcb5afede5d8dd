/// Random secrets for keys, one-time tokens and key ids, from the kernel's CSPRNG
/// (`SystemRandomNumberGenerator` is getrandom(2) on Linux). Public for the collector's device keys.
public enum Secrets {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// `byteCount` random bytes as URL-safe base64 without padding (safe in a cookie and a header).
    public static func token(byteCount: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        var bits = 0, accumulator: UInt32 = 0
        var text = ""
        for _ in 0..<byteCount {
            accumulator = accumulator << 8 | UInt32(UInt8.random(in: .min ... .max, using: &generator))
            bits += 8
            while bits >= 6 {
                bits -= 6
                text.append(alphabet[Int((accumulator >> UInt32(bits)) & 0x3f)])
            }
        }
        if bits > 0 { text.append(alphabet[Int((accumulator << UInt32(6 - bits)) & 0x3f)]) }
        return text
    }

    /// A new API key: a recognisable prefix and 256 random bits.
    static func apiKey() -> String { "cck_" + token(byteCount: 32) }

    /// A short public id for a key (listing and revoking), 48 random bits.
    public static func keyID() -> String { token(byteCount: 6) }

    /// Compares two secrets in time independent of where they differ.
    public static func equal(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8), right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
