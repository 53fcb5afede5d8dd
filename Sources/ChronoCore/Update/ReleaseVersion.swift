/// A release version as the packages and bundles carry it (`0.1.0`, `0.2.0~rc1`): what an update
/// compares to refuse a downgrade. Numbers compare as numbers (0.10.0 is newer than 0.9.0); a suffix
/// after `~` or `-` is a pre-release, older than the same version without one.
public struct ReleaseVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let numbers: [Int]
    public let suffix: String?
    public let description: String

    /// Nil unless `text` is one to four dot-separated numbers, each under 100,000, with an optional
    /// `~`/`-` suffix of letters, digits and dots (at most 64 characters in all).
    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        let cut = text.firstIndex { $0 == "~" || $0 == "-" }
        let head = cut.map { text[..<$0] } ?? Substring(text)
        let tail = cut.map { String(text[text.index(after: $0)...]) }
        let parts = head.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 5, part.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(part) else { return nil }
            numbers.append(number)
        }
        if let tail {
            guard !tail.isEmpty, tail.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") }) else { return nil }
        }
        self.numbers = numbers
        self.suffix = tail
        self.description = text
    }

    public static func < (lhs: ReleaseVersion, rhs: ReleaseVersion) -> Bool {
        let width = max(lhs.numbers.count, rhs.numbers.count)
        let left = lhs.numbers + Array(repeating: 0, count: width - lhs.numbers.count)
        let right = rhs.numbers + Array(repeating: 0, count: width - rhs.numbers.count)
        if left != right { return left.lexicographicallyPrecedes(right) }
        switch (lhs.suffix, rhs.suffix) {
        case (nil, _): return false
        case (_, nil): return true
        case (let l?, let r?): return l < r
        }
    }

    public static func == (lhs: ReleaseVersion, rhs: ReleaseVersion) -> Bool { !(lhs < rhs) && !(rhs < lhs) }

    /// Equal versions hash alike: 0.2 and 0.2.0 are one version.
    public func hash(into hasher: inout Hasher) {
        var trimmed = numbers
        while trimmed.count > 1, trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
        hasher.combine(suffix)
    }
}
