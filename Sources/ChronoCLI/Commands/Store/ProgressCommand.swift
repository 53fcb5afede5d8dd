import ArgumentParser
import ChronoCore
import ChronoStore

/// `chronoception progress`: per interval typical error, trend, Time Acuity and zones; mode mix;
/// recent sessions; a day-by-day sparkline (SPEC §5). Words and layout live in `ProgressText`.
struct ProgressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "progress", abstract: "Show your progress per interval.")
    @OptionGroup var store: StoreOptions
    @Option(help: "Only this interval, e.g. 5m or 90.", transform: parseInterval) var interval: TrainingInterval?
    @Flag(help: "Machine-readable output.") var json = false

    func run() throws {
        try reportingFailures {
            let opened = try store.openStore()
            let now = LocalTimeZone.nowUnixNanoseconds()
            let report = try opened.progress(nowUnixNanoseconds: now, utcOffsetSeconds: LocalTimeZone.utcOffsetSeconds(atUnixSeconds: now / 1_000_000_000),
                                             only: interval)
            print(json ? report.json.prettyText : ProgressText.render(report), terminator: json ? "\n" : "")
        }
    }
}

/// `chronoception sessions`: the latest sessions of every status, newest first, found by the page's
/// filters (mode, interval, days, study).
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sessions", abstract: "List recent sessions, or find them by mode, interval, day or study.")
    @OptionGroup var store: StoreOptions
    @OptionGroup var filters: SessionFilterOptions
    @Option(help: "How many sessions.") var limit: Int = 20
    @Flag(help: "Machine-readable output.") var json = false

    func validate() throws {
        try BoundedNumber.check(limit, in: 1...1_000_000, flag: "--limit", unit: "sessions")
    }

    func run() throws {
        try reportingFailures {
            var query = try filters.query()
            query.limit = limit
            let opened = try store.openStore()
            let sessions = try opened.sessionLines(query, nowUnixNanoseconds: LocalTimeZone.nowUnixNanoseconds())
            if json {
                print(JSONValue.array(sessions.map(\.json)).prettyText)
            } else if sessions.isEmpty {
                // Filters that match nothing in a store with sessions are not a first day.
                let stored = filters.isEmpty ? false : try !opened.sessionPage(SessionQuery(limit: 1)).sessions.isEmpty
                print(stored ? "No sessions match these filters. Widen the days or leave a filter out; `chronoception sessions` lists every session."
                             : ProgressText.emptyState)
            } else {
                print(ProgressText.sessionTable(sessions).joined(separator: "\n"))
            }
        }
    }
}
