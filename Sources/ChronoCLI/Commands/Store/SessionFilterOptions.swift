import ArgumentParser
import ChronoCore
import ChronoStore

/// `--mode`, `--interval`, `--from`, `--to` and `--study`, shared by `sessions` and `export csv`: the
/// filters of the page's Sessions search, read by the same validator as the API's query
/// (`SessionFilterText`), so a value is accepted or refused with the same sentence everywhere.
struct SessionFilterOptions: ParsableArguments {
    @Option(help: "Only this mode: \(SessionMode.listText).") var mode: String?
    @Option(help: "Only this interval, e.g. 30s, 5m, 1m30s (10s to 120m 59s).") var interval: String?
    @Option(help: "Only sessions from this local day on, YYYY-MM-DD.") var from: String?
    @Option(help: "Only sessions up to this local day, YYYY-MM-DD (inclusive).") var to: String?
    @Option(help: "Only sessions run as part of this study (its protocol's name).") var study: String?

    var text: SessionFilterText { SessionFilterText(mode: mode, interval: interval, from: from, to: to, study: study) }

    var isEmpty: Bool { text.isEmpty }

    /// The filters as the store's query (nil limit and cursor: the caller sets them); a refusal is a
    /// usage error (exit 64) in the validator's words.
    func query() throws -> SessionQuery {
        do { return try text.applied(to: SessionQuery(), names: .options) } catch { throw ValidationError(error.message) }
    }

    func validate() throws { _ = try query() }
}
