import ChronoHardware
import Synchronization

/// A motor line jumpered to an input, for the loopback self-test's tests: each `set(on:)` that changes
/// the line's level becomes an edge on `input` at once, stamped with the clock read in the call (as the
/// kernel stamps the interrupt); active when the motor goes on, or inactive with `inverted`.
/// `wired: false` is the missing jumper. No thread delivers late, so a loaded machine cannot move an
/// edge into the next pulse.
public final class JumperedLines: MotorOutput, Sendable {
    public let input: ScriptedButton
    private let inverted: Bool
    private let wired: Bool
    private let now: @Sendable () -> Int64
    private let level = Mutex(false)

    public init(inverted: Bool = false, wired: Bool = true,
                now: @escaping @Sendable () -> Int64 = HardwareClock.monotonicNanoseconds) throws {
        input = try ScriptedButton()
        self.inverted = inverted
        self.wired = wired
        self.now = now
    }

    public func set(on: Bool) throws {
        // A line set to the level it has makes no edge.
        guard wired, level.withLock({ level in defer { level = on }; return level != on }) else { return }
        input.inject(ButtonEdge(on != inverted ? .pressed : .released, at: now()))
    }

    public func close() {}
}
