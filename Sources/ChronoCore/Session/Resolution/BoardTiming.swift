/// The board file's part of a session: how long a long press is on this device, how long its button
/// bounces. The composition reads it from the board file (`BoardTiming(board)` in ChronoRuntime, which
/// sees both the core and the hardware); the core never reads a file.
public struct BoardTiming: Hashable, Sendable {
    public var longPressMilliseconds: Int64
    public var debounceMilliseconds: Int64

    public init(longPressMilliseconds: Int64, debounceMilliseconds: Int64) {
        self.longPressMilliseconds = longPressMilliseconds
        self.debounceMilliseconds = debounceMilliseconds
    }

    /// No board at all (`replay`, `simulate`): the built-in gesture timing, 1500 ms and 30 ms.
    public static let builtIn = BoardTiming(longPressMilliseconds: GestureSettings.defaultLongPress.milliseconds,
                                            debounceMilliseconds: GestureSettings.defaultDebounce.milliseconds)
}
