import ChronoCommandLine
import ChronoHardware
#if canImport(Glibc)
import Glibc
#endif

extension Chronoception {
    /// Runs the command line and exits with its status (docs/EXIT-CODES.md). `chronoception collector …`
    /// is the collector's own program, run in this process's place (CollectorProgram).
    public static func runAndExit(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        if arguments.first == CollectorProgram.subcommandName {
            let failure = CollectorProgram.exec(Array(arguments.dropFirst()))
            Glibc.exit(CommandLineEntry.reportRunFailure(failure))
        }
        CommandLineEntry.runAndExit(Self.self, arguments, otherWriteFailure: { ConsoleWriteFailure.first })
    }

    /// Parses and runs `arguments`; returns the exit status instead of exiting (for tests).
    static func execute(_ arguments: [String]) -> Int32 {
        CommandLineEntry.execute(Self.self, arguments, otherWriteFailure: { ConsoleWriteFailure.first })
    }
}
