import ChronoCore
import Testing

@Suite("Requests from outside the button against the session's phase")
struct SessionRequestRuleTests {
    static let at = MonotonicInstant(nanoseconds: 5_000_000_000)

    @Test("no session: a start proceeds; end and discard find nothing running")
    func noSession() {
        #expect(SessionRequestRule.decide(.start, session: nil) == .proceed)
        #expect(SessionRequestRule.decide(.endPassive, session: nil) == .nothingRunning)
        #expect(SessionRequestRule.decide(.discard, session: nil) == .nothingRunning)
    }

    @Test("a session running: a start is refused as running; discard proceeds; end only for Passive")
    func running() {
        let attempt: (mode: SessionMode, phase: SessionPhase) = (.challenge, .attemptRunning(attempt: 1, startMark: Self.at))
        #expect(SessionRequestRule.decide(.start, session: attempt) == .sessionRunning)
        #expect(SessionRequestRule.decide(.discard, session: attempt) == .proceed)
        #expect(SessionRequestRule.decide(.endPassive, session: attempt) == .notPassive(.challenge))
        let passive: (mode: SessionMode, phase: SessionPhase) = (.passive, .passiveRunning(boundariesDone: 1, nextBoundary: Self.at))
        #expect(SessionRequestRule.decide(.endPassive, session: passive) == .proceed)
        #expect(SessionRequestRule.decide(.discard, session: (.fear, .waitingForStart(attempt: 2))) == .proceed)
        #expect(SessionRequestRule.decide(.start, session: (.challenge, .feedbackFlash(attempt: 1, until: Self.at))) == .sessionRunning)
    }

    @Test("the summary window after a session ended: already saved, nothing to end or discard; a start waits, not 'running'")
    func summaryWindow() {
        for mode in [SessionMode.challenge, .passive, .fear] {
            let summary: (mode: SessionMode, phase: SessionPhase) = (mode, .sessionSummary(until: Self.at))
            #expect(SessionRequestRule.decide(.discard, session: summary) == .alreadySaved)
            #expect(SessionRequestRule.decide(.endPassive, session: summary) == .alreadySaved)
            #expect(SessionRequestRule.decide(.start, session: summary) == .summaryShowing)
        }
        #expect(SessionRequestRule.decide(.discard, session: (.challenge, .completed)) == .alreadySaved)
    }
}
