/// One Challenge or Fear attempt measured from its two button marks (SPEC §3).
///
/// The marks are the button's own edge timestamps; everything else is derived exactly from them.
/// Raw values are kept whatever they are: a tap one second in is as valid as one an hour late.
public struct AttemptMeasurement: Hashable, Sendable {
    /// 1-based position in the session.
    public let index: Int
    public let target: TrainingInterval
    public let startMark: MonotonicInstant
    public let tapMark: MonotonicInstant

    public init(index: Int, target: TrainingInterval, startMark: MonotonicInstant, tapMark: MonotonicInstant) {
        self.index = index
        self.target = target
        self.startMark = startMark
        self.tapMark = tapMark
    }

    /// `elapsed_i = tap_i − start_i`.
    public var elapsed: TimeSpan { tapMark - startMark }
    /// `signed_error_i = elapsed_i − T`, exact in nanoseconds; positive is late.
    public var signedError: TimeSpan { elapsed - target.span }

    public var elapsedSeconds: Double { elapsed.seconds }
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
