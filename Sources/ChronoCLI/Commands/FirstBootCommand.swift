import ArgumentParser
import ChronoCommandLine
import ChronoCore
import ChronoDevice
import ChronoHardware
import Foundation

/// `chronoception first-boot apply | check FILE | template`: the Raspberry Pi image's first-boot file
/// (`chronoception.txt` on the boot partition, docs/FIRST-BOOT.md). The reading and deciding are
/// ChronoCore's (`FirstBootFile`, `FirstBootPlan`), the writing ChronoDevice's (`FirstBootApplier`);
/// this file parses the options and chooses the exit status.
struct FirstBootCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "first-boot",
        abstract: "The Raspberry Pi image's first-boot file (chronoception.txt): apply it, check it, print its template.",
        subcommands: [FirstBootApplyCommand.self, FirstBootCheckCommand.self, FirstBootTemplateCommand.self]
    )
}

/// `first-boot apply`: what the image's first-boot unit runs before the network and the service.
struct FirstBootApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply chronoception.txt from the boot partition to the system, then remove its secrets.",
        discussion: "Writes the host name, time zone, Wi-Fi (wpa_supplicant for wlan0, the network's key only), SSH (root's authorized_keys, key-only; off without a key), the board and whether the companion listens on the network (/etc/default/chronoception), then replaces the Wi-Fi passphrase and SSH keys in the file by a comment. Each problem is printed on standard error and kept in /var/lib/chronoception/first-boot.txt; while there are problems /var/lib/chronoception/first-boot-problems exists. Problems do not fail the command: every valid value is applied and the device boots and trains offline. Exit status 66 when --boot or --root is not a folder, 77 (74) when a file could not be written (read-only, permission; or another write failure). Running it again with the same file changes nothing.")

    @Option(help: "The boot partition's mount point, where chronoception.txt is.")
    var boot = "/boot/firmware"

    @Option(help: "The root file system to set up (/ on the device; a folder in tests).")
    var root = "/"

    @Flag(help: "The boot partition is mounted read-only: remount it read-write only while the file's secrets are taken out, then read-only again (the image's first-boot unit).")
    var remountBoot = false

    func run() throws {
        let outcome: FirstBootApplier.Outcome
        do {
            outcome = try FirstBootApplier(boot: boot, root: root, bootWindow: remountBoot ? BootPartitionWindow(mountPoint: boot) : nil).apply()
        } catch {
            throw CommandFailure(message: error.description, status: .noInput)
        }
        for problem in outcome.problems {
            printError("\(FirstBootFile.name): \(problem.description)")
        }
        print(outcome.found ? "Applied \(FirstBootFile.name):" : "No \(FirstBootFile.name) on the boot partition; the defaults apply:")
        for line in outcome.summary { print("  " + line) }
        print(outcome.changed.isEmpty ? "Nothing changed." : "Changed: \(outcome.changed.joined(separator: ", ")).")
        if remountBoot {
            print(outcome.openedBootPartition
                  ? "The boot partition was read-write while the secrets were taken out, then read-only again."
                  : "The boot partition was not remounted: nothing on it to rewrite, or it was already read-write.")
        }
        if !outcome.problems.isEmpty {
            print("\(outcome.problems.count == 1 ? "1 problem" : "\(outcome.problems.count) problems") (on standard error and in /var/lib/chronoception/first-boot.txt); every valid value was applied.")
        }
        if let failure = outcome.failures.first {
            let more = outcome.failures.count > 1 ? " (and \(outcome.failures.count - 1) more)" : ""
            throw CommandFailure(message: "\(failure.description)\(more); what it sets is not applied and a secret it needs stays on the boot partition for the next boot. Run it as root on a writable root file system.",
                                 status: failure.isPermission ? .permission : .ioError)
        }
    }
}

/// `first-boot check FILE`: the same reading, on any computer, before the card goes back in.
struct FirstBootCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a first-boot file (e.g. chronoception.txt on a card's boot partition) and list its problems.",
        discussion: "Boards are those this program knows; time zones those under --root's /usr/share/zoneinfo. Exit status 1 when the file has problems, 66 when it cannot be read.")

    @Argument(help: "The file to check.")
    var file: String

    @Option(help: "The system whose time zones and board files the file is checked against.")
    var root = "/"

    func run() throws {
        guard let contents = FirstBootApplier.readFile(atPath: file) else {
            throw CommandFailure(message: "Cannot read \(TerminalSafeText.quoted(file, limit: 200)); give the path of chronoception.txt (on the card's boot partition, e.g. /media/$USER/bootfs/chronoception.txt).", status: .noInput)
        }
        let context = FirstBootApplier.context(root: root)
        let reading = FirstBootFile.read(bytes: contents.bytes, complete: contents.complete, context: context)
        if reading.problems.isEmpty {
            print("\(TerminalSafeText.sanitized(file, keepNewlines: false)): no problems.")
            return
        }
        for problem in reading.problems { print(problem.description) }
        throw ExitCode(ExitStatus.checkFailed.rawValue)
    }
}

/// `first-boot template`: the file the image ships, to start from.
struct FirstBootTemplateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "template",
        abstract: "Print the first-boot file as the image ships it.")

    @Flag(help: "Windows line ends (CRLF), as on the image's boot partition.")
    var crlf = false

    func run() throws {
        try StandardOutput.write(crlf ? FirstBootTemplate.crlf : FirstBootTemplate.text, otherFailure: ConsoleWriteFailure.first)
    }
}
