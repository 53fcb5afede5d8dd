import ArgumentParser
import ChronoCommandLine
import ChronoCore
import ChronoStore

/// `chronoception note SESSION "text"`: sets a session's note ("tired", "after coffee"), `--clear`
/// removes it, and with neither prints it. SESSION is a session's id, the first characters of one
/// (at least 4, as long as they name one session), or `last` for the latest session. The note goes
/// through the core's one validator (`SessionNote`) in the store; a changed note on a completed
/// session is sent to the collector again with the next sync.
struct NoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "note",
        abstract: "Add, change or remove a session's note.",
        discussion: """
            SESSION is the session's id (`sessions --json` lists them), its first characters, or `last`.
            The note is one line of at most \(SessionNote.maximumLength) characters.
            """)
    @OptionGroup var store: StoreOptions
    @Argument(help: "The session: its id, the first characters of its id (at least 4), or `last`.") var session: String
    @Argument(help: "The note, e.g. \"after coffee\". Without it (and without --clear) the note is shown.") var text: String?
    @Flag(help: "Remove the note.") var clear = false

    /// The fewest characters of an id that name a session.
    static let minimumPrefix = 4

    func validate() throws {
        if clear && text != nil { throw ValidationError("Give either the note or --clear, not both.") }
    }

    func run() throws {
        try reportingFailures {
            let opened = try store.openStore()
            let id = try Self.resolve(session, in: opened)
            guard clear || text != nil else {
                let note = try opened.session(id: id).note
                print(note.map { TerminalSafeText.sanitized($0, keepNewlines: false) } ?? "Session \(id) has no note.")
                return
            }
            let change = try opened.setNote(sessionID: id, note: clear ? nil : text)
            switch (change.changed, change.note) {
            case (false, nil): print("Session \(id) has no note; nothing changed.")
            case (false, _): print("Session \(id) already has this note; nothing changed.")
            case (true, nil): print("Removed the note on session \(id).")
            case (true, let note?): print("Note on session \(id): \(note)")
            }
        }
    }

    /// The one session `text` names: `last`, a whole id, or a prefix of exactly one id.
    static func resolve(_ text: String, in store: ChronoStore) throws -> String {
        if text.lowercased() == "last" {
            guard let latest = try store.latestSessionID() else {
                throw CommandFailure(message: "The store has no sessions yet; a note goes on a session after it ran.", status: .usage)
            }
            return latest
        }
        if let id = CanonicalUUID(text)?.text {
            guard !(try store.sessionIDs(withPrefix: id, limit: 1)).isEmpty else {
                throw CommandFailure(message: "No session \(id) in the store. `chronoception sessions --json` lists the ids; `last` names the latest session.", status: .usage)
            }
            return id
        }
        let shown = TerminalSafeText.quoted(text, limit: 40)
        guard text.count >= minimumPrefix, text.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw CommandFailure(message: "\(shown) is not a session id, nor its first \(minimumPrefix) or more characters (hexadecimal digits and dashes), nor `last`. `chronoception sessions --json` lists the ids.", status: .usage)
        }
        let matches = try store.sessionIDs(withPrefix: text, limit: 3)
        switch matches.count {
        case 0:
            throw CommandFailure(message: "No session's id starts with \(shown). `chronoception sessions --json` lists the ids; `last` names the latest session.", status: .usage)
        case 1:
            return matches[0]
        default:
            throw CommandFailure(message: "\(shown) starts the ids of more than one session (\(matches.prefix(2).joined(separator: ", "))\(matches.count > 2 ? ", …" : "")); give more of the id.", status: .usage)
        }
    }
}
