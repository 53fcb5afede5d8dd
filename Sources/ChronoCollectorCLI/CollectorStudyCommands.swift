import ArgumentParser
import ChronoCommandLine
import ChronoCollector
import ChronoCore
import ChronoStore
import Foundation

extension ChronoceptionCollector {
    /// `collector analysis`: the study figures per participant (docs/STUDIES.md, "Analysis").
    struct Analysis: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "analysis",
            abstract: "Per participant, condition and interval: n, mean, ratio, SD, CV; Weber fraction, bias and learning with 95% intervals.")
        @Option(help: "Only this device (name or UUID).") var device: String?
        @Option(help: "Only this participant's devices.") var participant: String?
        @Flag(help: "The figures as JSON (the same as GET /api/v1/analysis).") var json = false
        @Option(help: "The figures as CSV: cells (one row per participant, condition and interval) or estimates (one per participant and condition).")
        var csv: StudyAnalysisCSV.Table?
        @OptionGroup var store: CollectorStoreOptions

        func validate() throws {
            if json && csv != nil { throw ValidationError("Give --json or --csv, not both.") }
        }

        func run() throws {
            let query = CollectorSessionQuery(device: device, participant: participant)
            let json = json, csv = csv
            try withCollectorStore(store) { opened in
                try await StudyCommandSupport.checkScope(query, opened)
                let analysis = StudyAnalysis(StudyObservations.of(try await opened.sessions(query)))
                if json {
                    print(StudyAnalysisJSON.report(analysis).prettyText)
                } else if let csv {
                    FileHandle.standardOutput.write(Data(StudyAnalysisCSV.text(analysis, table: csv).utf8))
                } else {
                    print(StudyAnalysisText.lines(analysis).joined(separator: "\n"))
                }
            }
        }
    }

}

extension ChronoceptionCollector.Export {
    /// `collector export tidy`: one row per attempt or boundary, with its codebook beside it.
    struct Tidy: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tidy",
            abstract: "The tidy export (one row per attempt or boundary) into FILE, and its codebook beside it (FILE's name with -codebook).")
        @Option(name: .shortAndLong, help: "The export's path, e.g. study.csv (the codebook goes to study-codebook.csv).") var output: String
        @Option(help: "Only this device (name or UUID).") var device: String?
        @Option(help: "Only this participant's devices.") var participant: String?
        @OptionGroup var store: CollectorStoreOptions

        func run() throws {
            let query = CollectorSessionQuery(device: device, participant: participant)
            let path = output, codebook = StudyCommandSupport.codebookPath(for: output)
            for target in [path, codebook] {
                if let owner = try store.ownedFiles()?.owner(of: target) {
                    throw CommandFailure(message: "Will not write \(TerminalSafeText.quoted(target, limit: 200)): it is \(owner), and the export would replace it. The file was left as it was. Give a path outside the collector's data directory with -o.",
                                         status: .outputIsStore)
                }
            }
            try withCollectorStore(store) { opened in
                try await StudyCommandSupport.checkScope(query, opened)
                let sessions = try await opened.sessions(query)
                let consents = try await CollectorConsentColumns.byDevice(opened)
                var text = ""
                TidyExport.write(sessions, consents: consents) { text += $0 }
                try StudyCommandSupport.replace(path, with: text)
                try StudyCommandSupport.replace(codebook, with: TidyCodebook.csv)
                let rows = text.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } - 1
                FileHandle.standardError.write(Data("Wrote \(rows) row\(rows == 1 ? "" : "s") from \(sessions.count) session\(sessions.count == 1 ? "" : "s") to \(path), and its codebook to \(codebook).\n".utf8))
            }
        }
    }
}

extension StudyAnalysisCSV.Table: ExpressibleByArgument {}

enum StudyCommandSupport {
    /// `study.csv` → `study-codebook.csv`; a name without `.csv` gets `-codebook.csv` appended.
    static func codebookPath(for path: String) -> String {
        (path.hasSuffix(".csv") ? String(path.dropLast(4)) : path) + "-codebook.csv"
    }

    static func checkScope(_ query: CollectorSessionQuery, _ store: any CollectorStore) async throws {
        if query.device != nil || query.participant != nil, let unknown = CollectorScope.unknown(query, among: try await store.devices()) {
            throw CommandFailure(message: unknown.message(lister: "`chronoception-collector devices`"), status: .usage)
        }
    }

    /// Writes `text` through a temporary made exclusively beside `path` and renames it over `path`
    /// (`FileReplacement`), so a reader never sees half a file and no planted link is followed.
    static func replace(_ path: String, with text: String) throws {
        let failure = FileReplacement.replace(path, with: text, mode: 0o644)
        guard failure == 0 else {
            throw CommandFailure(message: "Cannot write \(TerminalSafeText.quoted(path, limit: 200)): \(String(cString: strerror(failure))). Check the directory exists and can be written.",
                                 status: failure == EISDIR || failure == ENOTDIR ? .outputRefused : .ioError)
        }
    }
}
