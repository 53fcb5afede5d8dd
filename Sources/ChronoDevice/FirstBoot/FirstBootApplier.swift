import ChronoCore
import ChronoHardware
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Applies the first-boot file (`chronoception.txt` on the boot partition) to a root file system:
/// reads the file and what it needs to know of the system, lets the core decide (`FirstBootFile`,
/// `FirstBootPlan`), then writes — only under `root` and `boot` (`RootedFiles`). Here rather than in
/// ChronoCLI because it is the device being set up, as the daemon is put together here; the command
/// only parses `--boot` and `--root` and chooses the exit status.
///
/// Order: the system's files first; then the secrets' lines on the boot partition, each only once
/// what it set is written (a failed write keeps its secret for the next boot to retry); then the
/// report and the problem marker. A run that changes nothing and finds the same problems as the
/// last leaves even the report as it is, so applying twice changes nothing.
public struct FirstBootApplier {
    public let boot: String
    public let root: String
    /// When the boot partition is mounted read-only (the image's): opened for the one write that takes
    /// the secrets out, and only when there is one. Nil: the partition is written as it is mounted.
    public let bootWindow: BootPartitionWindow?

    public init(boot: String, root: String, bootWindow: BootPartitionWindow? = nil) {
        self.boot = boot
        self.root = root
        self.bootWindow = bootWindow
    }

    /// What an apply did.
    public struct Outcome: Sendable {
        /// Whether the boot partition had the file (without it, the defaults apply).
        public var found: Bool
        public var problems: [FirstBootProblem]
        /// The report's lines on what the device has.
        public var summary: [String]
        /// Each file changed, as a path on the device (`/etc/hostname`, `/boot/firmware/chronoception.txt`).
        public var changed: [String]
        /// Writes that failed (the first decides the exit status); what they set stays undone.
        public var failures: [RootedFileError]
        /// Whether `bootWindow` made the boot partition writable for the file's rewrite (and closed it).
        public var openedBootPartition = false
    }

    /// Why nothing could be applied: a folder given is not one.
    public struct MissingFolder: Error, CustomStringConvertible {
        public var option: String
        public var path: String
        public var description: String {
            "\(option) \(TerminalSafeText.quoted(path, limit: 200)) is not a folder; give the boot partition's mount point (/boot/firmware) and the root (/)"
        }
    }

    public func apply() throws(MissingFolder) -> Outcome {
        guard let bootFiles = RootedFiles(boot) else { throw MissingFolder(option: "--boot", path: boot) }
        guard let rootFiles = RootedFiles(root) else { throw MissingFolder(option: "--root", path: root) }
        // Bounded: a file past `FirstBootFile.maximumBytes` is one problem, and none of it is applied
        // or rewritten (its secrets stay until the person replaces it).
        let file = bootFiles.readBytes(FirstBootFile.name, limit: FirstBootFile.maximumBytes)
        let source = file.flatMap { $0.complete ? String(decoding: $0.bytes, as: UTF8.self) : nil }
        let context = FirstBootFile.Context(boardNames: Self.boardNames(root: rootFiles), timezoneNames: Self.timezoneNames(root: rootFiles))
        let reading = FirstBootFile.read(bytes: file?.bytes ?? [], complete: file?.complete ?? true, context: context)
        var system = FirstBootPlan.System(localtimeTarget: rootFiles.linkTarget(FirstBootPlan.Path.localtime))
        for path in FirstBootPlan.Path.read { system.files[path] = rootFiles.read(path) }
        let plan = FirstBootPlan(reading.settings, system: system)

        var outcome = Outcome(found: file != nil, problems: reading.problems, summary: plan.summary, changed: [], failures: [])
        var failed: Set<String> = []
        for change in plan.changes {
            do {
                switch change {
                case .write(let path, let text, let mode, let folderMode):
                    try rootFiles.write(path, text, mode: mode_t(mode), folderMode: mode_t(folderMode))
                case .link(let path, let target):
                    try rootFiles.link(path, to: target)
                case .remove(let path):
                    try rootFiles.remove(path)
                }
                outcome.changed.append(rootFiles.shown(change.path))
            } catch {
                outcome.failures.append(error)
                failed.insert(change.path)
            }
        }

        // A secret's line goes once what it set is in place (or when it was refused: it may be a real
        // secret with a typo); a failed write keeps it for the next boot.
        var secretOutcomes: [Int: FirstBootFile.SecretOutcome] = [:]
        for secret in reading.secretLines {
            let written = secret.key == .wifiPassphrase
                ? plan.writesWiFi && !failed.contains(FirstBootPlan.Path.wifi)
                : plan.writesSSHKeys && !failed.contains(FirstBootPlan.Path.authorizedKeys)
            if !secret.valid {
                let reason = reading.problems.first { $0.line == secret.line }?.message ?? "\(secret.name) is not valid"
                secretOutcomes[secret.line] = .refused(reason: reason)
            } else if written {
                secretOutcomes[secret.line] = .applied
            }
        }
        let removed = reading.secretLines.filter { secretOutcomes[$0.line] != nil }
        if let source, let cleaned = FirstBootFile.removingSecrets(from: source, outcomes: secretOutcomes) {
            var window: BootPartitionWindow.Opened?
            do {
                window = try bootWindow?.open()
                outcome.openedBootPartition = window != nil
                try bootFiles.write(FirstBootFile.name, cleaned, mode: nil)
                outcome.changed.append(bootFiles.shown(FirstBootFile.name))
            } catch {
                outcome.failures.append(error)
            }
            do {
                try window?.close()
            } catch {
                outcome.failures.append(error)
            }
        }

        let marker = FirstBootReport.marker(reading.problems)
        let markerChanged = (rootFiles.read(FirstBootPlan.Path.problems) ?? "") != marker
        if !outcome.changed.isEmpty || markerChanged || !rootFiles.exists(FirstBootPlan.Path.report) {
            let report = FirstBootReport.text(source: "\(FirstBootFile.name) on the boot partition", found: file != nil,
                                              summary: plan.summary, problems: reading.problems, removed: removed)
            do {
                if rootFiles.read(FirstBootPlan.Path.report) != report {
                    try rootFiles.write(FirstBootPlan.Path.report, report, mode: 0o644)
                    outcome.changed.append(rootFiles.shown(FirstBootPlan.Path.report))
                }
                if markerChanged {
                    if marker.isEmpty { try rootFiles.remove(FirstBootPlan.Path.problems) } else { try rootFiles.write(FirstBootPlan.Path.problems, marker, mode: 0o644) }
                    outcome.changed.append(rootFiles.shown(FirstBootPlan.Path.problems))
                }
            } catch {
                outcome.failures.append(error)
            }
        }
        return outcome
    }

    /// The first-boot file at `path` as `first-boot check` reads it: at most `FirstBootFile.maximumBytes`
    /// (and one byte more, to know it went on); nil when it is not a regular file that can be read
    /// (opened without blocking, so a FIFO is refused at once).
    public static func readFile(atPath path: String) -> (bytes: [UInt8], complete: Bool)? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return RootedFiles.readBounded(descriptor, limit: FirstBootFile.maximumBytes)
    }

    /// What the reader checks a file against on the system at `root` (`first-boot check` on a
    /// desktop: its own zoneinfo and boards).
    public static func context(root: String) -> FirstBootFile.Context {
        guard let files = RootedFiles(root) else { return FirstBootFile.Context(boardNames: BuiltInBoards.files.keys.sorted(), timezoneNames: []) }
        return FirstBootFile.Context(boardNames: boardNames(root: files), timezoneNames: timezoneNames(root: files))
    }

    /// The boards the device knows: built in, and the board files installed under the root.
    static func boardNames(root: RootedFiles) -> [String] {
        var names = Set(BuiltInBoards.files.keys)
        let folder = root.resolvedBase + "/usr/share/chronoception/boards"
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) {
            for entry in entries where entry.hasSuffix(".yaml") { names.insert(String(entry.dropLast(5))) }
        }
        return names.sorted()
    }

    /// The time zones under the root's zoneinfo: each file or link whose name starts with a capital
    /// (so not `posixrules`, `localtime`, `zone.tab`), outside the `posix` and `right` copies.
    static func timezoneNames(root: RootedFiles) -> [String] {
        let base = root.resolvedBase == "/" ? "/usr/share/zoneinfo" : root.resolvedBase + "/usr/share/zoneinfo"
        var names: [String] = []
        func walk(_ relative: String, depth: Int) {
            guard depth < 4, let entries = try? FileManager.default.contentsOfDirectory(atPath: relative.isEmpty ? base : base + "/" + relative) else { return }
            for entry in entries.sorted() {
                guard let first = entry.unicodeScalars.first, ("A"..."Z").contains(first), !entry.contains(".") else { continue }
                let path = relative.isEmpty ? entry : relative + "/" + entry
                var status = stat()
                guard lstat(base + "/" + path, &status) == 0 else { continue }
                if (status.st_mode & S_IFMT) == S_IFDIR { walk(path, depth: depth + 1) } else { names.append(path) }
            }
        }
        walk("", depth: 0)
        return names
    }
}
