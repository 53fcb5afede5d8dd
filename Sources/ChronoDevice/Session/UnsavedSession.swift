import ChronoCommandLine
import ChronoCore
import ChronoRuntime
import ChronoStore
import Foundation
import Synchronization

/// A finished session the store could not keep (a full disk, a read-only card): written as JSON to a
/// fallback file outside the data directory and as one line on standard error, so that nothing the
/// person did is lost; `chronoception import FILE` puts it into the store later. Importing is
/// idempotent (the session id is the key), so importing twice, or importing a session that was saved
/// after all, never makes a duplicate session or health record.
public enum UnsavedSession {
    /// Where fallback files go: beside the state file (tmpfs under /run or $XDG_RUNTIME_DIR, so not
    /// on the disk that is full), in `unsaved/`.
    static func directory(stateFilePath: String = StateFile.defaultPath()) -> String {
        PathText.directory(of: stateFilePath) + "/unsaved"
    }

    /// The fallback file's text for `finish` (`UnsavedSessionFile`, format 3).
    static func text(_ finish: SessionFinishRecord) -> String { UnsavedSessionFile.text(finish) }

    /// Rebuilds the session from a fallback file's text (`UnsavedSessionFile`, the one decoder); a
    /// refusal is a bad input file (65) naming `source`.
    /// `allowTestIntervals`: test mode is on (sessions below the product minimum are accepted).
    public static func parse(_ text: String, source: String, allowTestIntervals: Bool) throws -> SessionFinishRecord {
        do { return try UnsavedSessionFile.parse(text, allowTestIntervals: allowTestIntervals) } catch {
            let suffix = if case .breaksRule = error { " Nothing was imported." } else { "" }
            throw CommandFailure(message: "\(source) \(error.description).\(suffix)", status: .badInput)
        }
    }
}

/// The sessions of this process that could not be saved and where their fallback files are; the
/// session commands exit with status 74 when it is not empty.
final class UnsavedSessionLog: Sendable {
    static let process = UnsavedSessionLog()

    private let entries = Mutex<[String]>([])

    /// Keeps `finish` in a fallback file and on standard error; returns where it went.
    func keep(_ finish: SessionFinishRecord, directory: String = UnsavedSession.directory(),
              report: @Sendable (String) -> Void) -> String {
        let text = UnsavedSession.text(finish)
        report("warning: chronoception-unsaved-session: \(text)")
        let path = directory + "/unsaved-\(finish.sessionID).json"
        var kept = "standard error only"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            // A finished session is personal data: private like the store's files (docs/STORE.md,
            // "Secrets at rest"), and replaced, never written through a link planted at its path.
            let failure = FileReplacement.replace(path, with: text + "\n", mode: 0o600)
            guard failure == 0 else { throw SystemCallError("writing \(path)", errno: failure) }
            kept = path
        } catch {
            report("Could not write the fallback file \(path) either (\(error)); the line above holds the session: save it to a file and import it.")
        }
        entries.withLock { $0.append(kept) }
        return kept
    }

    var kept: [String] { entries.withLock { $0 } }

    /// The failure a session command ends with when sessions were not saved, or nil.
    var failure: CommandFailure? {
        let kept = self.kept
        guard !kept.isEmpty else { return nil }
        let files = kept.filter { $0.hasPrefix("/") }
        let hint = files.isEmpty ? "the JSON line printed above" : files.joined(separator: ", ")
        return CommandFailure(message: "\(kept.count) finished session\(kept.count == 1 ? " was" : "s were") not saved in the store; kept in \(hint). When the store can be written again, run `chronoception import FILE` for each.",
                              status: .ioError)
    }
}
