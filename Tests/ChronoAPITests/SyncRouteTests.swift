@testable import ChronoAPI
import ChronoCore
@testable import ChronoStore
import ChronoTesting
import Foundation
import Testing

/// `GET /api/v1/sync`: the fields, `sync status`'s own lines, and the Home's sentence after a day of failures.
@Suite("Sync route: the companion's Sync card")
struct SyncRouteTests {
    static let enrolment = SyncEnrolment(collectorURL: "http://127.0.0.1:8738", deviceKey: "secret", collectorID: "c", deviceName: "anna-pi",
                                         enrolledUnixNanoseconds: 1_000_000_000_000_000_000)

    @Test("the body, exactly: not enrolled, then failing for more than a day")
    func exactBody() {
        let utc: (Int64) -> Int = { _ in 0 }
        let alone = SyncState(deviceID: "D", enrolment: nil, cursor: 0, pending: 1, consecutiveFailures: 0)
        #expect(SyncRoutes.json(alone, copied: false, nowUnixNanoseconds: 0, offsetAt: utc).compactText
                == #"{"enrolled":false,"collector_url":null,"device_name":null,"device_id":"D","copied_from_another_machine":false,"pending":1,"last_success_at":null,"last_attempt_at":null,"consecutive_failures":0,"last_failure_code":null,"last_failure":null,"preference_problem":null,"lines":[{"label":"not enrolled","text":"run `chronoception sync add http://HOST:PORT --code CODE` (the code comes from `chronoception-collector enrol NAME`)"},{"label":"pending","text":"1 session (sent after enrolment)"},{"label":"device","text":"D"}],"attention":null}"#)
        var failing = SyncState(deviceID: "D", enrolment: Self.enrolment, cursor: 3, pending: 2, consecutiveFailures: 1)
        failing.lastSuccessUnixNanoseconds = Self.enrolment.enrolledUnixNanoseconds
        failing.lastAttemptUnixNanoseconds = Self.enrolment.enrolledUnixNanoseconds + 90_000_000_000_000
        failing.lastFailureCode = "no_route"
        failing.lastFailureMessage = "sync: cannot connect to the collector at 127.0.0.1:8738 (connection refused); check the collector is running."
        #expect(SyncRoutes.json(failing, copied: false, nowUnixNanoseconds: failing.lastAttemptUnixNanoseconds!, offsetAt: utc).compactText
                == #"{"enrolled":true,"collector_url":"http://127.0.0.1:8738","device_name":"anna-pi","device_id":"D","copied_from_another_machine":false,"pending":2,"last_success_at":"2001-09-09T01:46:40.000+00:00","last_attempt_at":"2001-09-10T02:46:40.000+00:00","consecutive_failures":1,"last_failure_code":"no_route","last_failure":"sync: cannot connect to the collector at 127.0.0.1:8738 (connection refused); check the collector is running.","preference_problem":null,"lines":[{"label":"collector","text":"http://127.0.0.1:8738 as 'anna-pi'"},{"label":"pending","text":"2 sessions"},{"label":"last success","text":"2001-09-09 01:46"},{"label":"failing (2001-09-10 02:46, the first failure)","text":"cannot connect to the collector at 127.0.0.1:8738 (connection refused); check the collector is running."},{"label":"device","text":"D"}],"attention":"Sessions have not reached the collector for more than a day (2 sessions waiting). See Sync in Settings."}"#)
    }

    @Test("served from the store: enrolment, pending, a recorded failure in words, then a success clears it")
    func fromTheStore() async throws {
        try await APIHarness.with { api in
            try api.addChallenge(sid("S1"), daysAgo: 1, elapsed: [61])
            var json = try await api.request("/api/v1/sync").json
            #expect(json["enrolled"] as? Bool == false)
            #expect(json["pending"] as? Int == 1)
            try api.store.saveSyncEnrolment(Self.enrolment)
            try api.store.recordSyncFailure(code: "no_route", message: "sync: the collector at http://127.0.0.1:8738 did not answer within 10 s; check it.",
                                            nowUnixNanoseconds: APIHarness.now)
            json = try await api.request("/api/v1/sync").json
            #expect(json["enrolled"] as? Bool == true)
            #expect(json["consecutive_failures"] as? Int == 1)
            #expect(json["last_failure"] as? String == "sync: the collector at http://127.0.0.1:8738 did not answer within 10 s; check it.")
            let lines = try #require(json["lines"] as? [[String: String]])
            #expect(lines.map { $0["label"] ?? "" }.first == "collector")
            #expect(lines.contains { ($0["label"] ?? "").hasPrefix("failing (") && "sync: " + ($0["text"] ?? "") == json["last_failure"] as? String })
            // Enrolled long before "now" and never a success: the Home's sentence.
            #expect((json["attention"] as? String)?.hasPrefix("Sessions have not reached the collector for more than a day") == true)
            try api.store.recordSyncSuccess(acknowledgedThrough: 1, preferences: [], nowUnixNanoseconds: APIHarness.now + 1)
            json = try await api.request("/api/v1/sync").json
            #expect(json["pending"] as? Int == 0)
            #expect(json["last_failure"] is NSNull)
            #expect(json["attention"] is NSNull)
            #expect(json["last_success_at"] as? String != nil)
        }
    }
}
