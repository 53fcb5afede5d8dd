import ChronoCore
import GRDB

/// A session's study tag (`StudyTag`) in `session_study`: written with the session's first row (its
/// start, or its finish when no start was recorded), read back with the session, and counted by the
/// device's schedule (which plan positions are done).
extension ChronoStore {
    /// Keeps `tag` for the session, in the transaction that writes its row. A session keeps the tag it
    /// started with: a second write for the same session changes nothing.
    func writeStudyTag(_ db: Database, sessionID: String, tag: StudyTag) throws {
        try db.cachedStatement(sql: """
            INSERT INTO session_study (session_id, protocol_name, protocol_version, participant, block_index, block_name,
                plan_position, condition_label, feedback_shown)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (session_id) DO NOTHING
            """).execute(arguments: [
            sessionID, tag.protocolName, tag.protocolVersion, tag.participant, tag.blockIndex, tag.blockName,
            tag.planPosition, tag.condition, tag.feedbackShown,
        ])
    }

    /// A tag the store accepts: the core's own bounds (`StudyTag.problem`), so a damaged tag never
    /// reaches the table, the outbox or a collector.
    static func checked(_ tag: StudyTag?) throws(StoreError) -> StudyTag? {
        guard let tag else { return nil }
        if let problem = tag.problem() { throw .invalidValue("The store refused a session's study tag: \(problem).") }
        return tag
    }

    /// The tags of the sessions matching `filter` (an SQL condition on `session s`), by session id.
    func studyTags(_ db: Database, filter: String, arguments: StatementArguments) throws -> [String: StudyTag] {
        var tags: [String: StudyTag] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT * FROM session_study t WHERE t.session_id IN (SELECT s.id FROM session s WHERE \(filter))
            """, arguments: arguments)
        while let row = try rows.next() {
            let tag = Self.studyTag(row)
            // A row damaged or edited outside the store is left out rather than sent as it is.
            if tag.problem() == nil { tags[row["session_id"]] = tag }
        }
        return tags
    }

    static func studyTag(_ row: Row) -> StudyTag {
        StudyTag(protocolName: row["protocol_name"], protocolVersion: row["protocol_version"], participant: row["participant"],
                 blockIndex: row["block_index"], blockName: row["block_name"], planPosition: row["plan_position"],
                 condition: row["condition_label"], feedbackShown: row["feedback_shown"])
    }

    /// The plan positions this device has completed for one participant's protocol, with when each
    /// session ended (wall clock, Unix nanoseconds, through the session's anchor), oldest first: what
    /// the schedule counts as done (`StudySchedule.Completion`).
    /// Aborted and interrupted sessions do not count; the planned session stays due.
    public func completedStudySessions(protocolName: String, protocolVersion: Int, participant: String) throws(StoreError) -> [CompletedStudySession] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT t.plan_position, t.block_index, t.feedback_shown, s.id,
                    s.anchor_unix_ns + (s.ended_mono_ns - s.anchor_mono_ns) AS ended_unix_ns FROM session_study t
                JOIN session s ON s.id = t.session_id
                WHERE t.protocol_name = ? AND t.protocol_version = ? AND t.participant = ? AND s.status = 'completed'
                ORDER BY s.started_unix_ns, s.id
                """, arguments: [protocolName, protocolVersion, participant]).map { row in
                CompletedStudySession(sessionID: row["id"], planPosition: row["plan_position"], blockIndex: row["block_index"],
                                      feedbackShown: row["feedback_shown"], endedUnixNanoseconds: row["ended_unix_ns"])
            }
        }
    }
}

/// One completed study session as the device's schedule counts it.
public struct CompletedStudySession: Hashable, Sendable {
    public var sessionID: String
    /// Its index in the participant's plan (`StudyTag.planPosition`).
    public var planPosition: Int
    public var blockIndex: Int
    public var feedbackShown: Bool
    /// When it ended, on the wall clock (the session's anchor).
    public var endedUnixNanoseconds: Int64

    public init(sessionID: String, planPosition: Int, blockIndex: Int, feedbackShown: Bool, endedUnixNanoseconds: Int64) {
        self.sessionID = sessionID
        self.planPosition = planPosition
        self.blockIndex = blockIndex
        self.feedbackShown = feedbackShown
        self.endedUnixNanoseconds = endedUnixNanoseconds
    }

    /// As the schedule counts it.
    public var completion: StudySchedule.Completion {
        StudySchedule.Completion(position: planPosition, endedUnixNanoseconds: endedUnixNanoseconds)
    }
}
