/// The SQL of a session read, for either dialect (`?` or `$n` placeholders): the sessions newest
/// first (the caller reverses them), and their attempts and boundaries in order, by the same filter.
struct CollectorSessionFilter {
    let sessionsSQL: String
    let attemptsSQL: String
    let boundariesSQL: String
    let arguments: [CollectorValue]

    init(_ query: CollectorSessionQuery, placeholder: (Int) -> String) {
        var conditions: [String] = []
        var arguments: [CollectorValue] = []
        func next(_ value: CollectorValue) -> String {
            arguments.append(value)
            return placeholder(arguments.count)
        }
        if let device = query.device {
            let lower = device.lowercased()
            conditions.append("(d.name = \(next(.text(device))) OR d.id = \(next(.text(lower))))")
        }
        if let participant = query.participant { conditions.append("d.participant = \(next(.text(participant)))") }
        if let since = query.sinceUnixNanoseconds { conditions.append("s.started_unix_ns >= \(next(.integer(since)))") }
        if let mode = query.mode { conditions.append("s.mode = \(next(.text(mode)))") }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let limitClause = query.limit.map { " LIMIT \(max($0, 0))" } ?? ""
        let selected = "SELECT s.id FROM session s JOIN device d ON d.id = s.device_id \(whereClause) ORDER BY s.started_unix_ns DESC, s.id DESC\(limitClause)"
        sessionsSQL = """
            SELECT \(SessionRowCodec.columnList(prefix: "s.")), d.name, d.participant
            FROM session s JOIN device d ON d.id = s.device_id \(whereClause)
            ORDER BY s.started_unix_ns DESC, s.id DESC\(limitClause)
            """
        attemptsSQL = """
            SELECT a.session_id, a.attempt_index, a.start_mono_ns, a.tap_mono_ns, a.presented_start_mono_ns, a.presented_end_mono_ns FROM attempt a
            WHERE a.session_id IN (\(selected)) ORDER BY a.session_id, a.attempt_index
            """
        boundariesSQL = """
            SELECT b.session_id, b.boundary_index, b.due_mono_ns, b.fired_mono_ns FROM boundary b
            WHERE b.session_id IN (\(selected)) ORDER BY b.session_id, b.position
            """
        self.arguments = arguments
    }
}
