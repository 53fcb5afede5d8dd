import ChronoCore

/// A simulated participant whose timing is known: each produced duration is
/// `target · (1 + bias) · (1 + weberFraction · g)` with g standard normal, so the mean produced
/// duration is `(1 + bias) · target` and its SD is `weberFraction` times that mean — the scalar
/// property with slope `weberFraction` exactly. What the study analysis must recover
/// (Tests/studies/recovery).
public struct SimulatedParticipant: Hashable, Sendable {
    public var weberFraction: Double
    public var bias: Double

    public init(weberFraction: Double, bias: Double) {
        self.weberFraction = weberFraction
        self.bias = bias
    }
}

/// One planned session as the simulated participant played it through the engine on a virtual
/// clock, with the tag and the wall-clock anchor a device would have given it.
public struct SimulatedStudySession: Sendable {
    public var planned: StudyPlan.Session
    public var tag: StudyTag
    public var sessionID: String
    public var configuration: SessionConfiguration
    public var anchor: WallClockAnchor
    public var outcome: SessionOutcome
    /// The (start, tap) marks the person made, which the engine's outcome must hold exactly.
    public var expectedMarks: [(start: MonotonicInstant, tap: MonotonicInstant)]

    /// Whether the engine recorded exactly the person's presses, and completed.
    public var isFaithful: Bool {
        outcome.status == .completed && outcome.attempts.count == expectedMarks.count
            && zip(outcome.attempts, expectedMarks).allSatisfy { $0.startMark == $1.start && $0.tapMark == $1.tap }
    }
}

/// Plays a participant's plan (`StudyPlan`) day by day: each attempt-mode session is one start press
/// and one end press per attempt, a clean press (no bounces, no aborts: the point is the timing),
/// fed to the real engine; slot s of study day d starts at 09:00 UTC + s · max(4 h, the protocol's
/// minimum gap) on `firstDayUnixSeconds` + d days. Passive sessions are left out (nothing to
/// time). Deterministic for a given seed.
///
/// Reproduction is played as its two presses (start, end); the presented interval before it is the
/// engine's business.
public enum SimulatedStudy {
    public static func sessions(plan: StudyPlan, person: SimulatedParticipant, firstDayUnixSeconds: Int64, seed: UInt64) -> [SimulatedStudySession] {
        var random = SplitMix64(seed: seed)
        let gapSeconds = max(4 * 3600, Int64(plan.schedule.minimumGapMinutes) * 60)
        var sessions: [SimulatedStudySession] = []
        for planned in plan.sessions where planned.mode.usesAttempts {
            guard let configuration = try? SessionConfiguration(
                mode: planned.mode, interval: planned.interval, plannedCount: planned.count, fearThreshold: planned.fearThreshold,
                feedback: planned.feedback) else { continue }
            var events: [SessionEvent] = []
            var marks: [(start: MonotonicInstant, tap: MonotonicInstant)] = []
            let target = Double(configuration.interval.span.nanoseconds)
            var now = MonotonicInstant.zero + milliseconds(800...2500, &random)
            var attemptStart = MonotonicInstant.zero
            for _ in 0..<configuration.plannedCount {
                var start = now
                if configuration.mode == .reproduction {
                    // The interval is presented first; the reproduction starts after its end mark.
                    let presentedEnd = SimulatedParticipant.presentationEnd(attemptStart: attemptStart, interval: configuration.interval)
                    start = max(start, presentedEnd + milliseconds(250...900, &random))
                }
                press(at: start, &events, &random)
                var factor = (1 + person.bias) * (1 + person.weberFraction * random.nextGaussian())
                // A produced duration is at least half a second past the start press's release.
                factor = max(factor, 0.05)
                var tap = start + TimeSpan(nanoseconds: Int64((target * factor).rounded()))
                tap = max(tap, start + .milliseconds(700))
                let release = press(at: tap, &events, &random)
                marks.append((start, tap))
                attemptStart = release + configuration.timing.feedbackDuration
                now = attemptStart + milliseconds(400...2500, &random)
            }
            let transcript = VirtualClock.run(configuration: configuration, soundAudible: true, inputs: events.sorted { $0.instant < $1.instant })
            let startSeconds = firstDayUnixSeconds + Int64(planned.day) * 86_400 + 9 * 3600 + Int64(planned.slot) * gapSeconds
            let anchor = WallClockAnchor(unixNanoseconds: startSeconds * 1_000_000_000, monotonic: .zero, utcOffsetSeconds: 0)
            sessions.append(SimulatedStudySession(
                planned: planned, tag: plan.tag(for: planned),
                sessionID: SessionIdentifier.derived(from: "study:\(plan.protocolName):\(plan.protocolVersion):\(plan.participant):\(seed):\(planned.position)"),
                configuration: configuration, anchor: anchor, outcome: transcript.settledOutcome(reason: "observation ended"),
                expectedMarks: marks))
        }
        return sessions
    }

    static func milliseconds(_ range: ClosedRange<Int64>, _ random: inout SplitMix64) -> TimeSpan {
        .nanoseconds(Int64.random(in: range, using: &random) * 1_000_000 + Int64.random(in: 0..<1_000_000, using: &random))
    }

    /// A clean press of 60–250 ms; returns its release.
    @discardableResult
    static func press(at instant: MonotonicInstant, _ events: inout [SessionEvent], _ random: inout SplitMix64) -> MonotonicInstant {
        let release = instant + milliseconds(60...250, &random)
        events.append(.button(RawButtonEdge(pressed: true, at: instant)))
        events.append(.button(RawButtonEdge(pressed: false, at: release)))
        return release
    }
}
