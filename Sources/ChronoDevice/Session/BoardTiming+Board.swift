import ChronoCore
import ChronoHardware

extension BoardTiming {
    /// The board file's long press and button debounce, for `SessionResolver` (the core reads no board file).
    init(_ board: BoardConfiguration) {
        self.init(longPressMilliseconds: Int64(board.longPressMilliseconds),
                  debounceMilliseconds: Int64(board.button.debounceMilliseconds))
    }
}
