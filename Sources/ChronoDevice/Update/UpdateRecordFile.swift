import ChronoCommandLine
import ChronoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The update record's file beside the store (`UpdateRecord.fileName`): the daemon and `status` read
/// it, `chronoception update` (as root) writes it. Reading goes through `UpdateRecord(fileText:)`, the
/// record's one validator; writing replaces the file whole (`FileReplacement`), so a power cut leaves
/// the old record or the new one, never a torn one.
public struct UpdateRecordFile: Sendable {
    /// What the file holds now.
    public enum Reading: Equatable, Sendable {
        /// No file: the card was never updated (or this is not a card).
        case none
        case record(UpdateRecord)
        /// A file that is not a record (or not a regular file): the reason, naming the file.
        case refused(String)

        public var record: UpdateRecord? {
            if case .record(let record) = self { return record }
            return nil
        }
    }

    public let path: String

    /// The record file of the data directory `directory`.
    public init(directory: String) { path = directory + "/" + UpdateRecord.fileName }

    /// Root reads it too (`update boot`, in the data directory the service's user can write), so it is
    /// opened without following a link and without waiting on a FIFO, checked on the open descriptor and
    /// read no further than 4 KiB.
    public func read() -> Reading {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return .none
            case ELOOP: return .refused("\(path) is not a regular file; remove it")
            default: return .refused("\(path): \(String(cString: strerror(errno)))")
            }
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return .refused("\(path) is not a regular file; remove it") }
        let (bytes, complete) = RootedFiles.readBounded(descriptor, limit: 4096)
        guard complete else { return .refused("\(path) is longer than 4 KiB; remove it") }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .refused("\(path) cannot be read as UTF-8 text; remove it")
        }
        do { return .record(try UpdateRecord(fileText: text)) } catch { return .refused("\(error.description) (\(path)); remove it") }
    }

    /// Replaces the file with `record`, readable by all (it says nothing private), owned like its
    /// folder: root writes it into the service's data directory, whose user must be able to replace it.
    public func write(_ record: UpdateRecord) throws(CommandFailure) {
        let failure = FileReplacement.replace(path, with: record.fileText, mode: 0o644)
        guard failure == 0 else {
            throw CommandFailure(message: "Cannot write the update record \(path): \(String(cString: strerror(failure))). Check that the data partition is mounted and writable (`findmnt /data`).")
        }
        var folder = stat()
        if getuid() == 0, stat(PathText.directory(of: path), &folder) == 0 {
            _ = chown(path, folder.st_uid, folder.st_gid)
        }
    }

    /// Removes the file (an install refused before it began leaves no record).
    public func remove() { unlink(path) }
}

/// The slot this boot started from, read once from the kernel command line (`BootSlot.booted`); nil
/// off the card.
public enum BootedSlot {
    public static func read(commandLinePath: String = "/proc/cmdline") -> BootSlot? {
        guard let data = FileManager.default.contents(atPath: commandLinePath), data.count <= 65_536 else { return nil }
        return BootSlot.booted(commandLine: String(decoding: data, as: UTF8.self))
    }
}

extension ReleaseVersion {
    /// This build's version (`Version.packageVersion`).
    public static var running: ReleaseVersion {
        guard let version = ReleaseVersion(Version.packageVersion) else { preconditionFailure("Version.packageVersion is not a release version") }
        return version
    }
}
