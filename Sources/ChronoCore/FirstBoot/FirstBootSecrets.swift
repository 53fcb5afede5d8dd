/// The lines of a first-boot file that hold a secret the reader does not take: a key that only looks
/// like a secret's (`password`, `psk`, `wifi_password`, `wifi_passphrse`, `api_key` …) and a private key
/// pasted in whole (`-----BEGIN … PRIVATE KEY-----` to `-----END …-----`). They are removed from the card
/// like the secrets it does take, and named without their value: a card is read by any computer it is
/// put in, and the problems go to the journal and the serial console.
extension FirstBootFile {
    /// The start of what a removed lookalike's line (or a private key's first line) becomes on the
    /// card: then the name the report gives it, and the reason (which never quotes the value). A later
    /// run reads it back as the same problem on the same line, as a refused secret's comment is.
    static let removedPrefix = "# removed from the card, not applied ("

    static func removedComment(name: String, reason: String) -> String { removedPrefix + name + "): " + reason }

    /// What each further line of a removed private key becomes: one comment a line, so the lines
    /// after the block keep their numbers.
    static let removedContinuationComment = "# removed from the card: part of the private key above"

    /// The name and reason of a removed line's comment, nil for any other comment.
    static func removedEarlier(_ comment: String) -> (name: String, reason: String)? {
        guard comment.hasPrefix(removedPrefix) else { return nil }
        let rest = Array(comment.dropFirst(removedPrefix.count))
        for index in rest.indices.dropLast(2) where rest[index] == ")" && rest[index + 1] == ":" && rest[index + 2] == " " {
            return (String(rest[..<index]), String(rest[(index + 3)...]))
        }
        return nil
    }

    /// Whether a key the reader does not know names a secret: a word for one anywhere in it (`pass`
    /// covers password, passwd, passphrase), `key` or `pin` as a word of it, or a misspelling of the
    /// secrets' own keys.
    static func looksLikeSecret(_ written: String) -> Bool {
        let name = FirstBootKey.normalized(written)
        let letters = String(name.filter { $0.isLetter })
        for word in ["pass", "pwd", "psk", "secret", "token", "private", "credential", "wpa"] where letters.contains(word) { return true }
        let words = name.split { !$0.isLetter }.map(String.init)
        if words.contains(where: { ["key", "keys", "pw", "pin", "auth", "wep"].contains($0) }) { return true }
        for secret in ["wifi_passphrase", "passphrase", "password", "ssh_key"] {
            if EditDistance.between(name, secret) <= max(1, secret.count / 4) { return true }
        }
        return false
    }

    /// The secret a lookalike key most likely meant: the nearest key when that is a secret's, else
    /// the Wi-Fi passphrase for a word of a password's, SSH for `ssh`; nil when nothing says.
    static func meantSecret(_ written: String) -> FirstBootKey? {
        if let near = FirstBootKey.suggestion(for: written), near.isSecret { return near }
        let letters = String(FirstBootKey.normalized(written).filter { $0.isLetter })
        if ["pass", "pwd", "psk", "wpa", "wep", "wifi"].contains(where: { letters.contains($0) }) { return .wifiPassphrase }
        if letters.contains("ssh") { return .sshKey }
        return nil
    }

    /// The key of a line that writes a value under a key looking like a secret's, when the reader does
    /// not take it: an unknown key before `=`, or (a line with no `=`) its first word when that is a
    /// secret's key or looks like one (`wifi_passphrase: …`, `password hunter2`). Nil for comments, blank
    /// lines, lines without a value, and the keys the reader takes.
    static func lookalikeSecretKey(of content: String) -> String? {
        let trimmed = withoutByteOrderMark(content).trimmingWhitespace
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return nil }
        if let equals = trimmed.firstIndex(of: "=") {
            let written = String(trimmed[..<equals]).trimmingWhitespace
            let value = String(trimmed[trimmed.index(after: equals)...]).trimmingWhitespace
            guard !written.isEmpty, !value.isEmpty, FirstBootKey(written: written) == nil, looksLikeSecret(written) else { return nil }
            return written
        }
        // The words before a colon (`WiFi Password: …`), else the first word (`password hunter2`).
        let beforeColon = trimmed.firstIndex(of: ":").map { String(trimmed[..<$0]).trimmingWhitespace }
        let word = String(trimmed.prefix { $0 != ":" && !$0.isWhitespace })
        for candidate in [beforeColon, word].compactMap({ $0 }) where !candidate.isEmpty && candidate.count <= 40 {
            let rest = trimmed.dropFirst(candidate.count).drop { $0 == ":" || $0.isWhitespace }
            guard !rest.isEmpty else { continue }
            if let key = FirstBootKey(written: candidate) {
                if key.isSecret { return candidate }
            } else if looksLikeSecret(candidate) {
                return candidate
            }
        }
        return nil
    }

    /// The pasted private keys among `contents` (the lines, without their ends): the index of each
    /// block's first line to that of its last. A block starts at a line holding `-----BEGIN` and
    /// `PRIVATE KEY` and ends at the line holding `-----END`; cut short (no end line), it runs over the
    /// lines that can be a key's (base64, PEM headers, blank lines between them) and stops before the
    /// first that cannot, or that sets a key the reader takes.
    static func privateKeyBlocks(_ contents: [String]) -> [Int: Int] {
        var blocks: [Int: Int] = [:]
        var index = 0
        while index < contents.count {
            let line = contents[index]
            guard let afterBegin = text(after: "-----BEGIN", in: line), line.contains("PRIVATE KEY") else { index += 1; continue }
            var end = index
            if !afterBegin.contains("-----END") {
                var next = index + 1
                while next < contents.count {
                    let text = withoutByteOrderMark(contents[next]).trimmingWhitespace
                    if text.contains("-----END") { end = next; break }
                    guard text.isEmpty || isKeyBody(text) else { break }
                    if !text.isEmpty { end = next }
                    next += 1
                }
            }
            blocks[index] = end
            index = end + 1
        }
        return blocks
    }

    /// What follows the first `marker` in `line`, nil when it has none.
    private static func text(after marker: String, in line: String) -> Substring? {
        let target = Array(marker.unicodeScalars)
        let scalars = line.unicodeScalars
        var start = scalars.startIndex
        while start != scalars.endIndex {
            var position = start, matched = 0
            while matched < target.count, position != scalars.endIndex, scalars[position] == target[matched] {
                position = scalars.index(after: position)
                matched += 1
            }
            if matched == target.count { return Substring(scalars[position...]) }
            start = scalars.index(after: start)
        }
        return nil
    }

    /// A line that can be inside a PEM block: base64 text, or one of its headers.
    private static func isKeyBody(_ text: String) -> Bool {
        if let equals = text.firstIndex(of: "="), FirstBootKey(written: String(text[..<equals]).trimmingWhitespace) != nil { return false }
        if text.hasPrefix("Proc-Type:") || text.hasPrefix("DEK-Info:") || text.hasPrefix("Comment:") { return true }
        return text.unicodeScalars.allSatisfy { scalar in
            ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "+" || scalar == "/" || scalar == "="
        }
    }
}
