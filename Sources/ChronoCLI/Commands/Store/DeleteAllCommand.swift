import ArgumentParser
import ChronoCommandLine
import ChronoStore

/// `chronoception delete-all`: removes every local record after two explicit confirmations (SPEC §9):
/// a yes/no prompt, then typing a word. `--yes --yes` confirms both for scripts. The health log file is
/// left as it is.
struct DeleteAllCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-all",
        abstract: "Delete all local data (sessions, presets, settings). The health log file is not touched.")
    @OptionGroup var store: StoreOptions
    @Flag(name: .customLong("yes"), help: "Confirm without prompting; give it twice (--yes --yes), one per confirmation.")
    var confirmations: Int

    static let confirmationWord = "DELETE"

    func run() throws {
        try reportingFailures {
            let opened = try store.openStore()
            let healthLog = try opened.settings().healthLogPath
            if confirmations < 2 {
                guard confirmations == 0 else {
                    throw CommandFailure(message: "Give --yes twice (--yes --yes) to delete without prompts.", status: .usage)
                }
                print("This deletes every session, preset and setting in \(opened.location.directory).")
                print("Records already written to the health log (\(healthLog)) are left untouched.")
                print("Continue? [y/N] ", terminator: "")
                guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                    print("Nothing deleted.")
                    return
                }
                print("Type \(Self.confirmationWord) to delete all local data: ", terminator: "")
                guard readLine() == Self.confirmationWord else {
                    print("Nothing deleted.")
                    return
                }
            }
            let report = try opened.deleteAllLocalData()
            print("Deleted \(report.sessions) session\(report.sessions == 1 ? "" : "s") and \(report.settings) setting\(report.settings == 1 ? "" : "s") from \(opened.location.directory).")
            print("The health log file \(healthLog) was left untouched.")
        }
    }
}
