/// Why the store could not do what was asked. Every message names the file and the fix, because the
/// person reading it is at a terminal on a small device with no one to ask.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    /// The data directory cannot be created or written.
    case directoryUnusable(path: String, reason: String)
    /// The database file is not an SQLite database at all, or SQLite reports it damaged.
    case corrupt(path: String, detail: String)
    /// A valid SQLite database that belongs to something else.
    case foreign(path: String, detail: String)
    /// Made by a newer Chronoception, with migrations this build does not know.
    case newerSchema(path: String, migrations: [String])
    /// Any other SQLite failure.
    case database(path: String, detail: String)
    /// A value given by the user was refused.
    case invalidValue(String)
    /// A session id that the store does not hold.
    case unknownSession(String)
    /// The store can be read but not written (a read-only file system or directory, a full disk): a
    /// reading command works, this one needed to write.
    case readOnly(path: String, reason: String)

    public var description: String {
        switch self {
        case .directoryUnusable(let path, let reason):
            return "Cannot use the data directory \(path): \(reason). Fix that (a directory this user can write), or choose another with --data-dir."
        case .corrupt(let path, let detail):
            return "The database file \(path) is damaged or is not an SQLite database (\(detail)). It was left untouched. Move it aside (for example `mv \(path) \(path).broken`) to start a new store, or restore it from a backup; --data-dir chooses another directory."
        case .foreign(let path, let detail):
            return "The file \(path) is an SQLite database that does not belong to Chronoception (\(detail)). It was left untouched. Move it elsewhere or choose another directory with --data-dir."
        case .newerSchema(let path, let migrations):
            return "The database \(path) was written by a newer Chronoception (unknown migrations: \(migrations.joined(separator: ", "))). It was left untouched. Update chronoception to open it."
        case .database(let path, let detail):
            return "The database \(path) could not be used: \(detail)"
        case .invalidValue(let message):
            return message
        case .unknownSession(let id):
            return "No session \(id) in the store."
        case .readOnly(let path, let reason):
            return "The store in \(path) can be read but not written (\(reason)); nothing was changed. Reading and exporting still work. Make the directory writable (remount the card read-write, free some space) or choose another with --data-dir."
        }
    }
}
