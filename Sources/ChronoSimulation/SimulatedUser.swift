import ChronoCore

/// One session as a simulated person plays it: the configuration, the button edges they make (with
/// bounces), the sound they lose, and what an observer who watched them expects the engine to report.
public struct SimulatedScenario: Sendable {
    public var configuration: SessionConfiguration
    public var soundAudible: Bool
    public var inputs: [SessionEvent]
    public var expectedStatus: SessionStatus
    /// Challenge/Fear: the (start, tap) marks of every attempt the person completed.
    public var expectedMarks: [(start: MonotonicInstant, tap: MonotonicInstant)]
    /// Passive: how many boundaries should have been reached.
    public var expectedBoundaries: Int
    /// When sound was lost, if it was.
    public var soundLostAt: MonotonicInstant?
    /// Reproduction: the presses the person made during a presentation (the engine ignores and counts them).
    public var expectedPressesDuringPresentation: Int = 0
    /// What the person did that was out of the ordinary, for the report line.
    public var behaviours: [String]
}

/// A simulated person: random timing errors and bias, bouncing contacts, extra taps, long presses
/// (answered, withdrawn or left to lapse), aborts, lost sound, early Passive ends and sessions that
/// are cut off. Deterministic for a given generator state.
public struct SimulatedUser {
    static let commonIntervals = [10, 15, 30, 45, 60, 90, 120, 180, 300, 300, 300, 600, 900, 1200, 1800, 3600, 7259]

    public static func scenario(using random: inout SplitMix64) -> SimulatedScenario {
        let modeRoll = Double.random(in: 0..<1, using: &random)
        let mode: SessionMode = modeRoll < 0.4 ? .challenge : (modeRoll < 0.65 ? .fear : .passive)
        let seconds = random.chance(0.8)
            ? commonIntervals.randomElement(using: &random)!
            : Int.random(in: TrainingInterval.minimumSeconds...TrainingInterval.maximumSeconds, using: &random)
        let interval = try! TrainingInterval(seconds: seconds)
        let timing = SessionTiming(autoStartNextAttempt: random.chance(0.3))
        let patternIndex = Int.random(in: 0..<IntervalPatternBook.candidates.count, using: &random)
        let count = mode == .passive ? Int.random(in: 1...12, using: &random) : Int.random(in: 1...6, using: &random)
        let threshold = [0.05, 0.10, 0.20].randomElement(using: &random)!
        let configuration = try! SessionConfiguration(
            mode: mode, interval: interval, plannedCount: count, fearThreshold: threshold,
            intervalPattern: IntervalPatternBook.candidates[patternIndex], timing: timing)
        let soundAudible = mode == .fear ? random.chance(0.85) : true
        var script = Script(configuration: configuration, random: random)
        if mode == .passive { script.playPassive() } else { script.playAttempts() }
        random = script.random
        return SimulatedScenario(
            configuration: configuration, soundAudible: soundAudible,
            inputs: script.events.sorted { $0.instant < $1.instant },
            expectedStatus: script.status, expectedMarks: script.marks,
            expectedBoundaries: script.boundaries, soundLostAt: script.soundLostAt, behaviours: script.behaviours)
    }

    /// Reproduction intervals: the range timing studies use most, a few longer.
    static let reproductionIntervals = [10, 12, 15, 20, 24, 30, 40, 45, 60, 90, 120, 300]

    /// One Reproduction session played by `person`: for each attempt the person waits out the
    /// presentation (sometimes pressing during it, which the engine must ignore and count), presses to
    /// start their reproduction 0.25–1.5 s after the end mark and presses again after a duration
    /// drawn from `person` (Normal(B·T, W·B·T)); contacts bounce, and a few sessions are discarded
    /// (two long presses during a presentation) or cut off. Deterministic for a given generator state.
    public static func reproductionScenario(person: SimulatedParticipant, feedback: FeedbackPolicy = .shown,
                                            using random: inout SplitMix64) -> SimulatedScenario {
        let interval = try! TrainingInterval(seconds: reproductionIntervals.randomElement(using: &random)!)
        let count = Int.random(in: 1...6, using: &random)
        let configuration = try! SessionConfiguration(
            mode: .reproduction, interval: interval, plannedCount: count, feedback: feedback)
        var script = Script(configuration: configuration, random: random)
        script.playReproduction(person: person)
        random = script.random
        var scenario = SimulatedScenario(
            configuration: configuration, soundAudible: true,
            inputs: script.events.sorted { $0.instant < $1.instant },
            expectedStatus: script.status, expectedMarks: script.marks,
            expectedBoundaries: 0, soundLostAt: nil, behaviours: script.behaviours)
        scenario.expectedPressesDuringPresentation = script.pressesDuringPresentation
        return scenario
    }
}

/// Builds one scenario's edges step by step, tracking what should come of them.
private struct Script {
    let configuration: SessionConfiguration
    var random: SplitMix64
    var events: [SessionEvent] = []
    var status: SessionStatus = .completed
    var marks: [(start: MonotonicInstant, tap: MonotonicInstant)] = []
    var boundaries = 0
    var soundLostAt: MonotonicInstant?
    var behaviours: [String] = []
    var pressesDuringPresentation = 0

    init(configuration: SessionConfiguration, random: SplitMix64) {
        self.configuration = configuration
        self.random = random
    }

    var debounce: TimeSpan { configuration.gestures.debounce }
    var longPressThreshold: TimeSpan { configuration.gestures.longPress }

    mutating func milliseconds(_ range: ClosedRange<Int64>) -> TimeSpan {
        // Random sub-millisecond noise too, so that nothing lines up on round numbers by accident.
        .nanoseconds(Int64.random(in: range, using: &random) * 1_000_000 + Int64.random(in: 0..<1_000_000, using: &random))
    }

    /// A press held for `hold`; contacts may bounce on both edges (up to five edges, all inside the
    /// debounce window). Returns the instant of the release edge that counts.
    @discardableResult
    mutating func press(at start: MonotonicInstant, hold: TimeSpan) -> MonotonicInstant {
        bounce(pressed: true, at: start)
        let release = start + hold
        bounce(pressed: false, at: release)
        return release
    }

    private mutating func bounce(pressed: Bool, at start: MonotonicInstant) {
        events.append(.button(RawButtonEdge(pressed: pressed, at: start)))
        guard random.chance(0.4) else { return }
        let pairs = Int.random(in: 1...2, using: &random)
        var offset = Int64(0)
        let window = debounce.nanoseconds - 1_000_000
        for _ in 0..<pairs {
            offset += Int64.random(in: 500_000...(window / 4), using: &random)
            events.append(.button(RawButtonEdge(pressed: !pressed, at: start + .nanoseconds(offset))))
            offset += Int64.random(in: 500_000...(window / 4), using: &random)
            events.append(.button(RawButtonEdge(pressed: pressed, at: start + .nanoseconds(offset))))
        }
        if !behaviours.contains("bounces") { behaviours.append("bounces") }
    }

    mutating func tapHold() -> TimeSpan { milliseconds(60...400) }
    mutating func longHold() -> TimeSpan { longPressThreshold + milliseconds(100...900) }

    // MARK: Challenge and Fear

    mutating func playAttempts() {
        let target = configuration.interval.span
        let bias = random.nextGaussian() * 0.05
        let spread = Double.random(in: 0.01...0.25, using: &random)
        var now = MonotonicInstant.zero + milliseconds(300...3000)
        var previousFlashEnd: MonotonicInstant?
        let cutOffAttempt = random.chance(0.05) ? Int.random(in: 1...configuration.plannedCount, using: &random) : nil
        if configuration.mode == .fear, random.chance(0.25) {
            let horizon = target.nanoseconds * Int64(configuration.plannedCount) + 10_000_000_000
            soundLostAt = .zero + .nanoseconds(Int64.random(in: 0...horizon, using: &random))
            events.append(.soundLost(at: soundLostAt!))
            behaviours.append("sound lost")
        }

        for attempt in 1...configuration.plannedCount {
            let start: MonotonicInstant
            if let flashEnd = previousFlashEnd, configuration.timing.autoStartNextAttempt {
                start = flashEnd
                now = flashEnd + milliseconds(50...500)
            } else {
                start = now
                now = press(at: start, hold: tapHold()) + milliseconds(200...1500)
            }
            if random.chance(0.08) {
                if !longPressInterlude(now: &now) { return }
            }
            var elapsed = TimeSpan(nanoseconds: Int64(Double(target.nanoseconds) * (1 + bias + spread * random.nextGaussian())))
            if start + elapsed < now { elapsed = now - start + milliseconds(10...300) }
            let tap = start + elapsed
            if cutOffAttempt == attempt {
                events.append(.endRequested(at: tap - .milliseconds(5)))
                status = .interrupted
                behaviours.append("cut off")
                return
            }
            let release = press(at: tap, hold: tapHold())
            marks.append((start, tap))
            let flashEnd = release + configuration.timing.feedbackDuration
            if attempt < configuration.plannedCount, random.chance(0.2) {
                press(at: release + milliseconds(150...800), hold: milliseconds(60...200))
                if !behaviours.contains("extra taps") { behaviours.append("extra taps") }
            }
            previousFlashEnd = flashEnd
            now = flashEnd + milliseconds(300...3000)
        }
    }

    /// A long press while an attempt runs, then one of: a second long press (discard), a tap (go on),
    /// or nothing until the request lapses. Returns false when the session was discarded.
    private mutating func longPressInterlude(now: inout MonotonicInstant) -> Bool {
        let first = now
        let recognized = first + longPressThreshold
        let release = press(at: first, hold: longHold())
        let choice = Int.random(in: 0..<3, using: &random)
        switch choice {
        case 0:
            press(at: release + milliseconds(200...800), hold: longHold())
            status = .aborted
            behaviours.append("aborted")
            return false
        case 1:
            let answer = release + milliseconds(200...1000)
            now = press(at: answer, hold: tapHold()) + milliseconds(200...800)
            behaviours.append("abort withdrawn")
        default:
            now = max(release, recognized + configuration.timing.abortConfirmWindow) + milliseconds(100...1000)
            behaviours.append("abort lapsed")
        }
        return true
    }

    // MARK: Reproduction

    mutating func playReproduction(person: SimulatedParticipant) {
        let interval = configuration.interval
        var attemptStart = MonotonicInstant.zero
        let discardAttempt = random.chance(0.05) ? Int.random(in: 1...configuration.plannedCount, using: &random) : nil
        let cutOffAttempt = random.chance(0.05) ? Int.random(in: 1...configuration.plannedCount, using: &random) : nil
        for attempt in 1...configuration.plannedCount {
            let presentedEnd = SimulatedParticipant.presentationEnd(attemptStart: attemptStart, interval: interval)
            if discardAttempt == attempt {
                // Two long presses inside the presentation: asked, then confirmed.
                let first = attemptStart + milliseconds(300...1500)
                let release = press(at: first, hold: longHold())
                press(at: release + milliseconds(200...800), hold: longHold())
                status = .aborted
                behaviours.append("aborted")
                return
            }
            if random.chance(0.25) {
                // An impatient press while the interval is presented: ignored, and counted.
                let latest = presentedEnd.nanoseconds - 700_000_000
                let at = MonotonicInstant(nanoseconds: Int64.random(in: (attemptStart.nanoseconds + 300_000_000)...latest, using: &random))
                press(at: at, hold: milliseconds(60...200))
                pressesDuringPresentation += 1
                if !behaviours.contains("presses during presentation") { behaviours.append("presses during presentation") }
            }
            let start = presentedEnd + milliseconds(250...1500)
            let startHold = tapHold()
            let startRelease = press(at: start, hold: startHold)
            let produced = person.producedDuration(for: interval, minimum: startHold + .milliseconds(100), using: &random)
            let tap = max(start + produced, startRelease + .milliseconds(100))
            if cutOffAttempt == attempt {
                events.append(.endRequested(at: tap - .milliseconds(5)))
                status = .interrupted
                behaviours.append("cut off")
                return
            }
            let release = press(at: tap, hold: tapHold())
            marks.append((start, tap))
            attemptStart = release + configuration.timing.feedbackDuration
        }
    }

    // MARK: Passive

    mutating func playPassive() {
        let interval = configuration.interval.span
        let planned = Int64(configuration.plannedCount)
        let full = interval * planned
        let roll = Double.random(in: 0..<1, using: &random)
        var endAt: MonotonicInstant?
        if roll >= 0.5 {
            endAt = MonotonicInstant(nanoseconds: Int64.random(in: 1_000_000...(full.nanoseconds - 1_000_000), using: &random))
        }
        // Taps do nothing in Passive; make some, well before any early end.
        let tapHorizon = min(full.nanoseconds / 2, (endAt?.nanoseconds ?? full.nanoseconds) - 2_000_000_000)
        if tapHorizon > 1_000_000_000, random.chance(0.3) {
            press(at: MonotonicInstant(nanoseconds: Int64.random(in: 1_000_000_000...tapHorizon, using: &random)), hold: tapHold())
            behaviours.append("taps in Passive")
        }
        guard let endAt else {
            boundaries = Int(planned)
            return
        }
        let endsAt: MonotonicInstant
        if roll < 0.85 {
            // A long press ends the session when it is recognised.
            press(at: endAt, hold: longHold())
            endsAt = endAt + longPressThreshold
            behaviours.append("ended early by long press")
        } else {
            events.append(.endRequested(at: endAt))
            endsAt = endAt
            behaviours.append("ended early")
        }
        boundaries = min(Int(planned), Int(endsAt.nanoseconds / interval.nanoseconds))
        status = boundaries == 0 ? .aborted : .completed
    }
}
