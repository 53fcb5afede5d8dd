import GRDB

/// The person's consent to the assigned study (docs/STUDIES.md, "Consent"), one migration registered
/// after the others:
///
/// - `study_consent`: the newest decision (`accepted`, `declined` or `withdrawn`), when it was taken
///   (wall clock), and the protocol name, version and SHA-256 of the consent text it answered
///   (`StudyConsent.textDigest`, 64 lowercase hex digits). At most one row: a later decision replaces
///   it, and `StudyConsent.standing` compares it with the assigned protocol's text, so a changed
///   text asks again. Kept when the assignment changes or goes, and by `delete-all`, as the
///   assignment is: it is what the person answered, and the collector has it too.
enum StudyConsentSchema {
    static let migrationIdentifier = "study-consent-v1"

    static func migrate(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE study_consent (
                singleton INTEGER PRIMARY KEY NOT NULL CHECK (singleton = 1),
                decision TEXT NOT NULL CHECK (decision IN ('accepted', 'declined', 'withdrawn')),
                decided_unix_ns INTEGER NOT NULL,
                protocol_name TEXT NOT NULL CHECK (protocol_name <> ''),
                protocol_version INTEGER NOT NULL CHECK (protocol_version > 0),
                text_sha256 TEXT NOT NULL CHECK (length(text_sha256) = 64)
            )
            """)
    }
}
