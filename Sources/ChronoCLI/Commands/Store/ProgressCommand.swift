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

/// `chronoception sessions`: the latest sessions of every status, newest first.
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sessions", abstract: "List recent sessions.")
    @OptionGroup var store: StoreOptions
    @Option(help: "How many sessions.") var limit: Int = 20
    @Flag(help: "Machine-readable output.") var json = false

    func validate() throws {
        try BoundedNumber.check(limit, in: 1...1_000_000, flag: "--limit", unit: "sessions")
    }

    func run() throws {
        try reportingFailures {
            let sessions = try store.openStore().recentSessions(limit: limit)
            if json {
                print(JSONValue.array(sessions.map(\.json)).prettyText)
            } else if sessions.isEmpty {
                print(ProgressText.emptyState)
            } else {
                print(ProgressText.sessionTable(sessions).joined(separator: "\n"))
            }
        }
    }
}
