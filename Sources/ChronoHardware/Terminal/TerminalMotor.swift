import Synchronization

/// The desktop board's motor: each switch-on draws a visible pulse on the terminal (and rings the bell
/// when asked), so the haptic cues and interval patterns can be seen — and with the bell, heard.
/// Nothing is drawn for switch-off; the pulse lengths are the loop's business, not the screen's.
public final class TerminalMotor: MotorOutput, Sendable {
    private let screen: TerminalScreen
    private let bell: Bool
    private let on = Mutex(false)

    public init(screen: TerminalScreen, bell: Bool = false) {
        self.screen = screen
        self.bell = bell
    }

    public func set(on newValue: Bool) throws {
        let switchedOn = on.withLock { current in
            defer { current = newValue }
            return newValue && !current
        }
        if switchedOn { screen.pulse(bell: bell) }
    }

    /// Whether the (virtual) motor is on now.
    public var isOn: Bool { on.withLock { $0 } }

    /// Off, and the screen left on a fresh line.
    public func close() {
        on.withLock { $0 = false }
        screen.endLine()
    }
}
