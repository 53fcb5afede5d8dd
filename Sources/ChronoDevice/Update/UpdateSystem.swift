import ChronoCommandLine
import ChronoCore

/// The programs an update of the card drives: RAUC's client and systemd. `SlotUpdate` holds the steps
/// and their order; this only runs programs, so the steps can be tested against a stand-in
/// (`RaucSystem` is the card's).
public protocol UpdateSystem: Sendable {
    /// The card's compatible string (`compatible=` in /etc/rauc/system.conf).
    func compatible() throws(CommandFailure) -> String
    /// `rauc info --output-format=json BUNDLE`: the bundle checked against the card's keyring and
    /// described (its JSON text). A bundle signed with another key fails here, before anything is written.
    func describe(_ bundle: String) throws(CommandFailure) -> String
    /// `rauc install BUNDLE`: writes the other slot and names it in `tryboot.txt`; `progress` gets each
    /// percentage RAUC reports.
    func install(_ bundle: String, progress: @escaping @Sendable (Int) -> Void) throws(CommandFailure)
    /// `rauc status mark-good`: the booted slot is good; the boot backend switches `config.txt` to it.
    func markGood() throws(CommandFailure)
    /// `rauc status mark-bad other`: the slot that did not confirm is not tried again.
    func markOtherBad() throws(CommandFailure)
    /// Restarts the machine; `tryboot`: with the firmware's one-shot flag (`reboot '0 tryboot'`).
    func reboot(tryboot: Bool) throws(CommandFailure)
    /// Whether `chronoception.service` is active.
    func serviceIsActive() -> Bool
}

/// What the running device says of itself through its API, as far as an update needs it.
public struct DeviceProbe: Equatable, Sendable {
    /// `GET /device`'s `device.state` (`Idle` once the store is open and the button armed).
    public var state: String
    /// Whether the device is idle, in the API's own name for it (`DeviceState.Name.idle`).
    public var isIdle: Bool { state == DeviceState.Name.idle.rawValue }
    public var sessionInProgress: Bool
    /// `device.update.phase`, nil when the device shows no update.
    public var updatePhase: String?

    public init(state: String, sessionInProgress: Bool, updatePhase: String?) {
        self.state = state
        self.sessionInProgress = sessionInProgress
        self.updatePhase = updatePhase
    }
}
