import ArgumentParser
import ChronoCore
import ChronoDevice
import ChronoHardware

/// `board check B`: bring-up of a board on the real device (`BoardCheck` does the checking). The exit
/// status is 1 when the button or motor fail, 2 when the board file is unusable. Sound problems are
/// warnings: without sound Fear Mode behaves like Challenge Mode.
struct BoardCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Bring-up check: open the lines, pulse the motor, wait for a press, play the sound.")

    @Argument(help: "A board name (see `board list`) or a path to a board file. Default: $CHRONOCEPTION_BOARD, else the Raspberry Pi this is (from the device tree), else desktop.")
    var board: String?

    @Option(help: "Seconds to wait for a button press.")
    var pressTimeout: Double = 20

    @Flag(help: "Do not wait for a button press.")
    var noPress = false

    @Flag(help: "Do not play the aversive sound (the mixer is still checked).")
    var noSound = false

    @Option(help: "Seconds of warning before the aversive sound plays.")
    var soundWarning: Double = 3

    @Flag(help: "Measure the device's own latency with a jumper from the motor line to the board file's `loopback` line (docs/HARDWARE.md), instead of the bring-up check.")
    var loopback = false

    @Option(help: "With --loopback: how many motor pulses.")
    var pulses: Int = 200

    @Option(help: "With --loopback: milliseconds from one pulse to the next (each is on for half of it).")
    var periodMs: Int = 20

    @Flag(help: "With --loopback: do not ask for real-time scheduling (to compare).")
    var noRealtime = false

    func validate() throws {
        try BoundedNumber.check(pulses, in: 10...10_000, flag: "--pulses", unit: "pulses")
        try BoundedNumber.check(periodMs, in: 2...1000, flag: "--period-ms", unit: "ms")
        try BoundedNumber.check(pressTimeout, in: 1...3600, flag: "--press-timeout", unit: "seconds")
        try BoundedNumber.check(soundWarning, in: 0...60, flag: "--sound-warning", unit: "seconds")
    }

    func run() throws {
        let configuration = try loadBoard(board ?? BoardDrivers.defaultBoardName())
        if loopback {
            let check = LoopbackCheck(options: .init(pulses: pulses, period: .milliseconds(Int64(periodMs)), realtime: !noRealtime))
            let result = try check.run(configuration, announce: { print($0) })
            print(result.text)
            if !result.passed { throw ExitCode(1) }
            return
        }
        print("Checking board \(configuration.name) (\(configuration.sourcePath)); libgpiod API v\(LibgpiodAPI.version)")
        let check = BoardCheck(options: BoardCheck.Options(pressTimeout: pressTimeout, waitForPress: !noPress,
                                                           playSound: !noSound, soundWarning: soundWarning),
                               say: { print($0) })
        let report = check.run(configuration)
        print("board check: \(report.passed) ok, \(report.failed) failed, \(report.warnings) warning\(report.warnings == 1 ? "" : "s")")
        if report.failed > 0 { throw ExitCode(1) }
    }
}
