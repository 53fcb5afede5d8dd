/// One Challenge, Fear or Reproduction attempt measured from its two button marks (SPEC §3, §10).
///
/// The marks are the button's own edge timestamps; everything else is derived exactly from them.
/// Raw values are kept whatever they are: a tap one second in is as valid as one an hour late.
/// In Reproduction the start mark is the press that starts the person's reproduction and the tap mark
/// the press that ends it, so `elapsed` is the reproduced duration; the target stays the session's
/// interval, and the presented sample's two motor onsets are kept beside the marks.
public struct AttemptMeasurement: Hashable, Sendable {
    /// 1-based position in the session.
    public let index: Int
    public let target: TrainingInterval
    public let startMark: MonotonicInstant
    public let tapMark: MonotonicInstant
    /// Reproduction: the onset of the mark that began the presented interval (the instant the motor
    /// really began when the loop reported it, else the instant it was commanded); nil in other modes.
    public let presentedStart: MonotonicInstant?
    /// Reproduction: the onset of the mark that ended the presented interval; nil in other modes.
    public let presentedEnd: MonotonicInstant?

    public init(index: Int, target: TrainingInterval, startMark: MonotonicInstant, tapMark: MonotonicInstant,
                presentedStart: MonotonicInstant? = nil, presentedEnd: MonotonicInstant? = nil) {
        self.index = index
        self.target = target
        self.startMark = startMark
        self.tapMark = tapMark
        self.presentedStart = presentedStart
        self.presentedEnd = presentedEnd
    }

    /// The same attempt with the presented interval's onsets replaced (a late report from the loop).
    public func presenting(start: MonotonicInstant?, end: MonotonicInstant?) -> AttemptMeasurement {
        AttemptMeasurement(index: index, target: target, startMark: startMark, tapMark: tapMark,
                           presentedStart: start, presentedEnd: end)
    }

    /// `elapsed_i = tap_i − start_i`.
    public var elapsed: TimeSpan { tapMark - startMark }
    /// `signed_error_i = elapsed_i − T`, exact in nanoseconds; positive is late.
    public var signedError: TimeSpan { elapsed - target.span }

    public var elapsedSeconds: Double { elapsed.seconds }
    /// Reproduction's `ratio = reproduced / interval` (any mode: elapsed over the target), one correctly
    /// rounded division of exact integers: 1 is a perfect reproduction, 1.1 ten per cent too long.
    public var ratio: Double { Double(elapsed.nanoseconds) / Double(target.span.nanoseconds) }
    /// Reproduction: the presented interval as the motor played it (end onset − start onset).
    public var presentedDuration: TimeSpan? {
        guard let presentedStart, let presentedEnd else { return nil }
        return presentedEnd - presentedStart
    }
    public var signedErrorSeconds: Double { signedError.seconds }
    public var absErrorSeconds: Double { abs(signedErrorSeconds) }
    /// `signed_error_i / T` as a fraction, one correctly rounded division of exact integers.
    public var percentError: Double { Double(signedError.nanoseconds) / Double(target.span.nanoseconds) }
    public var absPercentError: Double { abs(percentError) }

    public var zone: ErrorZone { ErrorZone(absPercentError: absPercentError) }
    public var direction: ErrorDirection { ErrorDirection(signedErrorNanoseconds: signedError.nanoseconds) }

    /// The feedback line: `Late by 3s · yellow`, `Early by 1m 5s · red`, `On time · green`.
    public var feedbackText: String {
        let amount = DurationText.format(magnitudeOf: signedError)
        switch direction {
        case .early: return "Early by \(amount) · \(zone.rawValue)"
        case .late: return "Late by \(amount) · \(zone.rawValue)"
        case .onTime: return "On time · \(zone.rawValue)"
        }
    }
}
