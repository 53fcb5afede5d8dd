import ArgumentParser
import ChronoCommandLine
import ChronoCore
import ChronoSimulation
import ChronoStore

/// `chronoception simulate-study`: a simulated participant with a known Weber fraction and bias runs a
/// protocol's whole plan on virtual days, through the real engine, into a device's store — tagged as a
/// device tags planned sessions — so a study can be tried end to end (sync, the collector's analysis,
/// the tidy export) without hardware, and so the analysis can be shown to recover what it was given
/// (Tests/studies/recovery, docs/STUDIES.md).
struct SimulateStudyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate-study",
        abstract: "Play a protocol's plan as a simulated participant with a known Weber fraction and bias, into a store.")

    @Option(name: .customLong("protocol"), help: "The protocol file (JSON, docs/STUDIES.md).") var protocolPath: String
    @Option(help: "The participant's code.") var participant: String
    @Option(name: .customLong("participant-index"), help: "The participant's place among those assigned (picks the counterbalancing row).")
    var participantIndex: Int = 0
    @Option(help: "The seed of the plan's shuffles and of the person's timing.") var seed: Int64 = 1
    @Option(help: "The person's Weber fraction: SD of a produced duration ÷ its mean (0 to 1).") var weber: Double = 0.1
    @Option(help: "The person's bias: mean produced ÷ target − 1 (−0.5 to 1; 0.05 = 5 % too long).") var bias: Double = 0
    @Option(name: .customLong("first-day"), help: "The study's first day, YYYY-MM-DD (default: the plan ends yesterday, UTC).")
    var firstDay: String?
    @Option(name: .customLong("data-dir"), help: "The store to write into (the device's data directory).") var dataDirectory: String?

    func validate() throws {
        guard weber >= 0, weber <= 1 else { throw ValidationError("--weber must be between 0 and 1, e.g. 0.1.") }
        guard bias >= -0.5, bias <= 1 else { throw ValidationError("--bias must be between -0.5 and 1, e.g. 0.05.") }
        guard (0..<10_000).contains(participantIndex) else { throw ValidationError("--participant-index must be between 0 and 9999.") }
        guard seed >= 0 else { throw ValidationError("--seed must be 0 or more.") }
        if let firstDay, CalendarDay(parsing: firstDay) == nil {
            throw ValidationError("--first-day must be a date YYYY-MM-DD \(CalendarDay.rangeText), e.g. 2026-11-01.")
        }
    }

    func run() throws {
        let bytes = try InputFile.read(protocolPath, what: "The protocol file \(TerminalSafeText.quoted(protocolPath, limit: 200))", limit: 1 << 20)
        let studyProtocol: StudyProtocol
        do { studyProtocol = try StudyProtocol.parse(String(decoding: bytes, as: UTF8.self)) } catch {
            throw CommandFailure(message: "The protocol file is not a valid protocol: \(error.description)", status: .badInput)
        }
        if let problem = StudyNames.labelProblem(participant, what: "--participant") {
            throw CommandFailure(message: problem + ".", status: .usage)
        }
        let plan = StudyPlan(studyProtocol: studyProtocol, participant: participant, participantIndex: participantIndex, seed: seed)
        let now = LocalTimeZone.nowUnixNanoseconds() / 1_000_000_000
        let first = firstDay.flatMap(CalendarDay.init(parsing:)).map { $0.unixNanoseconds() / 1_000_000_000 }
            ?? (now / 86_400 - Int64(studyProtocol.schedule.days)) * 86_400
        let sessions = SimulatedStudy.sessions(plan: plan, person: SimulatedParticipant(weberFraction: weber, bias: bias),
                                               firstDayUnixSeconds: first, seed: UInt64(seed))
        let unfaithful = sessions.filter { !$0.isFaithful }
        if let store = try dataDirectory.map({ try openChronoStore(StoreLocation(directory: $0)) }) {
            for session in sessions where session.isFaithful {
                var start = SessionStartRecord(sessionID: session.sessionID, configuration: session.configuration, anchor: session.anchor,
                                               board: "simulator", soundAudible: true, wallClockSynchronised: true)
                start.study = session.tag
                try store.recordSessionStarted(start)
                _ = try store.recordSessionFinished(
                    SessionFinishRecord(sessionID: session.sessionID, outcome: session.outcome, anchor: session.anchor, board: "simulator",
                                        wallClockSynchronised: true),
                    nowUnixNanoseconds: session.anchor.unixNanoseconds(at: session.outcome.endedAt))
            }
        }
        let attempts = sessions.reduce(0) { $0 + $1.outcome.attempts.count }
        print("simulated \(TerminalSafeText.sanitized(participant, keepNewlines: false)) (Weber fraction \(weber), bias \(bias)) on \(studyProtocol.name) v\(studyProtocol.version): \(sessions.count) sessions, \(attempts) attempts over \(studyProtocol.schedule.days) days")
        if !unfaithful.isEmpty {
            throw CommandFailure(message: "\(unfaithful.count) simulated session(s) did not record the person's presses as made (first: plan position \(unfaithful[0].planned.position), \(unfaithful[0].planned.mode.rawValue)); they were not saved.", status: .checkFailed)
        }
    }
}
