import ChronoCollector
import ChronoCore
import ChronoStore
import ChronoSync
import Foundation
import Testing

/// The round-trip property of issue 33: generated finished sessions of every mode and status (aborted
/// and interrupted ones travel too), with and without a study tag and with feedback shown or withheld, come back unchanged through every form — the
/// fallback file and `import` into a device's store (its row, then its CSV), and the sync wire form,
/// a batch and a collector's row on each store (then the collector's CSV, which must equal the
/// device's). A field one form drops makes the comparison of that form fail.
@Suite("Session round trip: every form gives the session back")
struct SessionRoundTripPropertyTests {
    typealias F = CollectorFixtures

    /// A small deterministic generator (SplitMix64), so a failure names a seed that reproduces it.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
        mutating func bool() -> Bool { next() & 1 == 1 }
    }

    /// The tag of the example protocol's plan position `position`, for the participant the fixture
    /// device is enrolled for (P1, assigned sleep-2026@1 by `IngestStudyTagTests.setUp`).
    static func tag(position: Int, feedbackShown: Bool) -> StudyTag {
        StudyTag(protocolName: "sleep-2026", protocolVersion: 1, participant: "P1", blockIndex: feedbackShown ? 1 : 0,
                 blockName: feedbackShown ? "training" : "pre", planPosition: position,
                 condition: feedbackShown ? "feedback-on" : "feedback-off", feedbackShown: feedbackShown)
    }

    /// One finished session as the daemon hands it over, of `mode`, drawn from `g`.
    static func session(_ mode: SessionMode, number: Int, _ g: inout Generator) throws -> SessionFinishRecord {
        let interval = try TrainingInterval(seconds: [10, 15, 45, 90, 300, 7259][g.int(0...5)])
        let count = g.int(1...4)
        let study: StudyTag? = g.int(0...2) == 0 ? nil : tag(position: number % 28, feedbackShown: g.bool())
        let feedback: FeedbackPolicy = study.map { $0.feedbackShown ? .shown : .withheld } ?? .shown
        let configuration = try SessionConfiguration(
            mode: mode, interval: interval, plannedCount: count, fearThreshold: [0.05, 0.1, 0.25][g.int(0...2)],
            intervalPattern: IntervalPatternBook.candidates[g.int(0...5)],
            timing: SessionTiming(feedbackDuration: .milliseconds(Int64(g.int(0...3000))), abortConfirmWindow: .milliseconds(Int64(g.int(1...9000))),
                                  autoStartNextAttempt: g.bool()),
            gestures: GestureSettings(debounce: .milliseconds(Int64(g.int(0...40))), longPress: .milliseconds(Int64(g.int(500...3000)))),
            feedback: feedback)
        let start = MonotonicInstant(nanoseconds: Int64(g.int(1...1_000_000)) * 1_000_000)
        var cursor = start
        var attempts: [AttemptMeasurement] = []
        var boundaries: [PassiveBoundary] = []
        var fired: [MonotonicInstant] = []
        if mode.usesAttempts {
            for index in 1...count {
                var presentedStart: MonotonicInstant?, presentedEnd: MonotonicInstant?
                if mode == .reproduction {
                    presentedStart = cursor + .milliseconds(Int64(g.int(200...2000)))
                    presentedEnd = presentedStart! + interval.span
                    cursor = presentedEnd!
                }
                let begin = cursor + .milliseconds(Int64(g.int(300...4000)))
                let produced = interval.span.nanoseconds / 1000 * Int64(g.int(600...1400))
                let tap = begin + TimeSpan(nanoseconds: produced)
                attempts.append(AttemptMeasurement(index: index, target: interval, startMark: begin, tapMark: tap,
                                                   presentedStart: presentedStart, presentedEnd: presentedEnd))
                cursor = tap
            }
        } else {
            for index in 1...count {
                let due = start + interval.span * Int64(index)
                boundaries.append(PassiveBoundary(index: index, due: due))
                fired.append(due + TimeSpan(nanoseconds: Int64(g.int(0...5_000_000))))
                cursor = due
            }
        }
        let end = cursor + .milliseconds(Int64(g.int(1...900)))
        // Every status a finished session can have, each with the kind of reason the device records
        // (a completed one ended early for the battery has one too).
        let (status, reason): (SessionStatus, String?) = [
            (.completed, nil), (.completed, nil), (.completed, "Ended early: the battery (5 %) lasts about 13s more."),
            (.aborted, "Discarded by a long press."), (.interrupted, "The program stopped before the session ended (crash, power loss or kill)."),
        ][g.int(0...4)]
        let outcome = SessionOutcome(status: status, configuration: configuration, startedAt: start, endedAt: end,
                                     attempts: attempts, boundaries: boundaries, fearSoundEffective: mode == .fear && g.bool(), reason: reason,
                                     timingLateness: g.int(0...4) == 0 ? TimeSpan(nanoseconds: Int64(g.int(1...90_000_000))) : nil)
        let anchor = WallClockAnchor(unixNanoseconds: F.now - Int64(g.int(2...200)) * 3_600_000_000_000, monotonic: start,
                                     utcOffsetSeconds: [0, 3600, -18_000, 19_800][g.int(0...3)])
        let id = String(format: "%08X-0000-4000-8000-%012X", number, Int(g.next() % 0xFFFF_FFFF_FFFF))
        var finish = SessionFinishRecord(sessionID: id, outcome: outcome, anchor: anchor, board: ["desktop", "raspberry-pi-4b"][g.int(0...1)],
                                         boundariesFired: fired, wallClockSynchronised: true, soundAudibleAtStart: g.bool())
        finish.study = study
        finish.resultsWithheld = mode.usesAttempts && feedback == .withheld
        return finish
    }

    static func sessions(seed: UInt64, count: Int) throws -> [SessionFinishRecord] {
        var g = Generator(state: seed)
        let modes: [SessionMode] = [.challenge, .fear, .passive, .reproduction]
        return try (0..<count).map { try session(modes[$0 % modes.count], number: $0 + 1, &g) }
    }

    @Test("record → fallback file → import → device row → CSV, and record → sync batch → collector row → CSV, unchanged",
          arguments: StoreKind.available)
    func everyFormGivesTheSessionBack(kind: StoreKind) async throws {
        let finishes = try Self.sessions(seed: 33, count: 40)
        #expect(Set(finishes.map(\.outcome.mode)).count == 4)
        #expect(Set(finishes.map(\.outcome.status)) == [.completed, .aborted, .interrupted])
        #expect(finishes.contains { $0.study == nil } && finishes.contains { $0.resultsWithheld } && finishes.contains { $0.study?.feedbackShown == true })

        // The device: each session through its fallback file and `import`, into a store of its own.
        var template = Array("/tmp/chrono-roundtrip-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let device = try ChronoStore.open(StoreLocation(directory: directory))
        var deviceRows: [String: [[String]]] = [:]
        for finish in finishes {
            let imported = try UnsavedSessionFile.parse(UnsavedSessionFile.text(finish))
            #expect(imported == finish, "fallback file of \(finish.sessionID)")
            #expect(try device.recordSessionFinished(imported, nowUnixNanoseconds: F.now).stored)
            let stored = try device.session(id: finish.sessionID)
            #expect(stored.outcome == finish.outcome, "device row of \(finish.sessionID)")
            #expect(stored.anchor == finish.anchor && stored.board == finish.board && stored.study == finish.study)
            #expect(stored.boundariesFired == finish.boundariesFired.map { Optional($0) })
            // The record the device's API shows (`GET /sessions/{id}`'s `record`) and its outbox sends.
            let record = try #require(stored.record)
            #expect(record == SyncedSession(sessionID: finish.sessionID, outcome: finish.outcome, anchor: finish.anchor, board: finish.board,
                                            wallClockSynchronised: true, soundAudibleAtStart: finish.assumedSoundAudibleAtStart,
                                            boundariesFired: finish.boundariesFired, study: finish.study), "device record of \(finish.sessionID)")
            #expect(try JSONDecoder().decode(SyncedSession.self, from: Data(record.json.compactText.utf8)) == record, "record JSON of \(finish.sessionID)")
            deviceRows[finish.sessionID] = ChronoStore.csvRows(stored, resultsWithheld: finish.resultsWithheld)
        }

        // The collector: the wire form, as JSON, in one batch, into the store and back.
        let wires = finishes.map { finish in
            SyncedSession(sessionID: finish.sessionID, outcome: finish.outcome, anchor: finish.anchor, board: finish.board,
                          wallClockSynchronised: true, soundAudibleAtStart: finish.soundAudibleAtStart ?? false,
                          boundariesFired: finish.boundariesFired, study: finish.study)
        }
        for (wire, finish) in zip(wires, finishes) {
            let decoded = try JSONDecoder().decode(SyncedSession.self, from: try JSONEncoder().encode(wire))
            #expect(decoded == wire)
            #expect(try decoded.validatedOutcome() == finish.outcome, "wire form of \(finish.sessionID)")
        }
        try await kind.withStore { store in
            _ = try await IngestStudyTagTests.setUp(store)
            let receipt = try await store.ingest(try IngestPlan.validate(F.batch(wires)), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            #expect(receipt.accepted == wires.count && receipt.refused == nil)
            let stored = try await store.sessions(CollectorSessionQuery(device: F.deviceID))
            #expect(stored.count == wires.count)
            let health = ChronoStore.csvColumns.firstIndex(of: "health_log")!
            for wire in wires {
                let back = try #require(stored.first { $0.session.id == wire.id })
                #expect(back.session == wire, "collector row of \(wire.id)")
                let finish = try #require(finishes.first { $0.sessionID == wire.id })
                let collectorRows = CollectorCSV.rows(back, resultsWithheld: finish.resultsWithheld)
                let onDevice = try #require(deviceRows[wire.id])
                #expect(collectorRows.count == onDevice.count)
                for (collectorRow, deviceRow) in zip(collectorRows, onDevice) {
                    var expected = deviceRow
                    expected[health] = wire.healthDecision
                    #expect(Array(collectorRow.dropFirst(3)) == expected, "CSV of \(wire.id)")
                }
            }
        }
    }
}
