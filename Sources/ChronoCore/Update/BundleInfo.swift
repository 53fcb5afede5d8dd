/// What a bundle says of itself, as `rauc info --output-format=json` prints it after it has checked
/// the bundle's signature against the card's keyring: which system it is for and which version it
/// holds. RAUC's output is text from outside the process (about a file a person handed in), so it is
/// read only through `init(raucJSON:)`.
public struct BundleInfo: Hashable, Sendable {
    public let compatible: String
    public let version: ReleaseVersion

    public init(compatible: String, version: ReleaseVersion) {
        self.compatible = compatible
        self.version = version
    }

    /// The bundle `rauc info`'s JSON describes, or why it cannot be used (in words for the person who
    /// handed the bundle in).
    public init(raucJSON text: String) throws(UpdateRecord.Refusal) {
        func refuse(_ words: String) -> UpdateRecord.Refusal { UpdateRecord.Refusal(description: "The bundle \(words)") }
        guard text.utf8.count <= 1 << 20, let value = JSONValue(parsing: text), case .object = value else {
            throw refuse("could not be described (`rauc info` printed no JSON object)")
        }
        guard case .string(let compatible)? = value["compatible"], !compatible.isEmpty, compatible.count <= 128,
              compatible.unicodeScalars.allSatisfy({ !TerminalSafeText.isUnsafe($0) }) else {
            throw refuse("names no compatible system")
        }
        guard case .string(let versionText)? = value["version"] else { throw refuse("names no version") }
        guard let version = ReleaseVersion(versionText) else {
            throw refuse("has the version \(TerminalSafeText.quoted(versionText)), which is not a release version such as 0.2.0")
        }
        self.init(compatible: compatible, version: version)
    }

    /// Why this bundle is not installed on a system `compatible` running `running` (nil: it may be).
    /// RAUC refuses another compatible string itself; saying it first names the fix.
    public func refusal(compatible system: String, running: ReleaseVersion, allowDowngrade: Bool) -> String? {
        if compatible != system {
            return "The bundle is for \(TerminalSafeText.quoted(compatible)), and this card is \(TerminalSafeText.quoted(system)): use the bundle built for this card (scripts/build-image writes chronoception-VERSION-raspi-arm64.raucb)."
        }
        if version < running, !allowDowngrade {
            return "The bundle holds \(version), older than the running \(running). To go back on purpose, add --allow-downgrade."
        }
        if version == running, !allowDowngrade {
            return "The bundle holds \(version), which is already running. To install it again, add --allow-downgrade."
        }
        return nil
    }
}

/// One line of `rauc install`'s progress (`  40% Copying image to rootfs.1`): the percentage, or nil.
public enum RaucProgressLine {
    public static func percent(_ line: String) -> Int? {
        let trimmed = line.drop { $0 == " " }
        guard let sign = trimmed.firstIndex(of: "%"), trimmed.index(after: sign) == trimmed.endIndex || trimmed[trimmed.index(after: sign)] == " " else { return nil }
        let digits = trimmed[..<sign]
        guard (1...3).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits), number <= 100 else { return nil }
        return number
    }
}
