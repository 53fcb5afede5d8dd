import ArgumentParser
import ChronoCore
import ChronoStore
#if canImport(Glibc)
import Glibc
#endif

/// How every program of the release runs its command line (docs/EXIT-CODES.md): every failure is one
/// message on standard error with the `error: ` prefix, sanitised for the terminal; standard output is
/// flushed and checked before a success is reported. `otherWriteFailure` is the errno of a write to
/// standard output that went around stdio (the device's live lines write the descriptor directly and
/// keep their first failure in ChronoHardware's `ConsoleWriteFailure`), 0 when none: it is checked
/// with every flush.
public enum CommandLineEntry {
    /// Runs `Root`'s command line and exits with its status.
    public static func runAndExit<Root: ParsableCommand>(_ root: Root.Type, _ arguments: [String],
                                                         otherWriteFailure: () -> Int32 = { 0 }) -> Never {
        Glibc.exit(execute(root, arguments, otherWriteFailure: otherWriteFailure))
    }

    /// Parses and runs `arguments`; returns the exit status instead of exiting (for tests).
    public static func execute<Root: ParsableCommand>(_ root: Root.Type, _ arguments: [String],
                                                      otherWriteFailure: () -> Int32 = { 0 }) -> Int32 {
        StandardOutput.guardDescriptors()
        var command: ParsableCommand
        do {
            command = try Root.parseAsRoot(arguments)
        } catch {
            let repaired = NegativeNumberArguments.repaired(arguments)
            if repaired != arguments, let retried = try? Root.parseAsRoot(repaired) {
                command = retried
            } else if repaired != arguments {
                do { _ = try Root.parseAsRoot(repaired) } catch let second { return reportParseFailure(Root.self, second, otherWriteFailure) }
                return reportParseFailure(Root.self, error, otherWriteFailure)
            } else {
                return reportParseFailure(Root.self, error, otherWriteFailure)
            }
        }
        do {
            try command.run()
            ChronoStore.rememberVerifiedDatabases()
            try StandardOutput.flush(otherFailure: otherWriteFailure())
            return ExitStatus.success.rawValue
        } catch {
            return reportRunFailure(Root.self, error, otherWriteFailure)
        }
    }

    /// Help and version go to standard output with status 0; parse errors get the usage.
    static func reportParseFailure<Root: ParsableCommand>(_ root: Root.Type, _ error: any Error, _ otherWriteFailure: () -> Int32) -> Int32 {
        let code = Root.exitCode(for: error).rawValue
        let text = Root.fullMessage(for: error)
        if code == 0 {
            do { try StandardOutput.write(text + "\n", otherFailure: otherWriteFailure()) } catch { return reportRunFailure(Root.self, error, otherWriteFailure) }
            return 0
        }
        // The error itself is one line (a value with a newline in it must not split it); the usage
        // that may follow keeps its lines.
        let short = Root.message(for: error)
        var usage = ""
        for prefix in ["Error: " + short, short] where text.hasPrefix(prefix) {
            usage = String(text.dropFirst(prefix.count))
            break
        }
        var line = TerminalSafeText.sanitized(short, keepNewlines: false)
        if line.hasPrefix("Error: ") { line = String(line.dropFirst("Error: ".count)) }
        if !line.hasPrefix("error: ") { line = "error: " + line }
        printError(line + usage)
        return code == 1 ? ExitStatus.classifying(error).rawValue : code
    }

    /// An error thrown while running: its message once, and its kind's exit status.
    static func reportRunFailure<Root: ParsableCommand>(_ root: Root.Type, _ error: any Error, _ otherWriteFailure: () -> Int32) -> Int32 {
        if let exit = error as? ExitCode {
            // The command has said what it had to say; a failed flush still turns success into failure.
            do { try StandardOutput.flush(otherFailure: otherWriteFailure()) } catch {
                if exit.rawValue == 0 { return reportRunFailure(Root.self, error, otherWriteFailure) }
            }
            return exit.rawValue
        }
        // The argument parser's own requests can also arrive from `run()`: `--help` and `help COMMAND`
        // parse to its help command, whose run throws the request. Help is standard output and status 0.
        if error is CleanExit || Root.exitCode(for: error) == .success { return reportParseFailure(Root.self, error, otherWriteFailure) }
        return reportRunFailure(error)
    }

    /// A failure outside any command's parsing: its message once, and its kind's exit status.
    public static func reportRunFailure(_ error: any Error) -> Int32 {
        let failure = CommandFailure(error)
        // The message is one line; a detail list follows it, each item a line of its own.
        let detail = failure.detail.map { "\n" + TerminalSafeText.sanitized($0, keepNewlines: false) }.joined()
        printError("error: " + TerminalSafeText.sanitized(failure.description, keepNewlines: false) + detail)
        return failure.status.rawValue
    }
}

/// `--attempts -1` reads to the argument parser as an option `-1`, so the person would be told a value
/// is missing. Joined as `--attempts=-1`, the value reaches its range check and the message names it;
/// a negative number given as a positional value (`settings set long-press-ms -1`) moves to the end,
/// after a `--`. The repaired line is used only when it parses.
enum NegativeNumberArguments {
    static func isNegativeNumber(_ token: String) -> Bool {
        guard token.hasPrefix("-"), token.count > 1 else { return false }
        let rest = token.dropFirst()
        guard let first = rest.first, first.isNumber || first == "." else { return false }
        return rest.allSatisfy { $0.isNumber || $0 == "." || $0 == "e" || $0 == "E" || $0 == "+" || $0 == "-" || $0 == "_" }
    }

    static func repaired(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var positionals: [String] = []
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            if token == "--" { result += arguments[index...]; break }
            if isNegativeNumber(token) {
                if let last = result.last, last.hasPrefix("--"), !last.contains("="), last != "--" {
                    result[result.count - 1] = last + "=" + token
                } else {
                    positionals.append(token)
                }
            } else {
                result.append(token)
            }
            index += 1
        }
        if !positionals.isEmpty {
            if let separator = result.firstIndex(of: "--") {
                result.insert(contentsOf: positionals, at: separator + 1)
            } else {
                result += ["--"] + positionals
            }
        }
        return result
    }
}
