import ChronoCollector
import ChronoCore
import ChronoStore
import ChronoSync
import Foundation
import Testing

/// The one contract both stores keep, run against each (`StoreKind.available`: PostgreSQL when
/// CHRONOCEPTION_TEST_POSTGRES_URL names a server).
@Suite("Collector store contract")
struct CollectorStoreContractTests {
    typealias F = CollectorFixtures

    @Test(arguments: StoreKind.available)
    func enrolIngestAndReplayCountEachSessionOnce(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let key = try await F.enrol(store)
            let device = try #require(try await store.device(keySHA256: CollectorCredentials.keyDigest(key)))
            #expect(device.id == F.deviceID && device.name == "P001" && device.participant == "P001" && device.board == "pi-zero-2w")
            #expect(device.softwareVersion == "0.9.0" && device.lastSeenUnixNanoseconds == nil && !device.isRevoked)

            let sessions = [F.challenge(), F.passive()]
            let plan = try IngestPlan.validate(F.batch(sessions))
            let first = try await store.ingest(plan, deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            #expect(first.accepted == 2 && first.duplicates == 0 && first.acknowledgedThrough == 2)
            // The same batch again (its answer was lost): nothing stored twice.
            let replay = try await store.ingest(plan, deviceID: F.deviceID, nowUnixNanoseconds: F.now + 1)
            #expect(replay.accepted == 0 && replay.duplicates == 2)
            // A batch overlapping the first: only the new session counts.
            let overlap = try await store.ingest(try IngestPlan.validate(F.batch([sessions[1], F.challenge()], after: 1)),
                                                 deviceID: F.deviceID, nowUnixNanoseconds: F.now + 2)
            #expect(overlap.accepted == 1 && overlap.duplicates == 1)

            // The id is kept in canonical form (upper case, as devices write it); another case of the
            // same UUID is the same session, and so is a
            // session twice in one batch.
            let upper = F.challenge(id: UUID().uuidString.uppercased(), startedAgo: 60_000_000_000)
            var lower = upper
            lower.id = upper.id.lowercased()
            let cased = try await store.ingest(try IngestPlan.validate(F.batch([upper, upper, lower], after: 3)), deviceID: F.deviceID, nowUnixNanoseconds: F.now + 2)
            #expect(cased.accepted == 1 && cased.duplicates == 2)
            #expect(try await store.sessions(CollectorSessionQuery(limit: 1)).first?.session == upper)

            let devices = try await store.devices()
            #expect(devices.count == 1 && devices[0].sessionCount == 4 && devices[0].lastSeenUnixNanoseconds == F.now + 2)
            let stored = try await store.sessions(CollectorSessionQuery(device: "P001"))
            #expect(stored.count == 4)
            // Read back exactly as sent, attempts, boundaries and the unmeasured boundary included.
            let passive = try #require(stored.first { $0.session.id == sessions[1].id })
            #expect(passive.session == sessions[1] && passive.deviceName == "P001" && passive.participant == "P001")
            #expect(stored.first { $0.session.id == sessions[0].id }?.session == sessions[0])
            // Oldest first.
            #expect(stored.map(\.session.id).first == sessions[1].id)
            #expect(try await store.sessions(CollectorSessionQuery(device: F.deviceID, mode: "passive")).count == 1)
            #expect(try await store.sessions(CollectorSessionQuery(participant: "nobody")).isEmpty)
            #expect(try await store.sessions(CollectorSessionQuery(device: F.deviceID, mode: "challenge")).count == 3)
        }
    }

    @Test(arguments: StoreKind.available)
    func aRevokedKeyIsRefusedAndItsSessionsStay(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let key = try await F.enrol(store)
            _ = try await store.ingest(try IngestPlan.validate(F.batch([F.challenge()])), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            let revoked = try await store.revokeDevice(named: "P001", nowUnixNanoseconds: F.now + 5)
            #expect(revoked.revokedUnixNanoseconds == F.now + 5 && revoked.sessionCount == 1)
            #expect(try await store.device(keySHA256: CollectorCredentials.keyDigest(key))?.isRevoked == true)
            await #expect(throws: CollectorError.self) {
                _ = try await store.ingest(try IngestPlan.validate(F.batch([F.challenge()])), deviceID: F.deviceID, nowUnixNanoseconds: F.now + 6)
            }
            #expect(try await store.sessions(CollectorSessionQuery()).count == 1)
            // Revoking again names the problem: no enrolled device of that name.
            do {
                _ = try await store.revokeDevice(named: "P001", nowUnixNanoseconds: F.now + 7)
                Issue.record("revoked twice")
            } catch let error as CollectorError {
                guard case .unknownDevice(let message) = error else { Issue.record("\(error)"); return }
                #expect(message.contains("No enrolled device is called 'P001'"))
            }
            // Enrolled again with a new code: the same device, a new key, its history kept.
            let newKey = try await F.enrol(store)
            #expect(newKey != key)
            let device = try #require(try await store.device(keySHA256: CollectorCredentials.keyDigest(newKey)))
            #expect(device.id == F.deviceID && !device.isRevoked && device.sessionCount == 1)
            #expect(try await store.device(keySHA256: CollectorCredentials.keyDigest(key)) == nil)
        }
    }

    @Test(arguments: StoreKind.available)
    func aCodeWorksOnceAndNotAfterItExpires(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let code = CollectorCredentials.newCode()
            let digest = CollectorCredentials.codeDigest(code)!
            try await store.addEnrolment(PendingEnrolment(codeSHA256: digest, name: "P002", participant: nil, createdUnixNanoseconds: F.now,
                                                          expiresUnixNanoseconds: F.now + 60_000_000_000), nowUnixNanoseconds: F.now)
            // Expired: refused, and still unused.
            await #expect(throws: CollectorError.codeRefused("This enrolment code has expired. Ask for a new one (`chronoception-collector enrol P002`).")) {
                _ = try await store.redeemEnrolment(codeSHA256: digest, request: F.request(code: code), keySHA256: "k1",
                                                    nowUnixNanoseconds: F.now + 60_000_000_000)
            }
            let device = try await store.redeemEnrolment(codeSHA256: digest, request: F.request(code: code), keySHA256: "k1", nowUnixNanoseconds: F.now + 1)
            #expect(device.name == "P002" && device.participant == nil)
            await #expect(throws: CollectorError.codeRefused("This enrolment code was already used; each code enrols one device once. Ask for a new one.")) {
                _ = try await store.redeemEnrolment(codeSHA256: digest, request: F.request(code: code, device: F.otherDeviceID), keySHA256: "k2",
                                                    nowUnixNanoseconds: F.now + 2)
            }
            await #expect(throws: CollectorError.self) {
                _ = try await store.redeemEnrolment(codeSHA256: "0000", request: F.request(code: code), keySHA256: "k3", nowUnixNanoseconds: F.now + 2)
            }
            #expect(try await store.devices().map(\.id) == [F.deviceID])
            // The name is taken while P002 is enrolled.
            await #expect(throws: CollectorError.self) {
                try await store.addEnrolment(PendingEnrolment(codeSHA256: "other", name: "P002", participant: nil, createdUnixNanoseconds: F.now,
                                                              expiresUnixNanoseconds: F.now + 60_000_000_000), nowUnixNanoseconds: F.now + 3)
            }
        }
    }

    @Test(arguments: StoreKind.available)
    func preferencesMergeByLamportClockCollectorWinningTies(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await F.enrol(store)
            let fromDevice = StampedPreference(key: "default-interval", value: "5m", clock: 1, origin: .device)
            var receipt = try await store.ingest(try IngestPlan.validate(F.batch([], preferences: [fromDevice])), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            #expect(receipt.preferences == [StampedPreference(key: "default-interval", value: "5m 0s", clock: 1, origin: .device)])

            // Set on the collector: validated by the device's rule, one clock above what it has seen.
            let set = try await store.setPreference(deviceNamed: "P001", key: .defaultInterval, value: "90")
            #expect(set == StampedPreference(key: "default-interval", value: "1m 30s", clock: 2, origin: .collector))
            await #expect(throws: CollectorError.self) { _ = try await store.setPreference(deviceNamed: "P001", key: .defaultAttempts, value: "0") }
            await #expect(throws: CollectorError.self) { _ = try await store.setPreference(deviceNamed: "P001", key: .defaultMode, value: "fear") }

            // The device resends its older change: the collector's wins and comes back in the receipt.
            receipt = try await store.ingest(try IngestPlan.validate(F.batch([], preferences: [fromDevice])), deviceID: F.deviceID, nowUnixNanoseconds: F.now + 1)
            #expect(receipt.preferences == [set])
            // A concurrent change (same clock) from the device loses to the collector's.
            let tie = StampedPreference(key: "default-interval", value: "20m", clock: 2, origin: .device)
            receipt = try await store.ingest(try IngestPlan.validate(F.batch([], preferences: [tie])), deviceID: F.deviceID, nowUnixNanoseconds: F.now + 2)
            #expect(receipt.preferences == [set])
            // A change made after seeing it wins; unknown keys are left out.
            let later = StampedPreference(key: "default-interval", value: "20m", clock: 3, origin: .device)
            let local = StampedPreference(key: "health-log-file", value: "/x", clock: 9, origin: .device)
            receipt = try await store.ingest(try IngestPlan.validate(F.batch([], preferences: [later, local])), deviceID: F.deviceID, nowUnixNanoseconds: F.now + 3)
            #expect(receipt.preferences == [StampedPreference(key: "default-interval", value: "20m 0s", clock: 3, origin: .device)])
            let shown = try await store.preferences(deviceNamed: "P001")
            #expect(shown.preferences == receipt.preferences)
        }
    }

    @Test(arguments: StoreKind.available)
    func progressAndCSVAreTheDevicesNumbers(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await F.enrol(store)
            _ = try await F.enrol(store, name: "P001-b", participant: "P001", device: F.otherDeviceID)
            let a = F.challenge(startedAgo: 3_600_000_000_000, errorsMilliseconds: [500, -1000, 2000])
            let b = F.challenge(startedAgo: 9 * 86_400_000_000_000, errorsMilliseconds: [4000])
            let c = F.challenge(startedAgo: 1_800_000_000_000, errorsMilliseconds: [-250, 250])
            _ = try await store.ingest(try IngestPlan.validate(F.batch([a, b, F.passive()])), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            _ = try await store.ingest(try IngestPlan.validate(F.batch([c], device: F.otherDeviceID)), deviceID: F.otherDeviceID, nowUnixNanoseconds: F.now)

            let device = CollectorProgress.report(try await store.sessions(CollectorSessionQuery(device: "P001")), nowUnixNanoseconds: F.now, utcOffsetSeconds: 0)
            #expect(device.completedSessions == 3 && device.completedByMode[.passive] == 1 && device.completedByMode[.challenge] == 2)
            let ten = try #require(device.intervals.first)
            #expect(ten.interval.seconds == 10 && ten.completedSessions == 3)
            // Last 7 days: a's three attempts (0.5 + 1 + 2 s → mean 7/6 s); the 7 days before: b's one (4 s).
            #expect(ten.lastSevenDays.attemptCount == 3 && abs(ten.lastSevenDays.meanAbsErrorSeconds! - 3.5 / 3) < 1e-9)
            #expect(ten.sevenDaysBefore.attemptCount == 1 && ten.sevenDaysBefore.meanAbsErrorSeconds == 4)
            #expect(ten.trend == .improving)
            // Zones of the last attempts, oldest first: b's, then a's; Time Acuity from the same attempts, by the core.
            #expect(ten.lastZones.count == 4)
            let outcomes = [try b.validatedOutcome(), try a.validatedOutcome()]
            #expect(ten.lastZones == outcomes.flatMap { $0.attempts.map(\.zone) })
            let metrics = SessionMetrics(attempts: outcomes.flatMap(\.attempts))
            #expect(ten.timeAcuity == metrics.timeAcuityScore)
            #expect(device.recentSessions.first?.sessionID == a.id && device.recentSessions.first?.healthLog == "record")

            let participant = CollectorProgress.report(try await store.sessions(CollectorSessionQuery(participant: "P001")), nowUnixNanoseconds: F.now, utcOffsetSeconds: 0)
            #expect(participant.completedSessions == 4 && participant.intervals.first?.lastSevenDays.attemptCount == 5)

            var csv = ""
            CollectorCSV.write(try await store.sessions(CollectorSessionQuery()), to: { csv += $0 })
            let lines = csv.split(separator: "\r\n", omittingEmptySubsequences: true).map(String.init)
            #expect(lines[0] == CollectorCSV.columns.joined(separator: ","))
            #expect(lines[0].hasPrefix("device_id,device_name,participant,session_id,"))
            // One row per attempt or boundary: 3 + 1 + 3 (passive) + 2.
            let expectedLines = 10
            #expect(lines.count == expectedLines)
            let rowsOfA = lines.filter { $0.contains(a.id) }
            #expect(rowsOfA.count == 3 && rowsOfA.allSatisfy { $0.hasPrefix("\(F.deviceID),P001,P001,\(a.id),") })
            let healthColumn = CollectorCSV.columns.firstIndex(of: "health_log")!
            #expect(rowsOfA[0].split(separator: ",", omittingEmptySubsequences: false)[healthColumn] == "record")
            let aMetrics = try a.validatedOutcome().metrics
            let scoreColumn = CollectorCSV.columns.firstIndex(of: "time_acuity_score")!
            #expect(rowsOfA[0].split(separator: ",", omittingEmptySubsequences: false)[scoreColumn] == Substring(String(aMetrics.timeAcuityScore)))
        }
    }
}
