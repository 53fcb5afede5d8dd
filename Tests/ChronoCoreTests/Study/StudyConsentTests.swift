import ChronoCore
import Testing

/// `StudyConsent`: where consent stands for an assigned protocol and which answers the rule takes.
@Suite("Study consent")
struct StudyConsentTests {
    static let text = "I agree to take part."
    static let changedText = "I agree to take part, and to the loud sound."
    static let digest = "cdc89cfe20b83c776d0718c26fc00d719da53ac1538bdb652e77da0ced3bbe88"

    static func studyProtocol(name: String = "sleep-2026", version: Int = 1, consent: String? = text) -> StudyProtocol {
        StudyProtocol(name: name, version: version, consent: consent, blocks: [],
                      schedule: StudyProtocol.Schedule(sessionsPerDay: 1, days: 1, minimumGapMinutes: 0))
    }

    static func record(_ decision: StudyConsent.Decision, name: String = "sleep-2026", version: Int = 1, digest: String = digest) -> StudyConsent.Record {
        StudyConsent.Record(decision: decision, decidedUnixNanoseconds: 1_795_132_800_000_000_000, protocolName: name,
                            protocolVersion: version, textDigest: digest)
    }

    @Test("the digest is SHA-256 of the text's UTF-8, in lowercase hex")
    func digestOfText() {
        #expect(StudyConsent.textDigest(Self.text) == Self.digest)
        #expect(StudyConsent.textDigest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(StudyConsent.textDigest(Self.changedText) == "7d77a1916335f1811632e45b7f463456c349dc95dc59e3b2dd3fe6aaca9f2436")
    }

    @Test("a protocol without consent text needs none, whatever is kept")
    func noTextNeedsNone() {
        let bare = Self.studyProtocol(consent: nil)
        #expect(StudyConsent.standing(of: bare, record: nil) == .notNeeded)
        #expect(StudyConsent.standing(of: bare, record: Self.record(.declined)) == .notNeeded)
        #expect(StudyConsent.Standing.notNeeded.allowsStudySessions)
    }

    @Test("no decision kept: needed; a decision for this text: that decision")
    func keptDecision() {
        let studyProtocol = Self.studyProtocol()
        #expect(StudyConsent.standing(of: studyProtocol, record: nil) == .needed)
        #expect(StudyConsent.standing(of: studyProtocol, record: Self.record(.accepted)) == .accepted)
        #expect(StudyConsent.standing(of: studyProtocol, record: Self.record(.declined)) == .declined)
        #expect(StudyConsent.standing(of: studyProtocol, record: Self.record(.withdrawn)) == .withdrawn)
        #expect(StudyConsent.Standing.allCases.filter(\.allowsStudySessions) == [.notNeeded, .accepted])
        #expect(StudyConsent.Standing.allCases.filter(\.stopsStudy) == [.declined, .withdrawn])
    }

    @Test("a new version with the same text keeps the answer; a new version with a changed text asks again")
    func newVersion() {
        let accepted = Self.record(.accepted, version: 1)
        #expect(StudyConsent.standing(of: Self.studyProtocol(version: 2), record: accepted) == .accepted)
        #expect(StudyConsent.standing(of: Self.studyProtocol(version: 2, consent: Self.changedText), record: accepted) == .needed)
        // The digest decides, not the version: the same version with another text (a damaged record) asks again.
        #expect(StudyConsent.standing(of: Self.studyProtocol(version: 1), record: Self.record(.accepted, digest: String(repeating: "0", count: 64))) == .needed)
    }

    @Test("a decision for another protocol asks again")
    func anotherProtocol() {
        #expect(StudyConsent.standing(of: Self.studyProtocol(name: "noise-2027"), record: Self.record(.accepted)) == .needed)
    }

    @Test("accept and decline answer a needed consent; withdraw takes back an accepted one; anything else is refused with the reason")
    func decisions() throws {
        let studyProtocol = Self.studyProtocol(version: 3)
        let now: Int64 = 1_795_200_000_000_000_000
        let accepted = try StudyConsent.decide(.accepted, for: studyProtocol, current: nil, atUnixNanoseconds: now).get()
        #expect(accepted == StudyConsent.Record(decision: .accepted, decidedUnixNanoseconds: now, protocolName: "sleep-2026",
                                                protocolVersion: 3, textDigest: Self.digest))
        #expect(try StudyConsent.decide(.declined, for: studyProtocol, current: nil, atUnixNanoseconds: now).get().decision == .declined)
        let withdrawn = try StudyConsent.decide(.withdrawn, for: studyProtocol, current: accepted, atUnixNanoseconds: now + 1).get()
        #expect(withdrawn.decision == .withdrawn && withdrawn.decidedUnixNanoseconds == now + 1 && withdrawn.textDigest == Self.digest)

        func refusal(_ decision: StudyConsent.Decision, _ current: StudyConsent.Record?, _ on: StudyProtocol = studyProtocol) -> StudyConsent.ConsentRefusal? {
            if case .failure(let refusal) = StudyConsent.decide(decision, for: on, current: current, atUnixNanoseconds: now) { return refusal }
            return nil
        }
        #expect(refusal(.withdrawn, nil)?.message == "Consent has not been given yet: accept or decline it instead.")
        #expect(refusal(.accepted, accepted)?.message == "Consent was already answered (accepted); withdraw it in Settings to stop the study.")
        #expect(refusal(.accepted, withdrawn)?.standing == .withdrawn)
        #expect(refusal(.withdrawn, withdrawn)?.message == "Consent is already withdrawn: there is nothing to withdraw.")
        #expect(refusal(.accepted, nil, Self.studyProtocol(consent: nil))?.message == "This study asks for no consent: its protocol has no consent text.")
    }
}
