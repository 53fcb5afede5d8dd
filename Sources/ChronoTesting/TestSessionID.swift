/// A readable session id for tests: the store, `import` and the collector accept only canonical UUIDs
/// (SessionValidation's rule session_id), so a test names its sessions by a short label and stores
/// `sid(label)`: the label's ASCII in hex at the end of a fixed upper-case UUID, deterministic and
/// distinct per label ("S1" → "00000000-0000-4000-8000-000000005331").
public func sid(_ label: String) -> String {
    let bytes = Array(label.utf8)
    precondition((1...6).contains(bytes.count) && bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F },
                  "a test session label is 1 to 6 printable ASCII characters, not \(label)")
    let digits = Array("0123456789ABCDEF")
    let hex = bytes.map { "\(digits[Int($0 >> 4)])\(digits[Int($0 & 0x0F)])" }.joined()
    return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex
}
