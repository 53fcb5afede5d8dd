/// The one rule for whether a session's results (error, zone, score) are withheld at an instant
/// (SPEC §11, docs/STUDIES.md "Feedback withheld"): a study session of a block without feedback,
/// until the standing says the block has revealed them. Without a standing (no study assigned, or one
/// the reader does not know) such a session stays withheld — what its protocol said is not known.
/// The daemon asks it as a session finishes (`SessionFinishRecord.resultsWithheld`) and for its
/// state; the device's store for everything read from it; the collector for its CSV, progress and page.
public enum ResultsWithholding {
    public static func withheld(tag: StudyTag?, standing: StudyStanding?, atUnixNanoseconds now: Int64) -> Bool {
        guard let tag, !tag.feedbackShown else { return false }
        return standing?.resultsShown(for: tag, at: now) != true
    }
}
