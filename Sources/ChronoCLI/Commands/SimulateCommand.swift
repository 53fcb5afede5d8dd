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

    @Option(help: "reproduction: every session is a Reproduction session played by one person (--weber, --bias). Default: a mix of challenge, fear and passive.")
    var mode: SessionMode?

    @Option(help: "Reproduction: the person's Weber fraction, the SD of their reproduced durations over the mean (0 to 1; default 0.1).")
    var weber: Double?

    @Option(help: "Reproduction: the person's bias, mean reproduced ÷ target − 1 (−0.5 to 1; 0.05 = 5 % too long; default 0), as simulate-study's --bias.")
    var bias: Double?

    func validate() throws {
        guard sessions >= 1, sessions <= 10_000_000 else {
            throw ValidationError("--sessions must be between 1 and 10000000.")
        }
        if let mode, mode != .reproduction {
            throw ValidationError("--mode \(mode.rawValue): simulate mixes challenge, fear and passive by itself; --mode takes only reproduction.")
        }
        if mode == nil, weber != nil || bias != nil {
            throw ValidationError("--weber and --bias describe a Reproduction person: add --mode reproduction.")
        }
        if let weber, !(weber >= 0 && weber <= 1) {
            throw ValidationError("--weber \(weber) is out of range: give the Weber fraction from 0 to 1, for example 0.1.")
        }
        if let bias, !(bias >= -0.5 && bias <= 1) {
            throw ValidationError("--bias \(bias) is out of range: give mean reproduced ÷ target − 1 from -0.5 to 1, for example 0.05 for 5 % too long.")
        }
    }

    /// The Reproduction person, when `--mode reproduction` was given.
    private var person: SimulatedParticipant? {
        mode == .reproduction ? SimulatedParticipant(weberFraction: weber ?? 0.1, bias: bias ?? 0) : nil
    }

    func run() throws {
        var failed = 0
        var counts: [SessionStatus: Int] = [:]
        var logged = 0
        let writer = try dataDirectory.map { try SimulationStoreWriter(store: openChronoStore(StoreLocation(directory: $0)), sessions: sessions) }
        var saveFailure: (any Error)?
        var saved = 0
        SimulationRun(seed: seed, firstSessionUnixSeconds: writer?.firstSessionUnixSeconds ?? 1_795_000_000,
                      reproductionPerson: person).run(sessions: sessions) { result in
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
