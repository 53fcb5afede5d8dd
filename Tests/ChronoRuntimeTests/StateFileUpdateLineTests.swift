import ChronoCore
import Foundation
import Testing
@testable import ChronoRuntime

/// `chronoception status`'s update line, read from the state file the daemon writes: the update's words
/// and the version and slot running, after the battery line; nothing on a card never updated.
@Suite("State file: the update line")
struct StateFileUpdateLineTests {
    static let started = WallTime(unixNanoseconds: 1_796_000_000_000_000_000, utcOffsetSeconds: 0)

    static func lines(_ update: DeviceState.Update?) throws -> [String] {
        var state = DeviceState(state: .idle, board: "pi-wearable", health: "on")
        state.update = update
        let text = state.published(at: Self.started).stateFileJSON(pid: 7).compactText
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return StateFileText.lines(object)
    }

    @Test("installing on slot A, then confirmed on slot B")
    func installingThenConfirmed() throws {
        let installing = UpdateRecord(phase: .installing, fromVersion: ReleaseVersion("0.1.0")!, toVersion: ReleaseVersion("0.2.0")!,
                                      fromSlot: .a, started: Self.started, progress: 40)
        #expect(try Self.lines(DeviceState.Update(record: installing, running: ReleaseVersion("0.1.0")!, slot: .a))
            .contains("Update: Installing 0.2.0: 40 %; no session starts until it is done. (version 0.1.0, slot A)"))
        var confirmed = installing
        confirmed.phase = .confirmed
        confirmed.progress = nil
        #expect(try Self.lines(DeviceState.Update(record: confirmed, running: ReleaseVersion("0.2.0")!, slot: .b))
            .contains("Update: Updated to 0.2.0. (version 0.2.0, slot B)"))
    }

    @Test("a card never updated, or a slot that cannot be told")
    func noneOrUnknownSlot() throws {
        #expect(try !Self.lines(nil).contains { $0.hasPrefix("Update:") })
        let failed = UpdateRecord(phase: .failed, fromVersion: ReleaseVersion("0.1.0")!, toVersion: ReleaseVersion("0.2.0")!,
                                  fromSlot: .a, started: Self.started, reason: "the bundle's signature is not trusted")
        #expect(try Self.lines(DeviceState.Update(record: failed, running: ReleaseVersion("0.1.0")!, slot: nil))
            .contains("Update: The update to 0.2.0 failed: the bundle's signature is not trusted; 0.1.0 is running. (version 0.1.0)"))
    }
}
