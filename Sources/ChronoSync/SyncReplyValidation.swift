import ChronoCore

/// The device's one validator for what a collector answers (docs/SYNC.md, "What the device checks
/// in a reply"): a receipt against the batch it answers, a grant on its own. A collector is outside
/// the device like any peer (a hostile one, or anyone on a plain-http path), so nothing of a reply
/// reaches the store, a sum or a later request before it passed here. The assignment in a receipt
/// has its own validator (`SyncedStudyAssignment.validated()`), whose refusal keeps the kept one.
public enum SyncReplyValidation {
    /// Stamped preferences a receipt may carry: every synced key once, with room for the keys of a
    /// newer collector (which the device ignores).
    public static let maximumPreferences = 64
    /// A preference's key: a setting's name (`default-interval`), 1 to 64 of `a`–`z`, `0`–`9`, `-`.
    public static let maximumPreferenceKeyLength = 64
    /// A preference's value in UTF-8 bytes: far above any setting's canonical text.
    public static let maximumPreferenceValueBytes = 1_024
    /// A refused session's rule and reason, in UTF-8 bytes.
    public static let maximumRuleBytes = 64
    public static let maximumReasonBytes = 1_024
    /// A device key's length: the collector's own are 47 characters (`ccd_` and 43 of base64url).
    public static let deviceKeyLengths = 8...512

    /// `receipt` when it is an answer to `batch` the device can keep: the protocol spoken, the
    /// acknowledgement the batch's own, counts that the batch can hold, clocks `PreferenceMerge`
    /// accepts, keys and values of a setting's form, refused sessions that are the batch's.
    public static func validated(_ receipt: SyncReceipt, for batch: SyncBatch) throws(SyncReplyError) -> SyncReceipt {
        let sent = batch.sessions.count
        guard receipt.acknowledgedThrough == batch.cursorThrough else {
            throw SyncReplyError("it acknowledges through \(receipt.acknowledgedThrough), not the batch's \(batch.cursorThrough)")
        }
        guard (0...sent).contains(receipt.accepted) else {
            throw SyncReplyError("it counts \(receipt.accepted) sessions accepted, outside 0…\(sent) (the batch held \(sent))")
        }
        guard (0...sent).contains(receipt.duplicates) else {
            throw SyncReplyError("it counts \(receipt.duplicates) sessions already there, outside 0…\(sent) (the batch held \(sent))")
        }
        let refused = receipt.refused ?? []
        // Each count is at most `sent` (≤ 200) by now, so the sum cannot overflow.
        guard receipt.accepted + receipt.duplicates + refused.count <= sent else {
            throw SyncReplyError("it counts \(receipt.accepted) accepted, \(receipt.duplicates) already there and \(refused.count) refused, more than the batch's \(sent) sessions")
        }
        let batchIDs = Set(batch.sessions.map(\.canonicalID))
        var refusedIDs = Set<String>()
        for session in refused {
            guard let id = CanonicalUUID(session.sessionID)?.text, batchIDs.contains(id), refusedIDs.insert(id).inserted else {
                throw SyncReplyError("it refuses session \(TerminalSafeText.quoted(session.sessionID)), which is not one of the batch's (or is named twice)")
            }
            guard isIdentifier(session.rule, maximumBytes: maximumRuleBytes, extra: "_") else {
                throw SyncReplyError("it refuses session \(id) under the rule \(TerminalSafeText.quoted(session.rule)), which is not a rule's name")
            }
            if let problem = textProblem(session.reason, maximumBytes: maximumReasonBytes) {
                throw SyncReplyError("its reason for refusing session \(id) \(problem)")
            }
        }
        guard receipt.preferences.count <= maximumPreferences else {
            throw SyncReplyError("it carries \(receipt.preferences.count) preferences, more than \(maximumPreferences)")
        }
        var keys = Set<String>()
        for preference in receipt.preferences {
            guard isIdentifier(preference.key, maximumBytes: maximumPreferenceKeyLength, extra: "-"), keys.insert(preference.key).inserted else {
                throw SyncReplyError("its preference key \(TerminalSafeText.quoted(preference.key)) is not a setting's name (or is there twice)")
            }
            guard PreferenceMerge.acceptsClock(preference.clock) else {
                throw SyncReplyError("its preference \(preference.key) has clock \(preference.clock), outside 0…\(PreferenceMerge.maximumClock)")
            }
            if let problem = textProblem(preference.value, maximumBytes: maximumPreferenceValueBytes, mayBeEmpty: true) {
                throw SyncReplyError("its preference \(preference.key)'s value \(problem)")
            }
        }
        return receipt
    }

    /// `grant` when the device can keep it: a key it can send in an `Authorization` header, the
    /// collector's UUID, a device name that is a label (`StudyNames.labelProblem`, the text rule).
    /// The protocol version is checked before, as a mismatch of its own.
    public static func validated(_ grant: EnrolmentGrant) throws(SyncReplyError) -> EnrolmentGrant {
        if let problem = deviceKeyProblem(grant.key) { throw SyncReplyError("its device key \(problem)") }
        guard CanonicalUUID(grant.collectorID) != nil else {
            throw SyncReplyError("its collector_id \(TerminalSafeText.quoted(grant.collectorID)) is not a UUID")
        }
        if let problem = StudyNames.labelProblem(grant.deviceName, what: "its device name") { throw SyncReplyError(problem) }
        return grant
    }

    /// Why `key` cannot be a device key, or nil: RFC 6750's `b64token` (letters, digits and
    /// `-._~+/`, then `=` padding only), `deviceKeyLengths` long. So no CR, LF, space or other byte
    /// can reach a request's header, and the key sent is the key received.
    public static func deviceKeyProblem(_ key: String) -> String? {
        let bytes = Array(key.utf8)
        guard deviceKeyLengths.contains(bytes.count) else {
            return "is \(bytes.count) bytes long, outside \(deviceKeyLengths.lowerBound)…\(deviceKeyLengths.upperBound)"
        }
        let body = bytes.prefix { $0 != UInt8(ascii: "=") }
        let padding = bytes.dropFirst(body.count)
        guard !body.isEmpty, body.allSatisfy(isTokenByte), padding.allSatisfy({ $0 == UInt8(ascii: "=") }) else {
            return "holds a character a bearer key cannot (only letters, digits and -._~+/ then =)"
        }
        return nil
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return "-._~+/".utf8.contains(byte)
        }
    }

    /// Lower-case ASCII letters, digits and `extra`, 1 to `maximumBytes`.
    private static func isIdentifier(_ text: String, maximumBytes: Int, extra: Character) -> Bool {
        let bytes = text.utf8
        return (1...maximumBytes).contains(bytes.count) && bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == extra.asciiValue
        }
    }

    /// Why `text` is not one line of printable text of at most `maximumBytes`, or nil: the one text
    /// rule (`TerminalSafeText.isUnsafe`, as notes and labels are checked).
    private static func textProblem(_ text: String, maximumBytes: Int, mayBeEmpty: Bool = false) -> String? {
        guard mayBeEmpty || !text.isEmpty else { return "is empty" }
        guard text.utf8.count <= maximumBytes else { return "is \(text.utf8.count) bytes long, more than \(maximumBytes)" }
        if text.unicodeScalars.contains(where: TerminalSafeText.isUnsafe) {
            return "holds a control character, a line break or a text-direction mark (\(TerminalSafeText.quoted(text)))"
        }
        return nil
    }
}

/// Why the device refused a collector's reply: what is wrong with it, as the end of a sentence
/// ("the reply … is refused: it counts 9223372036854775807 sessions accepted, …").
public struct SyncReplyError: Error, Hashable, Sendable, CustomStringConvertible {
    public var problem: String
    public init(_ problem: String) { self.problem = problem }
    public var description: String { problem }
}
