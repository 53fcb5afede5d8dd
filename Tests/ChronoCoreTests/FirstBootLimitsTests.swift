import ChronoCore
import Testing

/// The bounds on the first-boot file (`FirstBootFile.maximumBytes`, `maximumProblems`): a file past
/// 64 KiB is one problem and nothing of it is read; a file full of bad lines lists 20 problems and
/// says how many more there are.
@Suite("First-boot file limits")
struct FirstBootLimitsTests {
    static let context = FirstBootFile.Context(boardNames: ["desktop"], timezoneNames: ["UTC"])

    @Test("64 KiB exactly is read; one byte more is the one problem 'larger than 64 KiB' and nothing of it is taken")
    func sizeBound() {
        #expect(FirstBootFile.maximumBytes == 65_536)
        let setting = Array("hostname = kitchen\n".utf8)
        let padding = [UInt8](repeating: UInt8(ascii: "#"), count: FirstBootFile.maximumBytes - setting.count - 1) + [UInt8(ascii: "\n")]
        let exact = setting + padding
        #expect(exact.count == 65_536)
        let read = FirstBootFile.read(bytes: exact, complete: true, context: Self.context)
        #expect(read.problems == [])
        #expect(read.settings.hostname == "kitchen")

        let over = FirstBootFile.read(bytes: exact + [UInt8(ascii: "#")], complete: false, context: Self.context)
        #expect(over.problems.map(\.description) == [
            "the file is larger than 64 KiB (65536 bytes), so none of it was read and the defaults apply; it holds a few lines of settings: start again from the template (chronoception first-boot template)",
        ])
        #expect(over.settings == FirstBootSettings())
        #expect(over.secretLines == [])
        // A reader that says "complete" with more bytes than the bound is refused the same way.
        #expect(FirstBootFile.read(bytes: exact + [10], complete: true, context: Self.context).problems == [FirstBootFile.tooLargeProblem])
    }

    @Test("at most 20 problems are listed, then one line with how many more")
    func problemsCapped() {
        let text = (1...35).map { "junk line \($0)\n" }.joined()
        let problems = FirstBootFile.read(text, context: Self.context).problems
        #expect(problems.count == 21)
        #expect(problems.first?.description == "line 1: 'junk line 1' is not a setting; write key = value, or start the line with # for a comment")
        #expect(problems[19].line == 20)
        #expect(problems.last == FirstBootProblem(line: nil, key: nil,
            message: "15 more problems not listed (only the first 20 are); fix those above, then check the file again"))
        let twenty = (1...20).map { "junk \($0)\n" }.joined()
        #expect(FirstBootFile.read(twenty, context: Self.context).problems.count == 20)
        let twentyOne = (1...21).map { "junk \($0)\n" }.joined()
        #expect(FirstBootFile.read(twentyOne, context: Self.context).problems.last?.message
            == "1 more problem not listed (only the first 20 are); fix those above, then check the file again")
    }
}
