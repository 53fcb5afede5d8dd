import ChronoCore

/// The device stand-in for `chronoception companion --data-dir D`: the API reviews and configures the
/// store, and every action is refused with the reason (no device here) and what to do instead.
public struct NoDevice: DeviceControl {
    public init() {}

    public func status() -> DeviceStatus {
        DeviceStatus(state: DeviceStatus.noDeviceState)
    }

    public func setup() -> DeviceSetup { .noDevice }

    public func perform(_ action: DeviceAction) async -> DeviceActionResult {
        switch action {
        case .approvePairing:
            return .refused(.noDevice, reason: "There is no device button here to approve pairing. Make a key with `chronoception companion keys add NAME`, or open the login URL `chronoception companion` printed.")
        case .start, .endPassive, .discard:
            return .refused(.noDevice, reason: "No device is attached to this companion (it serves a data directory only). Control a session on the device running `chronoception run`.")
        }
    }

    public func events() -> AsyncStream<DeviceEvent> {
        // No device, no events: the stream stays open (SSE clients keep their heartbeat) until cancelled.
        AsyncStream { _ in }
    }
}
