import ArgumentParser
import ChronoCommandLine
import ChronoCore
import ChronoDevice
import ChronoStore

/// `chronoception health status|enable|disable|backfill`: the health log (SPEC §4).
struct HealthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Show or change health logging, and write records that are owed.",
        subcommands: [Status.self, Enable.self, Disable.self, Backfill.self],
        defaultSubcommand: Status.self)

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show whether sessions are written to the health log (on, off, failing).")
        @OptionGroup var store: StoreOptions
        @Flag(help: "Machine-readable output.") var json = false

        func run() throws {
            try reportingFailures {
                let opened = try store.openStore()
                // Held records are written when the clock allows; a read-only store only reports.
                if opened.readOnlyReason == nil {
                    try opened.flushHeldRecords(nowUnixNanoseconds: LocalTimeZone.nowUnixNanoseconds())
                }
                let status = try opened.healthLogStatus()
                if json {
                    print(JSONValue.object([
                        ("status", .string(status.status)),
                        ("log_file", .string(status.path)),
                        ("written", .int(status.written)),
                        ("not_logged_by_rule", .int(status.skipped)),
                        ("owed", .int(status.owedTotal)),
                        ("owed_by_reason", .object(status.owed.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
                        ("wall_clock_synchronised", .bool(status.clockSynchronised)),
                        ("wall_clock_check", .bool(status.wallClockCheck)),
                    ]).prettyText)
                    return
                }
                print("Health logging: \(status.status)")
                print("Log file: \(status.path)")
                print("Records written: \(status.written); sessions not logged by rule (aborted, interrupted, too short): \(status.skipped)")
                if status.owedTotal > 0 { print("Owed: \(HealthNotes.owedSummary(status.owed))") }
                if let note = HealthNotes.heldBack(status.owed["clock_unsynchronised", default: 0], wallClockCheck: status.wallClockCheck) {
                    print(note)
                }
                print("Wall clock: \(status.clockSynchronised ? "synchronised" : "not synchronised")\(status.wallClockCheck ? "" : " (wall-clock-check off: trusted as it is)")")
                if status.status != "on" {
                    print("Turn logging on with `chronoception health enable`.")
                } else if status.owedTotal - status.owed["clock_unsynchronised", default: 0] > 0 {
                    print("Write the owed records with `chronoception health backfill`.")
                }
            }
        }
    }

    struct Enable: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write completed sessions to the health log (clears a failure).")
        @OptionGroup var store: StoreOptions

        func run() throws {
            try reportingFailures {
                let opened = try store.openStore()
                // A log that cannot be written is refused now, not found out after the next session.
                let path = try opened.settings().healthLogPath
                if let problem = HealthLogWritability.problem(path: path) {
                    throw CommandFailure(
                        message: "The health log \(path) cannot be written: \(problem). Choose a file you can write with `chronoception settings set health-log-file /path/to/health.jsonl` (or make its folder writable), then run `chronoception health enable` again; nothing was changed.",
                        status: .permission)
                }
                try opened.setSetting(.healthLogging, to: "on", nowUnixSeconds: nowUnixSeconds)
                let status = try opened.healthLogStatus()
                print("Health logging: on (\(status.path))")
                let backfillable = status.owedTotal - status.owed["clock_unsynchronised", default: 0]
                if backfillable > 0 {
                    print("\(backfillable) completed session\(backfillable == 1 ? " is" : "s are") owed to the health log. Write them once with `chronoception health backfill`.")
                }
            }
        }
    }

    struct Disable: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop writing sessions to the health log (sessions are still kept locally).")
        @OptionGroup var store: StoreOptions

        func run() throws {
            try reportingFailures {
                let opened = try store.openStore()
                try opened.setSetting(.healthLogging, to: "off", nowUnixSeconds: nowUnixSeconds)
                print("Health logging: off. Sessions are still kept locally; records already in the log stay there.")
            }
        }
    }

    struct Backfill: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write every owed record to the health log, each exactly once.")
        @OptionGroup var store: StoreOptions

        func run() throws {
            try reportingFailures {
                let opened = try store.openStore()
                let report = try opened.backfill(nowUnixNanoseconds: LocalTimeZone.nowUnixNanoseconds())
                print("Backfill: \(report.written) written, \(report.alreadyInLog) already in the log, \(report.held) held back for the wall clock, \(report.skipped) not due after all.")
                if let failure = report.failure {
                    throw CommandFailure(message: "Writing the health log failed: \(failure). Logging is stopped; fix the cause, then `chronoception health enable` and `chronoception health backfill`.")
                }
            }
        }
    }
}
