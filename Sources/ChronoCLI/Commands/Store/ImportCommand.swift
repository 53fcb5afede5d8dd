import ArgumentParser
import ChronoCommandLine
import ChronoCore
import ChronoDevice
import ChronoStore

/// `chronoception import FILE…`: puts sessions that could not be saved (a full disk, a read-only card)
/// into the store from the fallback files the session commands wrote. A session already in the store
/// is left alone, so importing twice never duplicates a session or its health record.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Save sessions kept in fallback files (written when the store could not be written).")
    @OptionGroup var store: StoreOptions
    @Argument(help: "Fallback files (unsaved-<session id>.json), or - for one on standard input.") var files: [String]

    func run() throws {
        try reportingFailures {
            guard !files.isEmpty else { throw ValidationError("Give at least one file to import.") }
            // Every file is read and checked before anything is stored: one bad file imports nothing.
            var finishes: [SessionFinishRecord] = []
            for file in files {
                let source = file == "-" ? "standard input" : TerminalSafeText.quoted(file, limit: 200)
                let bytes = try InputFile.read(file == "-" ? nil : file, what: source, limit: 16 << 20)
                guard var text = String(validating: bytes, as: UTF8.self) else {
                    throw CommandFailure(message: "\(source) is not UTF-8 text.", status: .badInput)
                }
                // A line copied from the journal keeps its prefix; accept it as written.
                if let range = text.range(of: "chronoception-unsaved-session: ") { text = String(text[range.upperBound...]) }
                finishes.append(try UnsavedSession.parse(text, source: source, allowTestIntervals: TestMode.isEnabled))
            }
            let opened = try store.openStore(creating: true)
            for finish in finishes {
                // The start row was written, then recovery marked it interrupted: the kept finish replaces that.
                try opened.reopenRecoveredSession(finish.sessionID)
                let result = try opened.recordSessionFinished(finish, nowUnixNanoseconds: LocalTimeZone.nowUnixNanoseconds())
                print(result.stored ? "Imported session \(finish.sessionID) (\(finish.outcome.status.rawValue))."
                                    : "Session \(finish.sessionID) is already in the store; nothing changed.")
            }
        }
    }
}
