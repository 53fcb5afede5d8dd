import ChronoCollector
import ChronoCore
import ChronoSync
import Testing

private typealias F = CollectorFixtures

/// The study analysis's input and the tidy export, from stored sessions: produced = tap − start in
/// nanoseconds, the study tag's columns, boundary rows, and the codebook naming every column.
@Suite struct StudyExportTests {
    static let tag = StudyTag(protocolName: "sleep-2026", protocolVersion: 2, participant: "P07", blockIndex: 1, blockName: "post",
                              planPosition: 20, condition: "feedback-off", feedbackShown: false)

    static func stored(_ session: SyncedSession) -> CollectorSession {
        CollectorSession(deviceID: F.deviceID, deviceName: "pi-7", participant: "P07", session: session, receivedUnixNanoseconds: F.now)
    }

    @Test func observationsAreTapMinusStartWithTheStudyTag() {
        var tagged = F.challenge(id: "5d1c7a4e-2b3f-4c5d-8e9f-0a1b2c3d4e5f", errorsMilliseconds: [500, -1000])
        tagged.study = Self.tag
        let observations = StudyObservations.of([Self.stored(tagged), Self.stored(F.passive())])
        #expect(observations.map(\.producedNanoseconds) == [10_500_000_000, 9_000_000_000])
        #expect(observations.map(\.targetNanoseconds) == [10_000_000_000, 10_000_000_000])
        #expect(observations.allSatisfy { $0.group == AnalysisGroup(protocolName: "sleep-2026", protocolVersion: 2, condition: "feedback-off", mode: "challenge") })
        #expect(observations.allSatisfy { !$0.feedbackShown && $0.participant == "P07" && $0.device == "pi-7" })
        // Outside a study: no protocol or condition, feedback shown.
        let plain = StudyObservations.of([Self.stored(F.challenge(errorsMilliseconds: [0]))])
        #expect(plain.first?.group == AnalysisGroup(protocolName: nil, protocolVersion: nil, condition: nil, mode: "challenge"))
        #expect(plain.first?.feedbackShown == true)
    }

    @Test func tidyRowsForAttemptsAndBoundariesMatchTheCodebook() throws {
        var tagged = F.challenge(id: "5d1c7a4e-2b3f-4c5d-8e9f-0a1b2c3d4e5f", errorsMilliseconds: [500, -1000])
        tagged.study = Self.tag
        var text = ""
        TidyExport.write([Self.stored(tagged), Self.stored(F.passive(count: 2))]) { text += $0 }
        let lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let names = TidyCodebook.columns.map(\.name)
        #expect(lines[0] == names.joined(separator: ","))
        #expect(lines.count == 1 + 2 + 2)
        func row(_ line: String) -> [String: String] { Dictionary(uniqueKeysWithValues: zip(names, line.components(separatedBy: ","))) }
        let first = row(lines[1])
        #expect(first["participant"] == "P07" && first["protocol"] == "sleep-2026" && first["protocol_version"] == "2")
        #expect(first["block_index"] == "1" && first["block"] == "post" && first["plan_position"] == "20" && first["condition"] == "feedback-off")
        #expect(first["feedback_shown"] == "FALSE" && first["row_kind"] == "attempt" && first["index"] == "1")
        #expect(first["target_ns"] == "10000000000" && first["produced_ns"] == "10500000000" && first["error_ns"] == "500000000")
        #expect(first["relative_error"] == "0.05" && first["start_mono_ns"] == "6000000000" && first["end_mono_ns"] == "16500000000")
        #expect(first["start_unix_ns"] == String(F.now - 3_600_000_000_000 + 1_000_000_000))
        #expect(first["utc_offset_seconds"] == "3600" && first["wall_clock_synchronised"] == "TRUE" && first["timing_flagged"] == "FALSE")
        let second = row(lines[2])
        #expect(second["error_ns"] == "-1000000000" && second["relative_error"] == "-0.1")
        let boundary = row(lines[3])
        #expect(boundary["row_kind"] == "boundary" && boundary["protocol"] == "" && boundary["feedback_shown"] == "TRUE")
        #expect(boundary["produced_ns"] == "" && boundary["error_ns"] == "2000000" && boundary["start_mono_ns"] == "19000000000")
        let unmeasured = row(lines[4])
        #expect(unmeasured["end_mono_ns"] == "" && unmeasured["error_ns"] == "" && unmeasured["end_utc"] == "")
        #expect(TidyCodebook.columns.allSatisfy { !$0.meaning.isEmpty && !$0.type.isEmpty })
        #expect(TidyCodebook.csv.hasPrefix("column,type,unit,meaning\r\nparticipant,text,,"))
    }

    @Test func analysisCSVHasOneRowPerCellAndPerGroup() {
        var tagged = F.challenge(id: "5d1c7a4e-2b3f-4c5d-8e9f-0a1b2c3d4e5f", errorsMilliseconds: [500, -1000])
        tagged.study = Self.tag
        let analysis = StudyAnalysis(StudyObservations.of([Self.stored(tagged), Self.stored(F.challenge(intervalSeconds: 20, errorsMilliseconds: [100, 300]))]))
        let cells = StudyAnalysisCSV.text(analysis, table: .cells).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(cells.count == 3)
        #expect(cells[1].hasPrefix("P07,,,,challenge,20.0,2,"))
        #expect(cells[2].hasPrefix("P07,sleep-2026,2,feedback-off,challenge,10.0,2,9.75,0.975,"))
        let estimates = StudyAnalysisCSV.text(analysis, table: .estimates).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(estimates.count == 3)
        #expect(estimates[0] == StudyAnalysisCSV.estimateColumns.joined(separator: ","))
    }
}

extension StudyExportTests {
    @Test func aReproductionAttemptCarriesItsPresentedInterval() throws {
        var session = F.challenge(id: "5d1c7a4e-2b3f-4c5d-8e9f-0a1b2c3d4e5f", errorsMilliseconds: [500])
        session.mode = "reproduction"
        session.attempts[0].presentedStartMonotonicNanoseconds = 5_100_000_000
        session.attempts[0].presentedEndMonotonicNanoseconds = 5_900_000_000
        let row = try #require(TidyExport.rows(Self.stored(session)).first)
        let names = TidyCodebook.columns.map(\.name)
        let cells = Dictionary(uniqueKeysWithValues: zip(names, row))
        #expect(cells["mode"] == "reproduction" && cells["produced_ns"] == "10500000000")
        #expect(cells["presented_start_mono_ns"] == "5100000000" && cells["presented_end_mono_ns"] == "5900000000")
    }
}

extension StudyExportTests {
    @Test func theTerminalTextNamesTheGroupAndRoundsOnlyForDisplay() {
        var tagged = F.challenge(id: "5d1c7a4e-2b3f-4c5d-8e9f-0a1b2c3d4e5f", errorsMilliseconds: [500, -1000, 2000])
        tagged.study = Self.tag
        let lines = StudyAnalysisText.lines(StudyAnalysis(StudyObservations.of([Self.stored(tagged)])))
        #expect(lines == [
            "P07 · sleep-2026 v2 · feedback-off · challenge: 1 session, 3 attempts",
            "  bias +5.00% (95% CI −32.26% to +42.26%)",
            "  10s: n 3, mean 10.500 s, ratio 1.050, SD 1.500 s, CV 0.143",
        ])
        #expect(StudyAnalysisText.lines(StudyAnalysis([])) == ["No timed attempts yet: the analysis needs Challenge, Fear or Reproduction sessions."])
    }
}
