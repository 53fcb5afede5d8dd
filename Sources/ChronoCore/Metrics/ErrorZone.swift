/// The colour band of one attempt's `abs_percent_error` (SPEC §3): green below 5 %, yellow from 5 %
/// to below 15 %, red from 15 %.
public enum ErrorZone: String, Sendable, Hashable, CaseIterable {
    case green
    case yellow
    case red

    public static let yellowFrom = 0.05
    public static let redFrom = 0.15

    public init(absPercentError: Double) {
        if absPercentError < Self.yellowFrom {
            self = .green
        } else if absPercentError < Self.redFrom {
            self = .yellow
        } else {
            self = .red
        }
    }
}

/// Whether a tap came before or after the target.
public enum ErrorDirection: String, Sendable, Hashable {
    case early
    case late
    case onTime = "on_time"

    public init(signedErrorNanoseconds: Int64) {
        self = signedErrorNanoseconds < 0 ? .early : (signedErrorNanoseconds > 0 ? .late : .onTime)
    }
}
