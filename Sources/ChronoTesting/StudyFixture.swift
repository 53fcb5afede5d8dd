import ChronoCore
import ChronoSync
import Foundation

/// A small protocol for the device's study tests: 3 days × 2 sessions, a Challenge block with
/// feedback, then a withheld block revealed at its end, then one withheld for good; at least 60
/// minutes between sessions. Intervals are whole seconds (10 s), so a session ends quickly.
public enum StudyFixture {
    public static let protocolText = """
        {
          "name": "sleep-2026",
          "version": 1,
          "schedule": { "sessions_per_day": 2, "days": 3, "minimum_gap_minutes": 60 },
          "blocks": [
            { "name": "baseline", "mode": "challenge", "sessions": 2, "interval": "10s", "attempts": 2 },
            { "name": "blind", "condition": "no-feedback", "mode": "challenge", "sessions": 2, "interval": "10s",
              "attempts": 2, "feedback": "withheld" },
            { "name": "sealed", "mode": "challenge", "sessions": 2, "interval": "10s", "attempts": 1,
              "feedback": "withheld", "reveal_at_block_end": false }
          ]
        }
        """

    /// 2026-11-20 00:00 UTC: study day 0 begins.
    public static let startUnixNanoseconds: Int64 = 1_795_132_800_000_000_000

    /// The fixture's assignment for participant P017 (index 0, seed 7).
    public static var assignment: StudyAssignment {
        StudyAssignment(studyProtocol: try! StudyProtocol.parse(protocolText), participant: "P017", participantIndex: 0, seed: 7,
                        startUnixNanoseconds: startUnixNanoseconds)
    }
}

extension StudyFixture {
    /// The fixture's assignment as a collector's receipt carries it.
    public static var synced: SyncedStudyAssignment {
        SyncedStudyAssignment(assignment, document: protocolText)
    }
}

extension StudyFixture {
    /// The consent text of `consentProtocolText`.
    public static let consentText = "I agree to take part. Results of two blocks are not shown to me."

    /// The fixture's protocol with a description and a consent text: its sessions wait for the
    /// person's acceptance (`StudyConsent`).
    public static var consentProtocolText: String {
        protocolText.replacingOccurrences(of: "\"version\": 1,", with: """
            "version": 1,
              "description": "Two sessions a day for three days; feedback is withheld in the last two blocks.",
              "consent": "\(consentText)",
            """)
    }

    /// The assignment of `consentProtocolText` as a collector's receipt carries it.
    public static var syncedWithConsent: SyncedStudyAssignment {
        let assignment = StudyAssignment(studyProtocol: try! StudyProtocol.parse(consentProtocolText), participant: "P017", participantIndex: 0,
                                         seed: 7, startUnixNanoseconds: startUnixNanoseconds)
        return SyncedStudyAssignment(assignment, document: consentProtocolText)
    }
}
