@testable import ChronoCore

/// Builds button edges for scripted sessions in seconds from session start.
struct SessionScript {
    var events: [SessionEvent] = []

    static func at(_ seconds: Double) -> MonotonicInstant { MonotonicInstant(nanoseconds: Int64((seconds * 1e9).rounded())) }

    mutating func tap(_ seconds: Double, hold: Double = 0.1) {
        events.append(.button(RawButtonEdge(pressed: true, at: Self.at(seconds))))
        events.append(.button(RawButtonEdge(pressed: false, at: Self.at(seconds + hold))))
    }

    mutating func longPress(_ seconds: Double, hold: Double = 2.0) { tap(seconds, hold: hold) }

    mutating func append(_ event: SessionEvent) { events.append(event) }
}

/// Runs an engine over events, then lets time run until nothing is due; returns all effects.
func drive(_ engine: inout SessionEngine, _ events: [SessionEvent]) -> [SessionEffect] {
    var effects = engine.begin()
    for event in events { effects += engine.handle(event) }
    var remaining = 10_000
    while let deadline = engine.nextDeadline, remaining > 0 {
        effects += engine.handle(.deadline(now: deadline))
        remaining -= 1
    }
    return effects
}

func configuration(
    _ mode: SessionMode, seconds: Int = 60, count: Int? = nil, threshold: Double = 0.10, autoStart: Bool = false
) -> SessionConfiguration {
    try! SessionConfiguration(
        mode: mode, interval: try! TrainingInterval(seconds: seconds), plannedCount: count, fearThreshold: threshold,
        timing: SessionTiming(autoStartNextAttempt: autoStart))
}

extension Array where Element == SessionEffect {
    var motorLabels: [String] {
        compactMap { if case .motor(_, let label, _) = $0 { return label.text } else { return nil } }
    }
    var soundAttempts: [Int] {
        compactMap { if case .aversiveSound(let attempt, _) = $0 { return attempt } else { return nil } }
    }
    var ignoredPresses: [MonotonicInstant] {
        compactMap { if case .pressIgnored(let at, _, _) = $0 { return at } else { return nil } }
    }
    var notices: [String] {
        compactMap { if case .notice(let text, _) = $0 { return text } else { return nil } }
    }
}
