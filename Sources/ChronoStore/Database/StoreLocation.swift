/// Where the store lives: one directory holding the database and, by default, the health log.
///
/// Resolution order: `--data-dir`; `$STATE_DIRECTORY` (systemd sets it for a unit with
/// `StateDirectory=chronoception`); the service directory `/var/lib/chronoception` when running as the
/// device service; `$XDG_DATA_HOME/chronoception`; `$HOME/.local/share/chronoception`.
public struct StoreLocation: Hashable, Sendable {
    public static let serviceDirectory = "/var/lib/chronoception"
    public static let databaseFileName = "chronoception.sqlite"
    /// The default health log, in its own directory so that permissions can differ from the store's.
    public static let defaultHealthLogRelativePath = "health-log/mindful-sessions.jsonl"

    public var directory: String

    public init(directory: String) {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    }

    public var databasePath: String { directory + "/" + Self.databaseFileName }
    public var defaultHealthLogPath: String { directory + "/" + Self.defaultHealthLogRelativePath }

    /// Resolves the directory from the explicit option, the environment and the way we run.
    public static func resolve(explicit: String?, environment: [String: String], runningAsService: Bool) throws(StoreError) -> StoreLocation {
        if let explicit, !explicit.isEmpty { return StoreLocation(directory: explicit) }
        if let state = environment["STATE_DIRECTORY"], !state.isEmpty {
            // systemd may list several directories separated by colons; ours is the first.
            return StoreLocation(directory: String(state.split(separator: ":").first ?? Substring(state)))
        }
        if runningAsService { return StoreLocation(directory: serviceDirectory) }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            // The XDG base-directory spec says relative values are invalid and must be ignored.
            return StoreLocation(directory: xdg + "/chronoception")
        }
        if let home = environment["HOME"], !home.isEmpty {
            return StoreLocation(directory: home + "/.local/share/chronoception")
        }
        throw .directoryUnusable(path: "~/.local/share/chronoception", reason: "neither XDG_DATA_HOME nor HOME is set")
    }
}
