import ChronoCore
import ChronoHardware

/// Loads a board that sessions can run on: the board file as `BoardCatalog` reads it, and its name as
/// every session's record must hold it (`SessionValidation.boardProblem`: 1 to 64 characters, no
/// control character or text-direction mark). The name is the file's, so a board whose sessions could
/// never be saved (or synced) is refused before the first one starts, not when the store refuses its
/// first session.
public enum UsableBoard {
    public static func load(_ nameOrPath: String) throws -> BoardConfiguration {
        let board = try BoardCatalog.standard().load(nameOrPath)
        if let problem = SessionValidation.boardProblem(board.name) {
            throw BoardFileError(file: nameOrPath, key: "name", problem: "cannot name a session's board: \(problem)",
                                 fix: "rename the board file and its `name:` to at most \(SessionValidation.maximumBoardLength) characters without control characters or text-direction marks")
        }
        return board
    }
}
