import ArgumentParser
import ChronoCommandLine
import ChronoCore
import ChronoSimulation
import ChronoStore

/// `chronoception simulate`: a simulated person runs many sessions of every mode through the engine on
/// a virtual clock, with every invariant checked as it goes.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run simulated sessions of every mode on a virtual clock and check the invariants.")

    @Option(help: "How many sessions.")
    var sessions: Int = 100

    @Option(help: "The random seed; the same seed gives the same sessions.")
    var seed: UInt64 = 1

    @Flag(help: "Print only failures and the total.")
    var quiet = false

    @Option(name: .customLong("data-dir"), help: "Also save the sessions into the store in this directory (an hour apart, ending now).")
    var dataDirectory: String?

    func validate() throws {
        guard sessions >= 1, sessions <= 10_000_000 else {
            throw ValidationError("--sessions must be between 1 and 10000000.")
        }
    }

    func run() throws {
        var failed = 0
        var counts: [SessionStatus: Int] = [:]
        var logged = 0
        let writer = try dataDirectory.map { try SimulationStoreWriter(store: openChronoStore(StoreLocation(directory: $0)), sessions: sessions) }
        var saveFailure: (any Error)?
        var saved = 0
        SimulationRun(seed: seed, firstSessionUnixSeconds: writer?.firstSessionUnixSeconds ?? 1_795_000_000).run(sessions: sessions) { result in
            // The first failed save stops the saving (a full disk fails every later one the same way);
            // the simulation itself goes on, since its invariants do not depend on the store.
            if saveFailure == nil, let writer {
                do { try writer.save(result); saved += 1 } catch { saveFailure = error }
            }
            counts[result.outcome.status, default: 0] += 1
            if result.record.record != nil { logged += 1 }
            if !result.violations.isEmpty { failed += 1 }
            if !quiet || !result.violations.isEmpty { print(result.line) }
        }
        print("simulated \(sessions) sessions (seed \(seed)): \(counts[.completed, default: 0]) completed, \(counts[.aborted, default: 0]) aborted, \(counts[.interrupted, default: 0]) interrupted; \(logged) health records")
        print("simulate: \(sessions - failed) passed, \(failed) failed")
        if let saveFailure {
            // Not an invariant failure: the sessions ran correctly; the store could not keep them.
            let failure = CommandFailure(saveFailure)
            throw CommandFailure(message: "Saving stopped after \(saved) of \(sessions) sessions: \(failure.description)", status: failure.status)
        }
        if failed > 0 { throw ExitCode(1) }
    }
}
