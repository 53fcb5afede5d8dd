import ArgumentParser
import ChronoCommandLine
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `chronoception collector …` is `chronoception-collector …`: the collector (a study's server over many
/// devices, with PostgreSQL and its TLS) is a program and a package of its own, so a Pi's binary does
/// not carry it. This finds the program and runs it in this process's place, with the same arguments.
enum CollectorProgram {
    static let subcommandName = "collector"
    static let programName = "chronoception-collector"

    /// Where the collector may be, in order: beside this executable (an installed package's /usr/bin, a
    /// build folder's .build/debug), then each folder of `PATH`.
    static func candidates(executablePath: String?, path: String?) -> [String] {
        var folders = [executablePath.flatMap(folder(of:))].compactMap { $0 }
        folders += (path ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        var seen = Set<String>()
        return folders.filter { seen.insert($0).inserted }.map { $0 + "/" + programName }
    }

    /// The folder a program's path names (`/usr/bin` of `/usr/bin/chronoception`).
    static func folder(of path: String) -> String? {
        path.lastIndex(of: "/").map { String(path[..<$0]) }
    }

    /// What is said when no candidate is an executable file: what is missing and the two ways to get it.
    static func notInstalled(executablePath: String?) -> CommandFailure {
        let beside = executablePath.flatMap(folder(of:)) ?? "this program's folder"
        return CommandFailure(
            message: "`chronoception collector` runs the collector, \(programName), which is not installed here (not in \(beside) nor on PATH). "
                + "It is a package of its own: install chronoception-collector_\(Version.packageVersion)-1_ARCH.deb (built by `sudo scripts/package-pi --package collector`) "
                + "with `sudo apt install ./FILE`, or from a checkout build it with `swift build --product \(programName)`.",
            status: .deviceUnavailable)
    }

    /// Replaces this process with the collector; returns only if that cannot be done, with the reason.
    static func exec(_ arguments: [String]) -> CommandFailure {
        let executablePath = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        for candidate in candidates(executablePath: executablePath, path: ProcessInfo.processInfo.environment["PATH"])
        where access(candidate, X_OK) == 0 {
            let argv = ([programName] + arguments).map { strdup($0) } + [nil]
            execv(candidate, argv)
            let reason = String(cString: strerror(errno))
            return CommandFailure(message: "could not run \(candidate): \(reason).", status: .deviceUnavailable)
        }
        return notInstalled(executablePath: executablePath)
    }
}

/// `chronoception collector`'s place in the command tree, so `chronoception --help` lists it. The
/// arguments never reach it from the command line: `Chronoception.runAndExit` hands them to the
/// collector program before parsing, `--help` included.
struct CollectorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CollectorProgram.subcommandName,
        abstract: "Collect many devices' sessions: the chronoception-collector program (serve, enrol, devices, revoke, preferences, export, keys).",
        discussion: "`chronoception collector ARGS` runs `chronoception-collector ARGS`; `chronoception collector --help` lists its commands. It is a package of its own (docs/SYNC.md).")

    @Argument(parsing: .captureForPassthrough, help: "The collector's command and its options.")
    var arguments: [String] = []

    func run() throws { throw CollectorProgram.exec(arguments) }
}
