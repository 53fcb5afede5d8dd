import Foundation

/// The command that powers the device off at the battery's critical level: `systemctl poweroff` on
/// the card (the daemon's user needs polkit's power-off right, docs/RUNTIME.md "Battery"), a
/// stand-in in tests. Run off the loop thread; a failure is said on the console.
public struct PowerOffCommand: Sendable {
    public static let standard = ["/usr/bin/systemctl", "poweroff"]

    let arguments: [String]
    let report: @Sendable (String) -> Void

    init(arguments: [String], report: @escaping @Sendable (String) -> Void) {
        self.arguments = arguments
        self.report = report
    }

    func run() {
        guard let executable = arguments.first else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(arguments.dropFirst())
        let shown = arguments.joined(separator: " ")
        do {
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus != 0 {
                report("Power-off: `\(shown)` exited with status \(process.terminationStatus); the device stays on. Shut it down by hand before the battery is empty.")
            }
        } catch {
            report("Power-off: `\(shown)` could not be run (\(error.localizedDescription)); the device stays on. Shut it down by hand before the battery is empty.")
        }
    }
}
