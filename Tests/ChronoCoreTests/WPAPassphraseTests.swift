import ChronoCore
import Testing

/// SHA-1 and WPA2's passphrase-to-key function against the standards' own vectors (FIPS 180 / RFC
/// 3174, RFC 6070 for PBKDF2-HMAC-SHA-1, IEEE 802.11i-2004 H.4.2 for the network key).
@Suite("WPA2 passphrase")
struct WPAPassphraseTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test func sha1Vectors() {
        #expect(Self.hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Self.hex(SHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(Self.hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(Self.hex(SHA1.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test func pbkdf2Vectors() {
        #expect(Self.hex(WPAPassphrase.pbkdf2(password: Array("password".utf8), salt: Array("salt".utf8), rounds: 1, length: 20)) == "0c60c80f961f0e71f3a9b524af6012062fe037a6")
        #expect(Self.hex(WPAPassphrase.pbkdf2(password: Array("password".utf8), salt: Array("salt".utf8), rounds: 4096, length: 20)) == "4b007901b765489abead49d926f721d065a429c1")
        #expect(Self.hex(WPAPassphrase.pbkdf2(password: Array("passwordPASSWORDpassword".utf8), salt: Array("saltSALTsaltSALTsaltSALTsaltSALTsalt".utf8), rounds: 4096, length: 25))
            == "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038")
    }

    @Test("the network key wpa_passphrase prints (IEEE 802.11i H.4.2)")
    func networkKey() {
        #expect(WPAPassphrase.pskHex(passphrase: "password", ssid: Array("IEEE".utf8)) == "f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e")
        #expect(WPAPassphrase.pskHex(passphrase: "ThisIsAPassword", ssid: Array("ThisIsASSID".utf8)) == "0dc0d6eb90555ed6419756b9a15ec3e3209b63df707dd508d14581f8982721af")
        #expect(FirstBootWiFi(ssid: "Home Net", credential: .passphrase("correct horse")).pskHex == "bb4b86441ece5d83bfa5c94c563c6608457f85482d7bd7cad7e0ca3dcfa91591")
        #expect(FirstBootWiFi(ssid: "x", credential: .key(String(repeating: "ab", count: 32))).pskHex == String(repeating: "ab", count: 32))
    }
}
