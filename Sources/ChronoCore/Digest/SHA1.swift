/// SHA-1 (FIPS 180-4), only for WPA2's passphrase-to-key function (`WPAPassphrase`): IEEE 802.11i
/// fixes PBKDF2 over HMAC-SHA-1 there, so the first-boot file's Wi-Fi passphrase is turned into the
/// 256-bit key wpa_supplicant reads without the passphrase ever reaching the root file system. Not for
/// anything that needs collision resistance. Kept beside `SHA256` (checked against the standard's
/// test vectors) rather than pulling a cryptography package into the device binary.
public enum SHA1 {
    /// The five-word chaining state, so HMAC can start from a key's pads already compressed (PBKDF2
    /// runs 8,192 of them per key).
    public struct State: Sendable, Equatable {
        var words: [UInt32] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0]
        /// Bytes already compressed, for the final length.
        var length: UInt64 = 0

        public init() {}

        /// Compresses one 64-byte block starting at `offset`.
        mutating func compress(_ block: [UInt8], at offset: Int) {
            var schedule = [UInt32](repeating: 0, count: 80)
            for index in 0..<16 {
                let start = offset + index * 4
                schedule[index] = UInt32(block[start]) << 24 | UInt32(block[start + 1]) << 16
                    | UInt32(block[start + 2]) << 8 | UInt32(block[start + 3])
            }
            for index in 16..<80 {
                schedule[index] = SHA1.rotate(schedule[index - 3] ^ schedule[index - 8] ^ schedule[index - 14] ^ schedule[index - 16], 1)
            }
            var (a, b, c, d, e) = (words[0], words[1], words[2], words[3], words[4])
            for index in 0..<80 {
                let (mix, constant): (UInt32, UInt32)
                switch index {
                case 0..<20: (mix, constant) = ((b & c) | (~b & d), 0x5A827999)
                case 20..<40: (mix, constant) = (b ^ c ^ d, 0x6ED9EBA1)
                case 40..<60: (mix, constant) = ((b & c) | (b & d) | (c & d), 0x8F1BBCDC)
                default: (mix, constant) = (b ^ c ^ d, 0xCA62C1D6)
                }
                let temp = SHA1.rotate(a, 5) &+ mix &+ e &+ constant &+ schedule[index]
                (e, d, c, b, a) = (d, c, SHA1.rotate(b, 30), a, temp)
            }
            for (index, value) in [a, b, c, d, e].enumerated() { words[index] = words[index] &+ value }
            length += 64
        }

        /// The digest of everything compressed so far followed by `tail`.
        public func finishing(_ tail: [UInt8]) -> [UInt8] {
            var state = self
            var message = tail
            let bitLength = (length + UInt64(tail.count)) * 8
            message.append(0x80)
            while message.count % 64 != 56 { message.append(0) }
            for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
            for start in stride(from: 0, to: message.count, by: 64) { state.compress(message, at: start) }
            return state.words.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
        }
    }

    /// The digest of `bytes`.
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var state = State()
        let whole = bytes.count / 64 * 64
        for start in stride(from: 0, to: whole, by: 64) { state.compress(bytes, at: start) }
        return state.finishing(Array(bytes[whole...]))
    }

    static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value << count) | (value >> (32 - count))
    }
}
