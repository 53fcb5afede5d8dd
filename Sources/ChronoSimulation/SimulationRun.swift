import ChronoCore

/// Runs many simulated sessions through the engine and checks every invariant as it goes: the engine
/// behind `chronoception simulate`.
public struct SimulationRun {
    /// One simulated session and its verdict.
    public struct SessionResult: Sendable {
        public var number: Int
        public var scenario: SimulatedScenario
        public var outcome: SessionOutcome
        public var record: HealthRecordBuilder.Decision
        public var sessionID: String
        public var anchor: WallClockAnchor
        public var violations: [String]

        /// `#12 fear 5m 0s ×3 · score 80 · completed · logged (bounces, sound lost)`
        public var line: String {
            let configuration = scenario.configuration
            var text = "#\(number) \(configuration.mode.rawValue) \(configuration.interval)"
            text += configuration.mode.usesAttempts ? " ×\(configuration.plannedCount)" : " ×\(configuration.plannedCount) reps"
            if configuration.mode.usesAttempts, !outcome.attempts.isEmpty {
                text += " · score \(outcome.metrics.timeAcuityScore)"
                if configuration.mode == .reproduction { text += " · ratio \((outcome.metrics.meanRatio * 1000).rounded() / 1000)" }
            } else if !configuration.mode.usesAttempts {
                text += " · \(outcome.boundaries.count) boundaries"
            }
            text += " · \(outcome.status.rawValue)"
            text += record.record == nil ? " · not logged" : " · logged"
            if !scenario.behaviours.isEmpty { text += " (\(scenario.behaviours.joined(separator: ", ")))" }
            if !violations.isEmpty { text += " · FAILED: " + violations.joined(separator: "; ") }
            return text
        }
    }

    public var seed: UInt64
    /// Wall-clock time of the first session; later ones follow an hour apart.
    public var firstSessionUnixSeconds: Int64
    public var device: String
    /// When set, every session is a Reproduction session played by this person (`simulate --mode
    /// reproduction --weber W --bias B`); otherwise the usual mix of Challenge, Fear and Passive.
    public var reproductionPerson: SimulatedParticipant?

    public init(seed: UInt64, firstSessionUnixSeconds: Int64 = 1_795_000_000, device: String = "simulator",
                reproductionPerson: SimulatedParticipant? = nil) {
        self.seed = seed
        self.firstSessionUnixSeconds = firstSessionUnixSeconds
        self.device = device
        self.reproductionPerson = reproductionPerson
    }

    /// Runs `count` sessions, handing each result to `body` as soon as it is known.
    public func run(sessions count: Int, _ body: (SessionResult) -> Void) {
        var random = SplitMix64(seed: seed)
        for number in 1...max(count, 1) where count > 0 {
            let scenario = reproductionPerson.map { SimulatedUser.reproductionScenario(person: $0, using: &random) }
                ?? SimulatedUser.scenario(using: &random)
            let transcript = VirtualClock.run(
                configuration: scenario.configuration, soundAudible: scenario.soundAudible, inputs: scenario.inputs)
            let anchor = WallClockAnchor(
                unixNanoseconds: (firstSessionUnixSeconds + Int64(number) * 3600) * 1_000_000_000,
                monotonic: .zero, utcOffsetSeconds: 0)
            let sessionID = SessionIdentifier.derived(seed: seed, number: number)
            let outcome = transcript.settledOutcome(reason: "observation ended")
            let record = HealthRecordBuilder.decide(for: outcome, sessionID: sessionID, device: device, anchor: anchor)
            let violations = InvariantChecker(anchor: anchor).violations(scenario: scenario, transcript: transcript, record: record)
            body(SessionResult(number: number, scenario: scenario, outcome: outcome, record: record,
                               sessionID: sessionID, anchor: anchor, violations: violations))
        }
    }
}

/// Deterministic session UUIDs for simulations and replays, so that the same input gives the same
/// output (a UUID version 8 built from an FNV-1a hash).
public enum SessionIdentifier {
    public static func derived(seed: UInt64, number: Int) -> String {
        derived(from: "simulate:\(seed):\(number)")
    }

    public static func derived(from text: String) -> String {
        var high: UInt64 = 0xcbf2_9ce4_8422_2325
        var low: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in text.utf8 {
            high = (high ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            low = (low ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 ^ (high >> 29)
        }
        high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_8000  // version 8
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // RFC 4122 variant
        func hex(_ value: UInt64, _ digits: Int) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        let h = hex(high, 16), l = hex(low, 16)
        return "\(h.prefix(8))-\(h.dropFirst(8).prefix(4))-\(h.suffix(4))-\(l.prefix(4))-\(l.suffix(12))".uppercased()
    }
}
