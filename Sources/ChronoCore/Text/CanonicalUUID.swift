/// A UUID as the device writes it: 8-4-4-4-12 ASCII hexadecimal digits. Anything from outside that
/// names a session (a fallback file, a sync batch, a route) is parsed into this, so ids are compared in
/// one canonical form (upper case, as `UUID().uuidString` and the simulator write them): a lower-cased
/// copy of an id is the same id, and look-alikes (fullwidth digits, which `Character.isHexDigit`
/// accepts) are refused.
public struct CanonicalUUID: Hashable, Sendable, CustomStringConvertible {
    /// The canonical text: upper case.
    public let text: String

    /// Nil unless `text` is 8-4-4-4-12 ASCII hex digits, either case.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        var canonical: [UInt8] = []
        canonical.reserveCapacity(36)
        for (position, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(position) {
                guard byte == UInt8(ascii: "-") else { return nil }
                canonical.append(byte)
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "F"): canonical.append(byte)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): canonical.append(byte - 32)
            default: return nil
            }
        }
        self.text = String(decoding: canonical, as: UTF8.self)
    }

    public var description: String { text }
}
