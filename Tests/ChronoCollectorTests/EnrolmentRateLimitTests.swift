import Testing
@testable import ChronoCollector

/// The enrolment rate limit on its own: refused attempts count per address and in all, forgiven
/// ones (that enrolled a device) do not, and each minute starts afresh.
@Suite("Enrolment rate limit")
struct EnrolmentRateLimitTests {
    @Test func forgivenAttemptsDoNotCountRefusedOnesDo() throws {
        let limit = EnrolmentRateLimit(perAddress: 2, overall: 100)
        for _ in 0..<50 {
            guard case .admitted(let ticket) = limit.admit(address: "desk", nowSeconds: 600) else { Issue.record("refused"); return }
            limit.forgive(ticket)
        }
        #expect(limit.admit(address: "desk", nowSeconds: 601) != .limited(retryAfterSeconds: 59))
        #expect(limit.admit(address: "desk", nowSeconds: 601) != .limited(retryAfterSeconds: 59))
        #expect(limit.admit(address: "desk", nowSeconds: 601) == .limited(retryAfterSeconds: 59))
        // Another address has its own budget; the next minute starts afresh.
        #expect(limit.admit(address: "elsewhere", nowSeconds: 601) == .admitted(.init(address: "elsewhere", window: 10)))
        #expect(limit.admit(address: "desk", nowSeconds: 660) == .admitted(.init(address: "desk", window: 11)))
    }

    @Test func inFlightAttemptsHoldTheirSlot() {
        // Parallel guesses cannot overshoot: an attempt counts from admission until forgiven.
        let limit = EnrolmentRateLimit(perAddress: 2, overall: 100)
        guard case .admitted(let first) = limit.admit(address: "a", nowSeconds: 0) else { Issue.record("refused"); return }
        #expect(limit.admit(address: "a", nowSeconds: 0) == .admitted(.init(address: "a", window: 0)))
        #expect(limit.admit(address: "a", nowSeconds: 0) == .limited(retryAfterSeconds: 60))
        limit.forgive(first)
        #expect(limit.admit(address: "a", nowSeconds: 0) == .admitted(.init(address: "a", window: 0)))
    }

    @Test func theOverallCapBoundsGuessingFromManyAddresses() {
        let limit = EnrolmentRateLimit(perAddress: 10, overall: 3)
        for index in 0..<3 { #expect(limit.admit(address: "bot\(index)", nowSeconds: 30) == .admitted(.init(address: "bot\(index)", window: 0))) }
        #expect(limit.admit(address: "bot9", nowSeconds: 30) == .limited(retryAfterSeconds: 30))
        #expect(limit.admit(address: "desk", nowSeconds: 45) == .limited(retryAfterSeconds: 15))
    }

    @Test func aTicketOfAnEarlierMinuteGivesNothingBack() {
        let limit = EnrolmentRateLimit(perAddress: 1, overall: 100)
        guard case .admitted(let old) = limit.admit(address: "a", nowSeconds: 59) else { Issue.record("refused"); return }
        #expect(limit.admit(address: "a", nowSeconds: 60) == .admitted(.init(address: "a", window: 1)))
        limit.forgive(old)
        #expect(limit.admit(address: "a", nowSeconds: 61) == .limited(retryAfterSeconds: 59))
    }
}
