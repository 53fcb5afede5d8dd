/// The device's one-button interaction between sessions (SPEC §7), as a pure state machine.
///
/// - Idle, tap: start the last session configuration ("Start Last Session"), or while a study runs the
///   protocol's next due session (the daemon names it as `lastConfiguration`).
/// - Idle, long press: browse presets in frecency order, each announced by its own H(I);
///   another long press moves to the next preset (wrapping); a tap picks it and starts the person's
///   own configuration (`presetBase`) with that interval — outside any study. Browsing without a
///   press for `browseTimeout` returns to idle.
/// - Idle, long press, while a pairing request is announced: approve it (instead of browsing). Only a
///   press that began at or after the announcement counts, so a press already under way when a request
///   arrives cannot approve it; a tap still starts a session, and browsing is never interrupted.
public struct IdleMenu: Hashable, Sendable {
    /// Where the menu is.
    public enum State: Hashable, Sendable {
        case idle
        case browsing(index: Int, until: MonotonicInstant)
    }

    /// What the menu asks the runtime to do.
    public enum Effect: Hashable, Sendable {
        case motor(HapticPattern, label: VibrationLabel, at: MonotonicInstant)
        /// A preset is offered; the user feels its pattern.
        case presetOffered(TrainingInterval, at: MonotonicInstant)
        case backToIdle(at: MonotonicInstant)
        /// Start a session with this configuration now (an idle tap: `lastConfiguration`).
        case startSession(SessionConfiguration, at: MonotonicInstant)
        /// Start the preset picked while browsing: `presetBase` at its interval, outside any study.
        case startPreset(SessionConfiguration, at: MonotonicInstant)
        /// The person approved the announced pairing request (a long press while idle).
        case approvePairing(at: MonotonicInstant)
    }

    public static let browseTimeout = TimeSpan.seconds(10)

    public private(set) var state: State = .idle
    public private(set) var lastConfiguration: SessionConfiguration
    /// What a picked preset runs (at the preset's interval): the person's own configuration, which is
    /// `lastConfiguration` unless a study's session is what a tap starts.
    public private(set) var presetBase: SessionConfiguration
    public let presets: [TrainingInterval]
    public let patterns: IntervalPatternBook
    /// When the pairing request waiting now was announced; nil when none waits.
    public private(set) var pairingAnnouncedAt: MonotonicInstant?
    private var gestures: GestureRecognizer

    /// - Parameters:
    ///   - lastConfiguration: what an idle tap starts.
    ///   - presets: intervals in frecency order (at least the built-in one).
    ///   - patterns: the H(I) assignments; every preset should have one.
    ///   - presetBase: what a picked preset runs at its interval; nil: `lastConfiguration`.
    public init(lastConfiguration: SessionConfiguration, presets: [TrainingInterval], patterns: IntervalPatternBook,
                presetBase: SessionConfiguration? = nil) {
        self.lastConfiguration = lastConfiguration
        self.presetBase = presetBase ?? lastConfiguration
        self.presets = presets.isEmpty ? [.builtInPreset] : presets
        self.patterns = patterns
        gestures = GestureRecognizer(settings: lastConfiguration.gestures)
    }

    /// A pairing request was announced at `instant` (its cue played): from now on a long press that
    /// begins in idle at or after `instant` approves it.
    public mutating func pairingAnnounced(at instant: MonotonicInstant) {
        pairingAnnouncedAt = instant
    }

    /// No pairing request waits any more (approved, expired or withdrawn): long presses browse again.
    public mutating func pairingWithdrawn() {
        pairingAnnouncedAt = nil
    }

    /// Whether the button is held down now (a gesture is under way).
    public var isPressed: Bool { gestures.isPressed }

    public var nextDeadline: MonotonicInstant? {
        var candidates: [MonotonicInstant] = []
        if case .browsing(_, let until) = state { candidates.append(until) }
        if let gestureDeadline = gestures.nextDeadline { candidates.append(gestureDeadline) }
        return candidates.min()
    }

    /// Feeds a button edge or a deadline (only `.button` and `.deadline` matter here).
    public mutating func handle(_ event: SessionEvent) -> [Effect] {
        var effects: [Effect] = []
        let now = event.instant
        var gestureList = gestures.advance(to: now)
        if case .browsing(_, let until) = state, until <= now, gestureList.isEmpty {
            state = .idle
            effects.append(.backToIdle(at: until))
        }
        if case .button(let edge) = event { gestureList += gestures.handle(edge) }
        for gesture in gestureList { effects += handle(gesture) }
        return effects
    }

    private mutating func handle(_ gesture: Gesture) -> [Effect] {
        switch (state, gesture) {
        case (.idle, .tap(_, let releasedAt)):
            return [.startSession(lastConfiguration, at: releasedAt)]
        case (.idle, .longPress(let pressedAt, let at)):
            if let announced = pairingAnnouncedAt, pressedAt >= announced {
                pairingAnnouncedAt = nil
                return [.approvePairing(at: at)]
            }
            return offer(0, at: at)
        case (.browsing(let index, _), .longPress(_, let at)):
            return offer((index + 1) % presets.count, at: at)
        case (.browsing(let index, _), .tap(_, let releasedAt)):
            state = .idle
            var chosen = presetBase
            chosen.interval = presets[index]
            if let pattern = patterns.pattern(for: presets[index]) { chosen.intervalPattern = pattern }
            lastConfiguration = chosen
            presetBase = chosen
            return [.startPreset(chosen, at: releasedAt)]
        }
    }

    private mutating func offer(_ index: Int, at now: MonotonicInstant) -> [Effect] {
        state = .browsing(index: index, until: now + Self.browseTimeout)
        let interval = presets[index]
        let pattern = patterns.pattern(for: interval) ?? HapticCue.error.pattern
        return [.presetOffered(interval, at: now), .motor(pattern, label: .preset(interval), at: now)]
    }
}
