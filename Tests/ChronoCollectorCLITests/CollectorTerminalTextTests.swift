import ChronoCollector
import ChronoCore
import Testing
@testable import ChronoCollectorCLI

/// What a device sent (its board; a name typed at enrolment) is printed as text by the collector's
/// command line: escapes are shown, never obeyed (issue 20, "text from outside is shown as text").
@Suite struct CollectorTerminalTextTests {
    static func device(name: String, board: String, participant: String? = nil) -> CollectorDevice {
        CollectorDevice(id: "0b5e2c3a-1111-4222-8333-444455556666", name: name, participant: participant, board: board,
                        softwareVersion: "1.0", enrolledUnixNanoseconds: 0, revokedUnixNanoseconds: nil,
                        lastSeenUnixNanoseconds: nil, sessionCount: 2)
    }

    @Test func theDeviceTableShowsEscapesAsText() {
        let lines = DeviceTable.lines([Self.device(name: "P\u{1B}[2J1", board: "pi\u{7}\u{202E}zero", participant: "a\nb")])
        #expect(lines == [
            "Name         Participant  Board                Sessions  Refused  Consent  Last seen  State     Device ID",
            "P\\u{1B}[2J1  a\\nb         pi\\u{7}\\u{202E}zero  2         0        —        never      enrolled  0b5e2c3a-1111-4222-8333-444455556666",
        ])
        #expect(!lines.joined().contains("\u{1B}"))
    }

    @Test func quotedNamesAreEscapedAndShort() {
        #expect(shown("Anna's\u{1B}]0;pwned\u{7}") == "'Anna's\\u{1B}]0;pwned\\u{7}'")
        #expect(shown(String(repeating: "x", count: 500)).count < 120)
    }
}
