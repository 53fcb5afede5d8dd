import CEvdev

/// One event from an input device, as the evdev button reads it: key events and the kernel's
/// "events were lost" marker (SYN_DROPPED). Plain values, so a test can write a stream by hand.
public struct EvdevEvent: Sendable, Equatable {
    /// What the event says.
    public enum Kind: Sendable, Equatable {
        /// EV_KEY: `value` 1 press, 0 release, 2 auto-repeat.
        case key(code: UInt16, value: Int32)
        /// EV_SYN/SYN_DROPPED: the kernel's buffer overflowed and events were lost.
        case dropped
    }

    public var kind: Kind
    /// The kernel's stamp on CLOCK_MONOTONIC, in nanoseconds.
    public var monotonicNanoseconds: Int64
    /// True for a state change libevdev synthesised while resynchronising after a SYN_DROPPED.
    public var resync: Bool

    public init(_ kind: Kind, at monotonicNanoseconds: Int64, resync: Bool = false) {
        self.kind = kind
        self.monotonicNanoseconds = monotonicNanoseconds
        self.resync = resync
    }

    /// A key event; `value` 1 press, 0 release, 2 repeat.
    public static func key(_ code: UInt16, _ value: Int32, at nanoseconds: Int64, resync: Bool = false) -> EvdevEvent {
        EvdevEvent(.key(code: code, value: value), at: nanoseconds, resync: resync)
    }

    /// The shim's flat event, or nil for a type the button does not use.
    init?(_ raw: chrono_evdev_event) {
        if raw.type == chrono_evdev_type_key() {
            self.init(.key(code: raw.code, value: raw.value), at: raw.timestamp_ns, resync: raw.resync)
        } else if raw.type == chrono_evdev_type_syn(), raw.code == chrono_evdev_code_syn_dropped() {
            self.init(.dropped, at: raw.timestamp_ns)
        } else {
            return nil
        }
    }
}
