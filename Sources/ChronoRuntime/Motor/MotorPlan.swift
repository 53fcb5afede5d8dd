import ChronoCore

/// The motor's timetable: every pulse still to play or playing, as absolute instants (pure; no clock,
/// no driver — the loop executes it through `MotorGate`).
///
/// Onset latency: a motor needs tens of milliseconds to spin up to a felt vibration, so each vibration
/// is commanded `onsetLatency` before it is due, making the felt start land on time. A vibration that
/// is due too soon for that (a cue asked for "now") starts as soon as it can, whole: its pulses keep
/// their lengths and spacing rather than being clipped.
///
/// Prediction: the engine only asks for a Passive boundary's pattern when the boundary is reached, which
/// is too late to start early. The loop therefore asks a copy of the engine, ahead of time, what it will
/// vibrate at its next deadline, and plans that as *predicted*. When the engine then really asks for the
/// same vibration it is confirmed rather than planned twice; if events change the future first, a
/// predicted vibration that has not started is dropped (one that has started plays out: a felt pulse
/// cannot be taken back, and its off-edge must stay).
///
/// Safety: each pulse is cut to `safeMaximumOn`; `MotorGate` also caps runs of touching pulses.
public struct MotorPlan: Sendable {
    /// One scheduled "motor on" stretch, in command time (already moved early by the onset latency).
    public struct Stretch: Hashable, Sendable {
        public var start: MonotonicInstant
        public var end: MonotonicInstant
        /// The vibration it belongs to.
        public var vibrationID: Int
    }

    /// A vibration in the plan.
    public struct Entry: Hashable, Sendable {
        public var id: Int
        public var vibration: PlannedVibration
        /// When its first pulse is commanded.
        public var commandStart: MonotonicInstant
        /// Planned from a prediction and not (yet) confirmed by the engine.
        public var predicted: Bool
        /// Whether its first pulse has been commanded on.
        public var started: Bool
        /// Started more than `CueTiming.tolerance` later than planned because the loop woke late
        /// (`startLateOnesWhole`), or queued behind such a vibration: what comes next keeps clear of it.
        public var late = false
    }

    public let onsetLatency: TimeSpan
    public let safeMaximumOn: TimeSpan
    public private(set) var entries: [Entry] = []
    public private(set) var stretches: [Stretch] = []
    private var nextID = 1

    public init(onsetLatency: TimeSpan, safeMaximumOn: TimeSpan) {
        self.onsetLatency = max(onsetLatency, .zero)
        self.safeMaximumOn = safeMaximumOn
    }

    /// Plans a vibration the engine asked for. If it was predicted, the prediction is confirmed instead.
    public mutating func add(_ vibration: PlannedVibration, now: MonotonicInstant) {
        if let index = entries.firstIndex(where: { $0.predicted && $0.vibration == vibration }) {
            entries[index].predicted = false
            return
        }
        insert(vibration, predicted: false, now: now)
    }

    /// Replaces the predicted vibrations that have not started with `predictions` (those already
    /// planned, predicted or confirmed, are kept as they are).
    public mutating func predict(_ predictions: [PlannedVibration], now: MonotonicInstant) {
        let dropped = Set(entries.filter { $0.predicted && !$0.started && !predictions.contains($0.vibration) }.map(\.id))
        if !dropped.isEmpty {
            entries.removeAll { dropped.contains($0.id) }
            stretches.removeAll { dropped.contains($0.vibrationID) }
        }
        for vibration in predictions where !entries.contains(where: { $0.vibration == vibration }) {
            insert(vibration, predicted: true, now: now)
        }
    }

    /// The stretch that covers `instant` (start inclusive, end exclusive), if any.
    public func stretch(covering instant: MonotonicInstant) -> Stretch? {
        stretches.first { $0.start <= instant && instant < $0.end }
    }

    /// The first start or end of a stretch strictly after `instant`.
    public func nextChange(after instant: MonotonicInstant) -> MonotonicInstant? {
        var best: MonotonicInstant?
        for stretch in stretches {
            for candidate in [stretch.start, stretch.end] where candidate > instant {
                if best == nil || candidate < best! { best = candidate }
            }
        }
        return best
    }

    /// The end of the run of touching or overlapping stretches that covers `instant`.
    public func endOfRun(covering instant: MonotonicInstant) -> MonotonicInstant? {
        guard var end = stretch(covering: instant)?.end else { return nil }
        var extended = true
        while extended {
            extended = false
            for stretch in stretches where stretch.start <= end && stretch.end > end {
                end = stretch.end
                extended = true
            }
        }
        return end
    }

    /// Vibrations that should have started before `now` and have not (the loop woke late: a stall, a
    /// stopped process) start at `now`, whole: all their pulses move by the same amount, as for a
    /// vibration asked for too late to start early. Never skipped, never clipped: a boundary's pattern
    /// H(I) is only recognisable whole, and the instant it really begins is what the record keeps.
    /// Several late ones (a stall longer than an interval) play one after the other, `separation`
    /// apart, so each is felt as itself.
    public mutating func startLateOnesWhole(at now: MonotonicInstant) {
        let late = entries.indices.filter { !entries[$0].started && entries[$0].commandStart < now }
            .sorted { entries[$0].commandStart < entries[$1].commandStart }
        for index in late {
            let id = entries[index].id
            let start = clearOfLateOnes(from: now, span: span(of: id), except: id)
            // Late in the record's sense (beyond `CueTiming.tolerance`), not an ordinary wake-up's
            // microseconds: only then does what follows keep clear of it.
            if start - entries[index].commandStart > CueTiming.tolerance { entries[index].late = true }
            move(id, by: start - entries[index].commandStart)
            entries[index].commandStart = start
        }
        if !late.isEmpty { stretches.sort { $0.start < $1.start } }
    }

    /// The pause kept between a late vibration and the next, so that the two are felt as two.
    public static let separation = SessionEngine.patternSeparation

    /// The first instant at or after `start` at which a vibration lasting `span` overlaps no late
    /// vibration (with `separation` on either side).
    private func clearOfLateOnes(from start: MonotonicInstant, span: TimeSpan, except id: Int) -> MonotonicInstant {
        let lateIDs = Set(entries.filter { $0.late && $0.id != id }.map(\.id))
        guard !lateIDs.isEmpty else { return start }
        var candidate = start
        var moved = true
        while moved {
            moved = false
            for stretch in stretches where lateIDs.contains(stretch.vibrationID)
                && stretch.start < candidate + span + Self.separation && stretch.end + Self.separation > candidate {
                candidate = stretch.end + Self.separation
                moved = true
            }
        }
        return candidate
    }

    /// From the first stretch's start to the last one's end.
    private func span(of id: Int) -> TimeSpan {
        let own = stretches.filter { $0.vibrationID == id }
        guard let first = own.map(\.start).min(), let last = own.map(\.end).max() else { return .zero }
        return last - first
    }

    private mutating func move(_ id: Int, by shift: TimeSpan) {
        for position in stretches.indices where stretches[position].vibrationID == id {
            stretches[position].start = stretches[position].start + shift
            stretches[position].end = stretches[position].end + shift
        }
    }

    /// Marks the vibrations whose first stretch starts at or before `instant` as started; returns those
    /// newly started.
    public mutating func markStarted(upTo instant: MonotonicInstant) -> [Entry] {
        var started: [Entry] = []
        for index in entries.indices where !entries[index].started && entries[index].commandStart <= instant {
            entries[index].started = true
            started.append(entries[index])
        }
        return started
    }

    /// Forgets everything that ended at or before `instant`.
    public mutating func prune(before instant: MonotonicInstant) {
        stretches.removeAll { $0.end <= instant }
        let live = Set(stretches.map(\.vibrationID))
        entries.removeAll { $0.started && !live.contains($0.id) }
    }

    /// Forgets everything (the session is over and the motor is being switched off).
    public mutating func clear() {
        entries.removeAll()
        stretches.removeAll()
    }

    private mutating func insert(_ vibration: PlannedVibration, predicted: Bool, now: MonotonicInstant) {
        guard !vibration.pulses.isEmpty else { return }
        let firstOffset = vibration.pulses.map(\.offset).min() ?? .zero
        let wanted = vibration.due + firstOffset - onsetLatency
        let id = nextID
        nextID += 1
        let span = vibration.pulses.filter { $0.length > .zero }.map { $0.offset + min($0.length, safeMaximumOn) }.max().map { $0 - firstOffset } ?? .zero
        // Never inside a vibration a stall made late: after it (then it is late too, and reported so).
        let commandStart = clearOfLateOnes(from: max(wanted, now), span: span, except: id)
        let shift = commandStart - (vibration.due + firstOffset)
        entries.append(Entry(id: id, vibration: vibration, commandStart: commandStart, predicted: predicted, started: false,
                             late: commandStart > max(wanted, now)))
        for pulse in vibration.pulses where pulse.length > .zero {
            let start = vibration.due + pulse.offset + shift
            stretches.append(Stretch(start: start, end: start + min(pulse.length, safeMaximumOn), vibrationID: id))
        }
        stretches.sort { $0.start < $1.start }
    }
}
