import ArgumentParser
import ChronoCommandLine
import ChronoCore
import ChronoDevice
import ChronoStore

/// `chronoception export csv|health`: the user's data, out (SPEC §9). Nothing leaves the machine
/// otherwise.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export sessions as CSV, or health records as JSON Lines or Apple Health XML.",
        subcommands: [CSV.self, Health.self])

    struct CSV: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "csv",
            abstract: "One row per attempt or Passive boundary, with its session's fields (columns: docs/STORE.md).")
        @OptionGroup var store: StoreOptions
        @OptionGroup var filters: SessionFilterOptions
        @Option(help: "Sessions started in the last N days (1 to 36500; default 90, or every day when --from or --to is given).") var days: Int?
        @Flag(help: "Every session, whenever it was.") var all = false
        @Option(name: .shortAndLong, help: "Write to this file instead of standard output.") var output: String?

        static let daysRange = 1...36_500

        func validate() throws {
            if let days { try BoundedNumber.check(days, in: Self.daysRange, flag: "--days", unit: "days (100 years)") }
            if all && days != nil { throw ValidationError("--days and --all contradict each other: give one of them.") }
            if days != nil && (filters.from != nil || filters.to != nil) {
                throw ValidationError("--days and --from/--to both choose the days: give one of them.")
            }
        }

        func run() throws {
            try reportingFailures {
                let opened = try store.openStore()
                var text = ""
                let query = try filters.query()
                // Days named by --from/--to replace the last-90-days default.
                let window = all || query.fromDay != nil || query.toDay != nil ? nil : (days ?? 90)
                try opened.exportCSV(days: window, filters: query, nowUnixNanoseconds: LocalTimeZone.nowUnixNanoseconds()) { text += $0 }
                try writeOutput(text, to: output, protecting: try opened.ownedFiles())
            }
        }
    }

    struct Health: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "health",
            abstract: "The health record of every completed session, as JSON Lines or an Apple Health export.xml.")
        enum Format: String, ExpressibleByArgument, CaseIterable {
            case jsonl
            case appleXML = "apple-xml"
        }
        @OptionGroup var store: StoreOptions
        @Option(help: "jsonl or apple-xml.") var format: Format = .jsonl
        @Option(name: .shortAndLong, help: "Write to this file instead of standard output.") var output: String?

        func run() throws {
            try reportingFailures {
                let opened = try store.openStore()
                let records = try opened.healthRecords()
                let status = try opened.healthLogStatus()
                if let note = HealthNotes.heldBack(status.owed["clock_unsynchronised", default: 0], wallClockCheck: status.wallClockCheck) {
                    printError(note + " Held records are not in this export.")
                }
                let now = LocalTimeZone.nowUnixNanoseconds()
                let owned = try opened.ownedFiles()
                switch format {
                case .jsonl:
                    try writeOutput(records.map { $0.jsonLine + "\n" }.joined(), to: output, protecting: owned)
                case .appleXML:
                    let exportDate = WallTime(unixNanoseconds: now, utcOffsetSeconds: LocalTimeZone.utcOffsetSeconds(atUnixSeconds: now / 1_000_000_000))
                    try writeOutput(AppleHealthExport.document(records: records, exportDate: exportDate), to: output, protecting: owned)
                }
            }
        }
    }
}
