import ChronoCore
import GRDB

extension ChronoStore {
    /// The sessions whose results (error, zone, score) the device does not show at `now`: study sessions
    /// of a block that withholds feedback, until every session of the block is done or missed — or for
    /// good when the protocol says so — as the core's one rule (`ResultsWithholding`) decides from the kept
    /// assignment. A withheld session of a protocol no longer assigned stays withheld (what its
    /// protocol said is not known any more). Small: only withheld study sessions are read.
    public func withheldResultSessionIDs(nowUnixNanoseconds now: Int64) throws(StoreError) -> Set<String> {
        let rows = try read { db in try Row.fetchAll(db, sql: "SELECT * FROM session_study WHERE feedback_shown = 0") }
        guard !rows.isEmpty else { return [] }
        let standing: StudyStanding? = try studyAssignment().map { kept throws(StoreError) in
            let plan = kept.assignment
            let done = try completedStudySessions(protocolName: plan.studyProtocol.name, protocolVersion: plan.studyProtocol.version,
                                                  participant: plan.participant)
            return StudyStanding(assignment: plan, completions: done.map(\.completion))
        }
        var withheld: Set<String> = []
        for row in rows {
            let tag = Self.studyTag(row)
            if ResultsWithholding.withheld(tag: tag, standing: standing, atUnixNanoseconds: now) { withheld.insert(row["session_id"]) }
        }
        return withheld
    }
}
