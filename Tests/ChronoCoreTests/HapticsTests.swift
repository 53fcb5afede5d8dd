import Testing
@testable import ChronoCore

@Suite("Haptic vocabulary")
struct HapticsTests {
    @Test("every cue differs from every other cue and from every interval pattern")
    func cuesDistinct() {
        let cuePatterns = HapticCue.all.map(\.pattern)
        #expect(Set(cuePatterns).count == cuePatterns.count)
        let intervalPatterns = Set(IntervalPatternBook.candidates)
        for pattern in cuePatterns { #expect(!intervalPatterns.contains(pattern)) }
    }

    @Test("interval patterns: 62, unique, simplest first")
    func candidates() {
        let candidates = IntervalPatternBook.candidates
        #expect(candidates.count == 62)
        #expect(Set(candidates).count == 62)
        #expect(candidates.prefix(7).map(\.description) == ["S", "L", "S S", "S L", "L S", "L L", "S S S"])
        #expect(candidates.allSatisfy { $0.isIntervalPattern })
    }

    @Test("patterns are assigned in rank order and never change once assigned")
    func stableAssignment() throws {
        let five = TrainingInterval.builtInPreset, one = try TrainingInterval(seconds: 60), ten = try TrainingInterval(seconds: 600)
        var book = IntervalPatternBook()
        book.assign(ranked: [five, one])
        #expect(book.pattern(for: five)?.description == "S")
        #expect(book.pattern(for: one)?.description == "L")
        // Later `ten` becomes the most used: it gets the simplest free pattern, the others keep theirs.
        book.assign(ranked: [ten, one, five])
        #expect(book.pattern(for: five)?.description == "S")
        #expect(book.pattern(for: one)?.description == "L")
        #expect(book.pattern(for: ten)?.description == "S S")
    }

    @Test("when all 62 patterns are taken, the lowest-ranked interval gives its pattern up")
    func reclaim() throws {
        var book = IntervalPatternBook()
        let intervals = try (0..<62).map { try TrainingInterval(seconds: 10 + $0) }
        book.assign(ranked: intervals)
        let newcomer = try TrainingInterval(seconds: 1000)
        book.assign(ranked: [newcomer] + intervals)
        #expect(book.pattern(for: newcomer) != nil)
        #expect(book.pattern(for: intervals.last!) == nil)
        #expect(Set(book.assignments.values).count == book.assignments.count)
    }

    @Test("pattern edges and durations: short 80 ms, long 300 ms, gap 150 ms")
    func edges() {
        let pattern = HapticPattern([.short, .long])
        let edges = pattern.edges(startingAt: MonotonicInstant(nanoseconds: 1_000))
        #expect(edges == [
            MotorEdge(on: true, at: MonotonicInstant(nanoseconds: 1_000)),
            MotorEdge(on: false, at: MonotonicInstant(nanoseconds: 80_001_000)),
            MotorEdge(on: true, at: MonotonicInstant(nanoseconds: 230_001_000)),
            MotorEdge(on: false, at: MonotonicInstant(nanoseconds: 530_001_000)),
        ])
        #expect(pattern.duration == .milliseconds(530))
        #expect(HapticCue.discarded.pattern.longestOnTime == .milliseconds(600))
        #expect(HapticPattern(notation: "S L S") == HapticPattern([.short, .long, .short]))
        #expect(HapticPattern(notation: "SX") == nil)
    }

    @Test("feedback cues: ticks say the zone, the buzz says the direction")
    func feedbackCues() {
        #expect(HapticCue.feedback(.yellow, .late).pattern.description == "B t t")
        #expect(HapticCue.feedback(.red, .early).pattern.description == "t t t B")
        #expect(HapticCue.feedback(.green, .onTime).pattern.description == "t")
    }

    @Test("device-ready is one buzz (600 ms); setup-problem is the error's five ticks then that buzz (1100 ms); neither is any other cue")
    func startupCues() {
        #expect(HapticCue.deviceReady.pattern.description == "B")
        #expect(HapticCue.setupProblem.pattern.description == "t t t t t B")
        #expect(HapticCue.deviceReady.pattern.duration == .milliseconds(600))
        #expect(HapticCue.setupProblem.pattern.duration == .milliseconds(1_100))
        let zero = MonotonicInstant(nanoseconds: 0)
        let ms = { (value: Int64) in MonotonicInstant(nanoseconds: value * 1_000_000) }
        #expect(HapticCue.setupProblem.pattern.edges(startingAt: zero) == [
            MotorEdge(on: true, at: ms(0)), MotorEdge(on: false, at: ms(40)),
            MotorEdge(on: true, at: ms(100)), MotorEdge(on: false, at: ms(140)),
            MotorEdge(on: true, at: ms(200)), MotorEdge(on: false, at: ms(240)),
            MotorEdge(on: true, at: ms(300)), MotorEdge(on: false, at: ms(340)),
            MotorEdge(on: true, at: ms(400)), MotorEdge(on: false, at: ms(440)),
            MotorEdge(on: true, at: ms(500)), MotorEdge(on: false, at: ms(1_100)),
        ])
        #expect(HapticCue.deviceReady.name == "device-ready")
        #expect(HapticCue.setupProblem.name == "setup-problem")
        for cue in HapticCue.all where cue != .deviceReady { #expect(cue.pattern != HapticCue.deviceReady.pattern) }
        for cue in HapticCue.all where cue != .setupProblem { #expect(cue.pattern != HapticCue.setupProblem.pattern) }
    }

    @Test("the start cue: setup-problem while the first-boot marker exists, else device-ready")
    func startupDecision() {
        #expect(HapticCue.startup(setupProblems: false) == .deviceReady)
        #expect(HapticCue.startup(setupProblems: true) == .setupProblem)
    }
}
