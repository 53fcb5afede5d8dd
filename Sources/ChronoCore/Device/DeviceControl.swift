/// The live device as the API sees it: what it is doing, its setup, actions it executes, and its
/// events. The daemon's runtime provides one (`DaemonDevice`); `companion --data-dir D` serves the
/// API's `NoDevice`.
///
/// Every method must return without waiting on the real-time loop: `status()` reads the latest
/// published state, `perform` sends a message to the loop's mailbox and awaits its answer off the
/// loop, and `events()` streams what the loop published. The API never touches the loop otherwise.
public protocol DeviceControl: Sendable {
    /// What the device is doing now.
    func status() -> DeviceState
    /// The board and its parts as they were opened (onboarding's setup status).
    func setup() -> DeviceSetup
    /// Asks the device to do something; the device decides and answers.
    func perform(_ action: DeviceAction) async -> DeviceReply
    /// Live events from now on, until the consumer stops iterating (then the stream is finished).
    func events() -> AsyncStream<DeviceEvent>
    /// The API has written the store (a consent decision): returns once the device has taken it in and
    /// published the state made from it, so a `status()` read after it shows the change. Waits off the
    /// loop; a device with nothing to take in returns at once.
    func takeStoreChanges() async
}

extension DeviceControl {
    /// A device without a snapshot of the store (the API's `NoDevice`, test devices) has nothing to take in.
    public func takeStoreChanges() async {}
}
