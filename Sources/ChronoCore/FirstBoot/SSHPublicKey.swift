/// One OpenSSH public key line (`ssh-ed25519 AAAA… you@laptop`), checked: a type OpenSSH accepts, a
/// base64 blob that decodes and names that same type (so a line cut short or pasted from another key
/// is caught here, not at the first failed login), and an optional comment.
public struct SSHPublicKey: Equatable, Sendable {
    /// The key types accepted, as OpenSSH names them.
    public static let types = [
        "ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
        "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com",
    ]

    public var type: String
    public var blob: String
    public var comment: String

    /// The line as `authorized_keys` takes it: type, blob and comment, one space apart.
    public var line: String { comment.isEmpty ? "\(type) \(blob)" : "\(type) \(blob) \(comment)" }

    /// The key in `text`, or the reason it is none (a sentence for `FirstBootProblem`, after the key's name).
    public static func parse(_ text: String) -> Result<SSHPublicKey, SSHKeyRefusal> {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let type = words.first else { return .failure(SSHKeyRefusal("is empty")) }
        if text.contains("PRIVATE KEY") {
            return .failure(SSHKeyRefusal("is a PRIVATE key: never put it on the card; give the public one (the line in the .pub file beside it) and make a new key pair, since this one was exposed"))
        }
        guard types.contains(type) else {
            if type == "ssh-dss" { return .failure(SSHKeyRefusal("is a DSA key, which OpenSSH no longer accepts; make an Ed25519 key (ssh-keygen -t ed25519) and give its .pub line")) }
            if type.contains("=") || type.contains(",") {
                return .failure(SSHKeyRefusal("starts with options (\(TerminalSafeText.quoted(type, limit: 30))); give the key line alone: ssh-ed25519 AAAA… you@computer"))
            }
            return .failure(SSHKeyRefusal("does not start with a key type (\(types.prefix(3).joined(separator: ", ")) …); paste the whole line of your .pub file: ssh-ed25519 AAAA… you@computer"))
        }
        guard words.count >= 2 else { return .failure(SSHKeyRefusal("has the type \(type) but no key after it; paste the whole line of your .pub file")) }
        let blob = words[1]
        guard let bytes = Base64.decode(blob), bytes.count > 4 else {
            return .failure(SSHKeyRefusal("has a key that is not valid base64 (cut short or changed?); paste the whole line of your .pub file again"))
        }
        let length = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard length > 0, bytes.count >= 4 + length, String(decoding: bytes[4..<(4 + length)], as: UTF8.self) == type else {
            return .failure(SSHKeyRefusal("says \(type) but its key is of another type or damaged; paste the whole line of your .pub file again"))
        }
        let comment = words.dropFirst(2).joined(separator: " ")
        return .success(SSHPublicKey(type: type, blob: blob, comment: TerminalSafeText.sanitized(comment, keepNewlines: false)))
    }
}

/// Why a line is not an SSH public key, in words that follow the key's name.
public struct SSHKeyRefusal: Error, Equatable, Sendable {
    public var reason: String
    init(_ reason: String) { self.reason = reason }
}

/// Standard base64 (RFC 4648, with padding), decoding only: the core has no Foundation.
enum Base64 {
    /// The bytes `text` encodes, or nil when it is not padded base64.
    static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard !characters.isEmpty, characters.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(characters.count / 4 * 3)
        for start in stride(from: 0, to: characters.count, by: 4) {
            var values: [UInt8] = []
            var padding = 0
            for (offset, character) in characters[start..<(start + 4)].enumerated() {
                if character == UInt8(ascii: "=") {
                    guard start + 4 == characters.count, offset >= 2 else { return nil }
                    padding += 1
                    values.append(0)
                    continue
                }
                guard padding == 0, let value = value(of: character) else { return nil }
                values.append(value)
            }
            let group = UInt32(values[0]) << 18 | UInt32(values[1]) << 12 | UInt32(values[2]) << 6 | UInt32(values[3])
            output.append(UInt8(truncatingIfNeeded: group >> 16))
            if padding < 2 { output.append(UInt8(truncatingIfNeeded: group >> 8)) }
            if padding < 1 { output.append(UInt8(truncatingIfNeeded: group)) }
        }
        return output
    }

    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
