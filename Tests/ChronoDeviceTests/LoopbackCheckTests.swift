import ChronoCore
import ChronoDevice
import ChronoRuntime
import ChronoTesting
import Testing

/// `board check --loopback` through the real session loop, with the motor jumpered to the input by a
/// stand-in whose edge is stamped in the motor's switch call: deadline → edge is then the loop's own
/// wake-up lateness. (The HIL VM tier runs it on gpio-sim lines with a real bridge.)
@Suite("board check --loopback: the loop drives the motor, reads the jumper and reports")
struct LoopbackCheckTests {
    static let options = LoopbackCheck.Options(pulses: 10, period: .milliseconds(40), benchDeadlines: 20, realtime: false)
    static let wiring = "the motor line (stand-in) to the loopback input (stand-in)"

    @Test("jumpered: every switch comes back, no edge before its deadline or handled before its stamp; the table names the machine")
    func jumpered() throws {
        let lines = try JumperedLines()
        let result = try LoopbackCheck(options: Self.options).run(motor: lines, input: lines.input, board: "test", wiring: Self.wiring)
        guard case .measured(let toEdge, let toHandling) = result.analysis.outcome else {
            Issue.record("not measured: \(result.text)")
            return
        }
        #expect(result.passed)
        #expect(toEdge.count == 20)
        #expect(toEdge.min >= 0)
        #expect(toHandling.count == 20)
        #expect(toHandling.min >= 0)
        #expect(result.wakeUps?.summary.count == 20)
        let text = result.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(text[0] == "[ok]   loopback: every switch of the motor line came back on the input")
        #expect(text[2] == "| chronoception loopback | board test |")
        #expect(text[4] == "| kernel | \(SystemFacts.current.kernel) (\(SystemFacts.current.machine)) |")
        #expect(text[6] == "| scheduling | SCHED_OTHER (real-time not asked for) |")
        #expect(text[10] == "| deadline → edge on the input | \(LoopbackReport.figure(toEdge.p50)) | \(LoopbackReport.figure(toEdge.p99)) | \(LoopbackReport.figure(toEdge.max)) | 20 |")
        #expect(text[11].hasPrefix("| edge → the loop's handling | "))
        #expect(text[12].hasPrefix("| loop wake-up lateness (5 ms deadlines) | "))
        #expect(text.last == "10 pulses 40 ms apart; `benchmarks/timing` compares the wake-ups with cyclictest on this machine.")
    }

    @Test("no jumper: a clear failure and no figures")
    func noJumper() throws {
        let lines = try JumperedLines(wired: false)
        let result = try LoopbackCheck(options: Self.options).run(motor: lines, input: lines.input, board: "test", wiring: Self.wiring)
        #expect(!result.passed)
        #expect(result.wakeUps == nil)
        #expect(result.text == """
            [FAIL] loopback: the input saw no edge in 20 switches of the motor line: no jumper, or a jumper on other pins
                   Fix: with the device off, wire a jumper from the motor's driver input to the loopback line (docs/HARDWARE.md, "The loopback jumper"), then run `chronoception board check --loopback` again; it joins \(Self.wiring)
            """)
    }

    @Test("an inverted line is named, with the board-file key to change")
    func inverted() throws {
        let lines = try JumperedLines(inverted: true)
        let result = try LoopbackCheck(options: Self.options).run(motor: lines, input: lines.input, board: "test", wiring: Self.wiring)
        #expect(!result.passed)
        #expect(result.text.hasPrefix("[FAIL] loopback: the input follows the motor line inverted"))
        #expect(result.text.contains("`loopback.active_low` the same as `motor.active_low`"))
    }
}
