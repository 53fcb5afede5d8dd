// The seams between the real-time runtime and the devices. The runtime only ever talks to these
// protocols; the libgpiod/ALSA drivers, the desktop terminal drivers and the mocks implement them.
// Instants here are raw CLOCK_MONOTONIC nanoseconds (Int64): the hardware layer does not import the core.

/// One debounced-or-raw level change of the button, already corrected for polarity
/// (`pressed` means the user pushed the button, whatever the wiring), stamped by the kernel.
public struct ButtonEdge: Sendable, Equatable {
    /// Which way the button moved.
    public enum Direction: String, Sendable, Equatable {
        case pressed
        case released
    }

    public var direction: Direction
    /// CLOCK_MONOTONIC nanoseconds at which the edge happened (the kernel's timestamp where there is one).
    public var monotonicNanoseconds: Int64

    public init(_ direction: Direction, at monotonicNanoseconds: Int64) {
        self.direction = direction
        self.monotonicNanoseconds = monotonicNanoseconds
    }
}

/// A push button the runtime can wait on: it exposes a pollable file descriptor and drains the edges
/// that are ready without blocking.
public protocol ButtonInput: AnyObject {
    /// A descriptor that becomes readable (POLLIN) when edges are waiting.
    var pollDescriptor: Int32 { get }
    /// Returns every edge that is ready now, oldest first; never blocks.
    func readEdges() throws -> [ButtonEdge]
    /// Releases the line. Safe to call more than once.
    func close()
}

/// A vibration motor (or anything that stands in for one). `close()` must leave it off.
public protocol MotorOutput: AnyObject {
    /// Switches the motor on or off now.
    func set(on: Bool) throws
    /// Switches the motor off and releases the line. Safe to call more than once, and from a signal path.
    func close()
}

/// Whether sound will really come out, and why not when it will not.
public enum SoundAudibility: Sendable, Equatable {
    case audible(description: String)
    case inaudible(reason: String)

    public var isAudible: Bool {
        if case .audible = self { return true }
        return false
    }
}

/// The speaker that plays Fear Mode's aversive sound.
public protocol SoundOutput: AnyObject {
    /// Checks that a device can be opened and its mixer playback is neither muted nor at zero volume.
    func checkAudibility() -> SoundAudibility
    /// Opens and prepares the device so that a later `playAversiveSound()` costs only the write.
    func prepare() throws
    /// Plays the pre-synthesised aversive sound to the end. Blocking: call it from a sound thread, never
    /// from the session loop.
    func playAversiveSound() throws
    /// Closes the device. Safe to call more than once.
    func close()
}
