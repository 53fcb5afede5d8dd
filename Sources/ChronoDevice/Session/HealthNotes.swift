import ChronoStore

/// The words every command uses about the health log's owed and held-back records, in one place.
public enum HealthNotes {
    /// "3 (2 after a write failure, 1 while logging was off)": owed records by reason, reasons that read
    /// the same merged into one part.
    public static func owedSummary(_ owed: [String: Int]) -> String {
        var byText: [(text: String, count: Int)] = []
        for (code, count) in owed.sorted(by: { $0.key < $1.key }) where count > 0 {
            let text = owedReasonText(code)
            if let index = byText.firstIndex(where: { $0.text == text }) {
                byText[index].count += count
            } else {
                byText.append((text, count))
            }
        }
        let total = byText.reduce(0) { $0 + $1.count }
        return "\(total) (\(byText.map { "\($0.count) \($0.text)" }.joined(separator: ", ")))"
    }

    /// Why owed records wait, by the ledger's reason code.
    static func owedReasonText(_ code: String) -> String {
        switch code {
        case "logging_off": return "while logging was off"
        case "logging_failing", "write_failed": return "after a write failure"
        case "clock_unsynchronised": return "held back until the wall clock is synchronised"
        // A session saved, its record not yet appended: in flight now, or left by a program that
        // stopped in between (the next session command or `run` writes those at its start).
        case "pending": return "saved, not yet in the log — the next session or `run` writes them"
        default: return code
        }
    }

    /// The hint for records held back for the wall clock, naming the setting that ends the wait on a
    /// machine whose kernel never reports a synchronised clock; nil when nothing is held.
    public static func heldBack(_ held: Int, wallClockCheck: Bool) -> String? {
        guard held > 0 else { return nil }
        let records = held == 1 ? "1 record is" : "\(held) records are"
        let hint = wallClockCheck
            ? " If this machine's clock never reports synchronised (a desktop, a container), `chronoception settings set wall-clock-check off` trusts it as it is."
            : ""
        return "\(records) held back: the wall clock was not synchronised when \(held == 1 ? "its session" : "their sessions") started.\(hint)"
    }

    /// The one line said after a session whose health record is held back for the wall clock.
    public static let sessionHeldBack = "Health log: this session's record is held back until the wall clock is synchronised (the kernel says it is not); it is written then. If this machine's clock never reports synchronised (a desktop, a container), `chronoception settings set wall-clock-check off` trusts it as it is."

    /// The state file's health text: `on`, `off`, `failing: …`, or `on (N held back: …)`.
    static func stateText(settings: StoreSettings, store: ChronoStore) -> String {
        let status = settings.healthStatus
        guard status == "on", let log = try? store.healthLogStatus(), let held = log.owed["clock_unsynchronised"], held > 0 else {
            return status
        }
        return "on (\(held) held back: the wall clock is not synchronised; `chronoception settings set wall-clock-check off` trusts it)"
    }
}
