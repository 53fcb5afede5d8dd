/// Splitting a file path at its last `/`, for every layer that names a neighbouring file (a temporary
/// beside an output, the state file's directory, the database's folder).
///
/// Why not Foundation's `NSString` path methods: on Linux `deletingLastPathComponent` traps on a path
/// of one two-byte character (`é`), and these paths come from the user.
public enum PathText {
    /// The directory part: `.` for a bare name, `/` for a file at the root.
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// The last component (everything after the last `/`).
    public static func lastComponent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
