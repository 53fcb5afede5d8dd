import ArgumentParser
import ChronoCommandLine

/// The `chronoception` command: the composition root. Each subcommand lives in its own file under
/// `Commands/` and only wires the layers together; product behaviour lives in ChronoCore. It is a
/// library so the command-line layer (adapters, option merging) can be tested; the executable target
/// `chronoception` only calls `main()`.

public struct Chronoception: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "chronoception",
        abstract: "Train and measure your sense of elapsed time.",
        version: Version.line,
        subcommands: [
            ReplayCommand.self,
            SimulateCommand.self,
            SimulateStudyCommand.self,
            ProgressCommand.self,
            SessionsCommand.self,
            NoteCommand.self,
            ExportCommand.self,
            HealthCommand.self,
            SettingsCommand.self,
            PresetsCommand.self,
            DeleteAllCommand.self,
            ImportCommand.self,
            LearnCommand.self,
            StoreBenchCommand.self,
            BoardCommand.self,
            FirstBootCommand.self,
            ChallengeCommand.self,
            FearCommand.self,
            PassiveCommand.self,
            ReproductionCommand.self,
            RunCommand.self,
            StatusCommand.self,
            StartCommand.self,
            EndCommand.self,
            DiscardCommand.self,
            CompanionCommand.self,
            SyncCommand.self,
            UpdateCommand.self,
            CollectorCommand.self,
            BenchCommand.self,
        ]
    )

    public init() {}
}
