import ArgumentParser
import ChronoCore

/// `chronoception learn`: the modes, how to read the numbers, and an FAQ (text in `LearnText`, shared
/// with the companion).
struct LearnCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "learn", abstract: "How Chronoception works: modes, numbers, FAQ.")

    func run() {
        print(LearnText.text, terminator: "")
    }
}
