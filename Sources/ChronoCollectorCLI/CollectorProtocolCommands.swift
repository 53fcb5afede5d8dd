import ArgumentParser
import ChronoCollector
import ChronoCommandLine
import ChronoCore
import ChronoStore
import Foundation

extension ChronoceptionCollector {
    /// `chronoception-collector protocol …`: study protocols and who follows them (docs/STUDIES.md).
    struct ProtocolCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "protocol",
            abstract: "Study protocols: load one, assign it to participants, see where each stands.",
            subcommands: [Load.self, List.self, Assign.self, Unassign.self, Status.self],
            defaultSubcommand: Status.self)

        struct Load: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Load a protocol file (JSON, docs/STUDIES.md). A name and version, once loaded, never change: a changed protocol is a new version.")
            @Argument(help: "The protocol's JSON file.") var file: String
            @OptionGroup var store: CollectorStoreOptions

            func run() throws {
                let shownPath = TerminalSafeText.quoted(file, limit: 200)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue,
                      let data = FileManager.default.contents(atPath: file) else {
                    throw CommandFailure(message: "Cannot read the protocol file \(shownPath): check the path (docs/STUDIES.md has an example).", status: .noInput)
                }
                guard let text = String(data: data, encoding: .utf8) else {
                    throw CommandFailure(message: "\(shownPath) is not UTF-8 text; save it as UTF-8 JSON.", status: .badInput)
                }
                let parsed: StudyProtocol
                do { parsed = try StudyProtocol.parse(text) } catch {
                    let count = error.problems.count
                    // One error line: the problems one after the other, each ending in its own full stop.
                    let problems = error.problems.map { $0.description.hasSuffix(".") || $0.description.hasSuffix("?") ? $0.description : $0.description + "." }
                    throw CommandFailure(message: "\(shownPath) is not a valid protocol (\(count) problem\(count == 1 ? "" : "s")): "
                                         + problems.joined(separator: " ") + " Fix the file and load it again.",
                                         status: .badInput)
                }
                try withCollectorStore(store) { opened in
                    let result = try await opened.loadStudyProtocol(name: parsed.name, version: parsed.version, document: text,
                                                                    fingerprint: parsed.fingerprint, nowUnixNanoseconds: LocalTimeZone.nowUnixNanoseconds())
                    if case .conflict = result {
                        let highest = try await opened.studyProtocols().filter { $0.name == parsed.name }.map(\.version).max() ?? parsed.version
                        throw CommandFailure(message: CollectorStudyText.loaded(parsed, result, nextVersion: highest + 1), status: .badInput)
                    }
                    print(CollectorStudyText.loaded(parsed, result))
                }
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the loaded protocols: blocks, sessions, days, participants following each.")
            @OptionGroup var store: CollectorStoreOptions

            func run() throws {
                try withCollectorStore(store) { opened in
                    for line in CollectorStudyText.list(try await opened.studyProtocols()) { print(line) }
                }
            }
        }

        struct Assign: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Assign a loaded protocol to a participant; their devices receive it with their next sync.")
            @Argument(help: "NAME or NAME@VERSION (without a version: the highest loaded).") var reference: String
            @Option(help: "The participant (as given at `enrol NAME --participant P`).") var participant: String
            @Option(help: "The day the study begins, YYYY-MM-DD; day 1 starts at 00:00 there, in this machine's time zone (default: today).")
            var start: String?
            @Option(help: "The seed of shuffled blocks, 0 to 9007199254740991 (default: random; it is recorded either way).") var seed: Int64?
            @OptionGroup var store: CollectorStoreOptions

            func run() throws {
                let now = LocalTimeZone.nowUnixNanoseconds()
                let (name, version): (String, Int?)
                let participant: String, startNanoseconds: Int64
                do {
                    (name, version) = try CollectorStudy.reference(reference)
                    participant = try CollectorCredentials.validName(self.participant)
                    startNanoseconds = try CollectorStudyText.start(date: start, nowUnixNanoseconds: now,
                                                                    utcOffsetSeconds: { LocalTimeZone.utcOffsetSeconds(atUnixSeconds: $0) })
                } catch { throw CollectorFailure.wrap(error) }
                if let seed, !StudyLimits.seeds.contains(seed) {
                    throw CommandFailure(message: "--seed \(seed) is out of range: use 0 to \(StudyLimits.seeds.upperBound).", status: .usage)
                }
                var generator = SystemRandomNumberGenerator()
                let chosenSeed = seed ?? Int64.random(in: StudyLimits.seeds, using: &generator)
                let request = StudyAssignRequest(participant: participant, protocolName: name, protocolVersion: version, seed: chosenSeed,
                                                 startUnixNanoseconds: startNanoseconds)
                try withCollectorStore(store) { opened in
                    let (record, change) = try await opened.assignStudy(request, nowUnixNanoseconds: now)
                    let hasDevice = try await opened.devices().contains { $0.participant == participant && !$0.isRevoked }
                    for line in CollectorStudyText.assigned(record, change, hasDevice: hasDevice) { print(line) }
                }
            }
        }

        struct Unassign: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "End a participant's assignment; their devices drop it at their next sync (sessions stay).")
            @Option(help: "The participant.") var participant: String
            @OptionGroup var store: CollectorStoreOptions

            func run() throws {
                let participant: String
                do { participant = try CollectorCredentials.validName(self.participant) } catch { throw CollectorFailure.wrap(error) }
                try withCollectorStore(store) { opened in
                    let record = try await opened.unassignStudy(participant: participant, nowUnixNanoseconds: LocalTimeZone.nowUnixNanoseconds())
                    print(CollectorStudyText.unassigned(record))
                }
            }
        }

        struct Status: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Where each assigned participant stands: study day, sessions done, due today, missed, upcoming, and when the next may start.")
            @OptionGroup var store: CollectorStoreOptions

            func run() throws {
                try withCollectorStore(store) { opened in
                    let now = LocalTimeZone.nowUnixNanoseconds()
                    var consents: [String: [StudyConsent.Record]] = [:]
                    for device in try await opened.devices() {
                        if let participant = device.participant, let consent = device.consent { consents[participant, default: []].append(consent) }
                    }
                    for line in CollectorStudyText.status(try await opened.studyStatus(nowUnixNanoseconds: now), nowUnixNanoseconds: now,
                                                          consents: consents) { print(line) }
                }
            }
        }
    }
}
