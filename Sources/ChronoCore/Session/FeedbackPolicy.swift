/// Whether a session tells the person how each attempt went (SPEC §11, issue 24's contract item 2).
///
/// A study measures without training: in a feedback-off block the device still confirms every press
/// (so the person knows it counted) but with one neutral cue that carries nothing about the error.
/// The session's record is the same either way: every mark is kept, and the figures can be computed
/// later; only what the person feels, hears and reads during the session differs.
public enum FeedbackPolicy: String, Hashable, Sendable, CaseIterable {
    /// Per-attempt feedback as SPEC §2 requires: the zone and direction cue, the feedback line, Fear's
    /// sound after a large error. Every session outside a feedback-off study block.
    case shown
    /// Each press that marks an attempt (its start and its end) is confirmed by the neutral `recorded`
    /// cue; no zone, direction, error or score is vibrated, printed or sounded (no Fear sound either).
    case withheld

    public init(parsing text: String) throws(ConfigurationError) {
        guard let policy = FeedbackPolicy(rawValue: text.lowercased()) else { throw .unknownFeedbackPolicy(text) }
        self = policy
    }

    /// Whether the person is told the outcome of each attempt.
    public var isShown: Bool { self == .shown }
}
