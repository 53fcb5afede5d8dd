/// The bounds on what the first-boot file's readers take in (`first-boot check` and `apply`): the
/// file is a dozen lines of settings, but it comes from any computer and a card can hold anything, so
/// neither reader reads more than `maximumBytes` of it, and a file full of bad lines lists at most
/// `maximumProblems` of them (standard error, the report, the marker and `check` alike).
extension FirstBootFile {
    /// The largest file read: 64 KiB, hundreds of times the template.
    public static let maximumBytes = 65_536

    /// The most problems listed; beyond it one more line says how many were left out.
    public static let maximumProblems = 20

    /// The problem a file larger than `maximumBytes` is: nothing of it is read or applied (a part of a
    /// file could hold half a setting).
    public static let tooLargeProblem = FirstBootProblem(
        line: nil, key: nil,
        message: "the file is larger than 64 KiB (\(maximumBytes) bytes), so none of it was read and the defaults apply; it holds a few lines of settings: start again from the template (chronoception first-boot template)")

    /// The file's bytes as a bounded reader got them: `complete` is false when the file went on past
    /// `maximumBytes` (the reader stopped there). Bytes that are not UTF-8 show as U+FFFD and are
    /// reported by `read`.
    public static func read(bytes: [UInt8], complete: Bool, context: Context) -> Reading {
        guard complete, bytes.count <= maximumBytes else {
            var reading = Reading()
            reading.problems = [tooLargeProblem]
            return reading
        }
        return read(String(decoding: bytes, as: UTF8.self), context: context)
    }

    /// `problems` with at most `maximumProblems` listed, then one line saying how many more there are.
    static func capped(_ problems: [FirstBootProblem]) -> [FirstBootProblem] {
        guard problems.count > maximumProblems else { return problems }
        let more = problems.count - maximumProblems
        return Array(problems.prefix(maximumProblems)) + [FirstBootProblem(
            line: nil, key: nil,
            message: "\(more) more problem\(more == 1 ? "" : "s") not listed (only the first \(maximumProblems) are); fix those above, then check the file again")]
    }
}
