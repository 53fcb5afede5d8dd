/// WPA2-Personal's passphrase-to-key function (IEEE 802.11i-2004, H.4): PBKDF2 with HMAC-SHA-1, the
/// network name as the salt, 4,096 rounds, 256 bits — what `wpa_passphrase` prints as `psk=`. The
/// first-boot file's passphrase is turned into this key so only the key, never the passphrase, is
/// written to the device's root file system.
public enum WPAPassphrase {
    /// The 64 lowercase hex digits of the key for `passphrase` on the network `ssid` (its bytes as
    /// given: a network name is bytes, not text).
    public static func pskHex(passphrase: String, ssid: [UInt8]) -> String {
        hex(pbkdf2(password: Array(passphrase.utf8), salt: ssid, rounds: 4096, length: 32))
    }

    /// PBKDF2-HMAC-SHA-1 (RFC 8018, 5.2).
    public static func pbkdf2(password: [UInt8], salt: [UInt8], rounds: Int, length: Int) -> [UInt8] {
        let mac = HMACSHA1(key: password)
        var output: [UInt8] = []
        var blockIndex: UInt32 = 1
        while output.count < length {
            let indexBytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: blockIndex >> UInt32($0)) }
            var block = mac.authenticate(salt + indexBytes)
            var result = block
            for _ in 1..<max(rounds, 1) {
                block = mac.authenticate(block)
                for index in result.indices { result[index] ^= block[index] }
            }
            output += result
            blockIndex += 1
        }
        return Array(output.prefix(length))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] })
    }
}

/// HMAC-SHA-1 (RFC 2104) with the key's inner and outer pads compressed once, since PBKDF2 calls it
/// thousands of times with one key.
struct HMACSHA1 {
    private var inner = SHA1.State()
    private var outer = SHA1.State()

    init(key: [UInt8]) {
        var padded = key.count > 64 ? SHA1.digest(key) : key
        padded += [UInt8](repeating: 0, count: 64 - padded.count)
        inner.compress(padded.map { $0 ^ 0x36 }, at: 0)
        outer.compress(padded.map { $0 ^ 0x5c }, at: 0)
    }

    func authenticate(_ message: [UInt8]) -> [UInt8] {
        var state = inner
        let whole = message.count / 64 * 64
        for start in stride(from: 0, to: whole, by: 64) { state.compress(message, at: start) }
        return outer.finishing(state.finishing(Array(message[whole...])))
    }
}
