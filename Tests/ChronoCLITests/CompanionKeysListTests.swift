import ChronoStore
import Testing
@testable import ChronoCLI

@Suite("companion keys: each key with where it paired from and its last use")
struct CompanionKeysListTests {
    @Test("a paired key names its address and last use; a command-line key says it was never used")
    func lines() {
        let paired = APIKeyRecord(id: "K1", name: "Anna's phone", kind: .paired, createdUnixSeconds: 1_800_000_000,
                                  pairedFrom: "10.9.0.2", lastUsedUnixSeconds: 1_800_000_090)
        #expect(CompanionCommand.Keys.List.line(paired)
            == "K1  Anna's phone  (paired from 10.9.0.2, made 2027-01-15T08:00:00Z, last used 2027-01-15T08:01:30Z)")
        let script = APIKeyRecord(id: "K2", name: "Backup\u{202E}script", kind: .commandLine, createdUnixSeconds: 1_800_000_000)
        #expect(CompanionCommand.Keys.List.line(script) == #"K2  Backup\u{202E}script  (command-line, made 2027-01-15T08:00:00Z, never used)"#)
    }
}
