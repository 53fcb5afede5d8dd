import Synchronization

/// The first failed write to standard output by the drivers and the runtime's console (a full disk, a
/// closed descriptor): they never stop a session for it, but the command reports it when it ends so
/// that lost output never looks like success.
public enum ConsoleWriteFailure {
    private static let firstErrno = Atomic<Int32>(0)

    /// Keeps `errno` if it is the first failure.
    public static func record(errno code: Int32) {
        _ = firstErrno.compareExchange(expected: 0, desired: code == 0 ? 5 : code, ordering: .relaxed)
    }

    /// errno of the first failure, 0 when none.
    public static var first: Int32 { firstErrno.load(ordering: .relaxed) }
}
