import ChronoHardware
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Three SIGTERMs within a few milliseconds — the third ends the process at once — must still leave
/// the terminal as it was: the program runs a session with a pseudo-terminal as its standard input
/// (so the desktop button puts it in raw mode), and the terminal's settings are read back after.
@Suite("A signal storm leaves the terminal sane", .serialized)
struct SignalStormTerminalTests {
    @Test("three SIGTERMs within 5 ms: canonical mode and echo are back", arguments: [0, 1, 2])
    func threeSignals(spacingMilliseconds: Int) throws {
        let binary = try #require(SignalSubprocessTests.binary(), "build the chronoception executable first (swift build)")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("storm-\(UUID().uuidString).log").path
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("storm-store-\(UUID().uuidString)").path
        defer {
            try? FileManager.default.removeItem(atPath: log)
            try? FileManager.default.removeItem(atPath: dataDirectory)
        }
        // /dev/ptmx with the two ioctls posix_openpt, unlockpt and ptsname wrap (not exported to Swift).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        defer { close(master) }
        // TIOCSPTLCK = _IOW('T', 0x31, int), TIOCGPTN = _IOR('T', 0x30, unsigned int) (asm-generic/ioctls.h;
        // Swift cannot import the function-like macros).
        let unlockRequest: UInt = 0x4004_5431
        let numberRequest: UInt = 0x8004_5430
        var unlock: Int32 = 0
        var number: UInt32 = 0
        try #require(withUnsafeMutablePointer(to: &unlock) { ioctl(master, unlockRequest, $0) } == 0)
        try #require(withUnsafeMutablePointer(to: &number) { ioctl(master, numberRequest, $0) } == 0)
        let slavePath = "/dev/pts/\(number)"
        let slave = open(slavePath, O_RDWR | O_NOCTTY)
        try #require(slave >= 0)
        var before = termios()
        tcgetattr(master, &before)
        #expect(before.c_lflag & tcflag_t(ICANON) != 0)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["passive", "--test-interval-ms", "300", "--repetitions", "90", "--board", "desktop",
                             "--motor-log", log, "--no-state-file", "--no-realtime", "--data-dir", dataDirectory]
        var environment = ProcessInfo.processInfo.environment
        environment["CHRONOCEPTION_TEST_MODE"] = "1"
        environment["CHRONOCEPTION_BOARDS_DIR"] = root.appendingPathComponent("boards").path
        process.environment = environment
        process.standardInput = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()

        let limit = HardwareClock.monotonicNanoseconds() + 20_000_000_000
        while SignalSubprocessTests.onCount(log) < 2 && process.isRunning && HardwareClock.monotonicNanoseconds() < limit {
            HardwareClock.sleep(untilMonotonicNanoseconds: HardwareClock.monotonicNanoseconds() + 20_000_000)
        }
        var during = termios()
        tcgetattr(slave, &during)
        #expect(during.c_lflag & tcflag_t(ICANON) == 0, "the session put the terminal in raw mode")
        for _ in 0..<3 {
            kill(process.processIdentifier, SIGTERM)
            if spacingMilliseconds > 0 {
                HardwareClock.sleep(untilMonotonicNanoseconds: HardwareClock.monotonicNanoseconds() + Int64(spacingMilliseconds) * 1_000_000)
            }
        }
        process.waitUntilExit()
        var after = termios()
        tcgetattr(slave, &after)
        close(slave)
        #expect(after.c_lflag & tcflag_t(ICANON) != 0, "canonical mode restored")
        #expect(after.c_lflag & tcflag_t(ECHO) != 0, "echo restored")
    }
}
