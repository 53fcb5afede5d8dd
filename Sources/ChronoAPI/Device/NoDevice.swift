import ChronoCore

/// The device stand-in for `chronoception companion --data-dir D`: the API reviews and configures the
/// store, and every action is refused with the reason (no device here) and what to do instead.
public struct NoDevice: DeviceControl {
    public init() {}

    public func status() -> DeviceState { DeviceState(state: .noDevice) }

    public func setup() -> DeviceSetup {
        DeviceSetup(board: nil, parts: [],
                    note: "No device is attached to this companion (it serves a data directory). On the device, `chronoception board check` tests the button, motor and sound.")
    }

    public func perform(_ action: DeviceAction) async -> DeviceReply {
        switch action {
        case .approvePairing: return .refused(.noDeviceToPair)
        case .start, .endPassive, .discard: return .refused(.noDevice)
        }
    }

    public func events() -> AsyncStream<DeviceEvent> {
        // No device, no events: the stream stays open (SSE clients keep their heartbeat) until cancelled.
        AsyncStream { _ in }
    }
}
