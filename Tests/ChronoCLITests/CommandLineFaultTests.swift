import ArgumentParser
import ChronoCore
import ChronoStore
import Foundation
import Testing
@testable import ChronoCLI
@testable import ChronoCommandLine

/// Numbers that enter through flags are refused with status 64 when the core could not compute with
/// them; none of these may trap (each used to).
@Suite struct CommandLineFaultTests {
    @Test(arguments: [
        ["replay", "/dev/null", "--interval", "1m", "--long-press-ms", "9223372036854775807"],
        ["replay", "/dev/null", "--interval", "1m", "--abort-window-ms", "9223372036854775807"],
        ["replay", "/dev/null", "--interval", "1m", "--feedback-ms", "9223372036854775807"],
        ["replay", "/dev/null", "--interval", "1m", "--wall-clock-start", "2300-01-01T00:00:00Z"],
        ["replay", "/dev/null", "--interval", "1m", "--wall-clock-start", "9999-12-31T23:59:59+14:00"],
        ["replay", "/dev/null", "--interval", "1m", "--wall-clock-start", "10413792000"],
        ["replay", "/dev/null", "--interval", "1m", "--wall-clock-start", "1e300"],
        ["replay", "/dev/null", "--interval", "1m", "--session-id", "not-a-uuid"],
        ["replay", "/dev/null", "--interval", "1m", "--attempts", "-1"],
        ["replay", "/dev/null", "--interval", "99999999999999999999"],
        ["export", "csv", "--days", "106752"],
        ["export", "csv", "--days", "2", "--all"],
        ["board", "check", "desktop", "--sound-warning", "nan"],
        ["board", "check", "desktop", "--sound-warning", "inf"],
        ["board", "check", "desktop", "--sound-warning", "1e300"],
        ["board", "check", "desktop", "--press-timeout", "1e300"],
        ["sessions", "--limit", "-5"],
    ])
    func outOfRangeFlagsAreUsageErrors(arguments: [String]) {
        #expect(Chronoception.execute(arguments) == ExitStatus.usage.rawValue)
    }

    @Test func aNegativeNumberAfterASpaceReachesItsOption() {
        #expect(NegativeNumberArguments.repaired(["replay", "-", "--attempts", "-1"]) == ["replay", "-", "--attempts=-1"])
        #expect(NegativeNumberArguments.repaired(["settings", "set", "long-press-ms", "-1", "--data-dir", "d"])
                == ["settings", "set", "long-press-ms", "--data-dir", "d", "--", "-1"])
        #expect(NegativeNumberArguments.repaired(["replay", "-", "--compact"]) == ["replay", "-", "--compact"])
        #expect(NegativeNumberArguments.isNegativeNumber("-1.5e3"))
        #expect(!NegativeNumberArguments.isNegativeNumber("-o"))
        #expect(!NegativeNumberArguments.isNegativeNumber("-"))
    }

    @Test func theRepairedLineParsesToTheValueSoTheRangeCheckNamesIt() throws {
        do {
            _ = try Chronoception.parseAsRoot(NegativeNumberArguments.repaired(["sessions", "--limit", "-5"]))
            Issue.record("--limit -5 was accepted")
        } catch {
            #expect(Chronoception.message(for: error).contains("--limit -5 is out of range"))
        }
    }

    @Test func aSessionIDMustBeAUUID() throws {
        #expect(throws: (any Error).self) { try SessionIDText.validated("not-a-uuid", flag: "--session-id") }
        #expect(try SessionIDText.validated("0F2B6C1E-5D7A-4C3B-9E8F-1A2B3C4D5E6F", flag: "--session-id") == "0F2B6C1E-5D7A-4C3B-9E8F-1A2B3C4D5E6F")
    }

    @Test func storeErrorsMapToTheirKinds() {
        #expect(ExitStatus.classifying(StoreError.corrupt(path: "p", detail: "d")) == .storeUnusable)
        #expect(ExitStatus.classifying(StoreError.newerSchema(path: "p", migrations: ["x"])) == .storeUnusable)
        #expect(ExitStatus.classifying(StoreError.readOnly(path: "p", reason: "r")) == .permission)
        #expect(ExitStatus.classifying(StoreError.database(path: "p", detail: "database is locked")) == .storeBusy)
        #expect(ExitStatus.classifying(StoreError.database(path: "p", detail: "the disk is full")) == .ioError)
        #expect(ExitStatus.classifying(StoreError.directoryUnusable(path: "p", reason: "it is a file, not a directory")) == .permission
                || ExitStatus.classifying(StoreError.directoryUnusable(path: "p", reason: "it is a file, not a directory")) == .noInput)
        #expect(ExitStatus.classifying(ValidationError("x")) == .usage)
    }
}

/// One sanitising helper for everything echoed to a terminal.
@Suite struct TerminalSafeTextTests {
    @Test func controlCharactersAndEscapesAreShownNotSent() {
        let text = TerminalSafeText.sanitized("a\u{1B}[31mred\0b\u{7}\u{202E}", keepNewlines: false)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x202E })
        #expect(text.contains("\\u{1B}[31mred\\0b"))
    }

    @Test func aMegabyteLineIsCut() {
        let line = String(repeating: "x", count: 1_000_000)
        let shown = TerminalSafeText.sanitized("error: '\(line)' is not an event")
        #expect(shown.count < TerminalSafeText.maximumLineLength + 40)
        #expect(shown.contains("characters)"))
        #expect(shown.hasPrefix("error: '"))
        #expect(shown.hasSuffix("is not an event"))
    }

    @Test func newlinesSeparateLinesButNeverHideInAQuotedValue() {
        #expect(TerminalSafeText.sanitized("one\ntwo") == "one\ntwo")
        #expect(TerminalSafeText.quoted("a\nb") == "'a\\nb'")
    }
}
