import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How the device powers itself off at the battery's critical level (docs/RUNTIME.md, "Battery").
///
/// The shipped system unit runs the daemon as the unprivileged `chronoception` user, who may not power
/// the machine off. It passes `run --power-off-request /run/chronoception/power-off`: the daemon only
/// creates that file, and the root-owned `chronoception-power-off.path` unit turns it into a clean
/// `systemctl poweroff`, so no polkit rule and no capability is needed. Elsewhere (a desktop session,
/// which logind lets power off) the daemon runs `systemctl poweroff` itself; tests give a stand-in.
public enum PowerOff: Sendable, Equatable {
    /// Run this program with these arguments.
    case command([String])
    /// Create this file (an absolute path in an existing folder) for a path unit to act on.
    case requestFile(String)

    public static let standard = PowerOff.command(["/usr/bin/systemctl", "poweroff"])

    /// What is wrong with a `--power-off-request` value, in words that name the fix; nil when it is an
    /// absolute path whose folder exists (under systemd, the unit's RuntimeDirectory).
    public static func requestPathProblem(_ path: String) -> String? {
        guard path.hasPrefix("/"), path.utf8.count < Int(PATH_MAX), !path.contains("\0"), !path.hasSuffix("/") else {
            return "--power-off-request needs the absolute path of a file (the system unit gives /run/chronoception/power-off), not \(path.debugDescription)."
        }
        let folder = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            return "--power-off-request \(path.debugDescription): the folder \(folder.debugDescription) does not exist. Under systemd it is the unit's RuntimeDirectory (RuntimeDirectory=chronoception gives /run/chronoception)."
        }
        return nil
    }
}

/// Carries out a `PowerOff`, off the loop thread; a failure is said on the console, and the device
/// stays on (the person is told to shut it down by hand).
struct PowerOffRunner: Sendable {
    let powerOff: PowerOff
    let report: @Sendable (String) -> Void

    func run() {
        switch powerOff {
        case .command(let arguments): runCommand(arguments)
        case .requestFile(let path): writeRequest(at: path)
        }
    }

    private func runCommand(_ arguments: [String]) {
        guard let executable = arguments.first else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(arguments.dropFirst())
        let shown = arguments.joined(separator: " ")
        do {
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus != 0 {
                report("Power-off: `\(shown)` exited with status \(process.terminationStatus); the device stays on. Shut it down by hand before the battery is empty.")
            }
        } catch {
            report("Power-off: `\(shown)` could not be run (\(error.localizedDescription)); the device stays on. Shut it down by hand before the battery is empty.")
        }
    }

    /// The request names why and when, for the journal; O_NOFOLLOW: a link planted at the path is
    /// refused rather than followed.
    private func writeRequest(at path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else {
            report("Power-off: \(path) could not be created (\(String(cString: strerror(errno)))); the device stays on. Check that chronoception-power-off.path is installed and the folder is the daemon's (docs/RUNTIME.md, \"Battery\"), and shut it down by hand before the battery is empty.")
            return
        }
        defer { close(descriptor) }
        let text = Array("battery critical: power-off requested by chronoception (pid \(getpid()))\n".utf8)
        let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written != text.count {
            report("Power-off: \(path) could not be written (\(String(cString: strerror(errno)))); the request may still act, as the file exists.")
        }
    }
}
