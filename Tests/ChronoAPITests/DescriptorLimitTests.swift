@testable import ChronoAPI
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("The open-file limit: raised to the hard limit at start")
struct DescriptorLimitTests {
    @Test("the target is the hard limit, 2^20 when that is unlimited, and never below the soft limit")
    func target() {
        #expect(DescriptorLimit.target(soft: 1024, hard: 524_288) == 524_288)
        #expect(DescriptorLimit.target(soft: 1024, hard: 1024) == 1024)
        #expect(DescriptorLimit.target(soft: 1024, hard: DescriptorLimit.unlimited) == 1 << 20)
        #expect(DescriptorLimit.target(soft: 4096, hard: 2048) == 4096)
    }

    @Test("raising sets this process's soft limit to the hard one, and says so in one line")
    func raise() {
        let (_, hard) = DescriptorLimit.current()
        let raised = DescriptorLimit.raiseToHardLimit()
        #expect(raised.failure == nil)
        #expect(DescriptorLimit.current().soft == DescriptorLimit.target(soft: raised.before, hard: hard))
        #expect(raised.after == DescriptorLimit.current().soft)
        #expect(raised.line.hasPrefix("Open files: at most \(raised.after)"))
        // A second raise has nothing left to do.
        let again = DescriptorLimit.raiseToHardLimit()
        #expect(again.before == again.after)
        #expect(again.line == "Open files: at most \(again.after) (the hard limit).")
    }

    @Test("the lines name the change, or the failure and the fix")
    func lines() {
        #expect(DescriptorLimit.Raise(before: 1024, after: 524_288, hard: 524_288, failure: nil).line
                == "Open files: at most 524288 (the soft limit raised from 1024 to the hard limit).")
        #expect(DescriptorLimit.Raise(before: 1024, after: 1024, hard: 4096, failure: "Operation not permitted").line
                == "warning: open files: the soft limit stays 1024 (the hard limit is 4096): Operation not permitted. Raise LimitNOFILE= in the unit.")
    }
}
