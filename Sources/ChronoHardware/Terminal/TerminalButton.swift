import CLinuxSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The desktop board's button: the terminal keyboard. Space and Enter are the button; `q` asks to quit.
///
/// Each keystroke is stamped with CLOCK_MONOTONIC when it is read, and it is read as soon as it
/// arrives: the loop waits on `pollDescriptor`, an epoll descriptor that becomes readable when the
/// terminal has input. Key auto-repeat is folded into one long hold by `KeyHoldModel` (read its notes:
/// a terminal reports no releases, so a release is known only when the repeats stop); the release is
/// due at an instant, for which this driver keeps its own absolute `timerfd` inside the same epoll set,
/// so the loop wakes for it without the driver ever sleeping.
///
/// The terminal is put into non-canonical, no-echo mode (`TerminalMode`) and restored by `close()`, at
/// exit and on a crash. A pipe instead of a terminal (tests, `printf ' ' | chronoception …`) works too:
/// bytes are then read as they come, without any mode change.
public final class TerminalButton: ButtonInput, Sendable {
    /// The keys that are the button: space, Enter (CR, or LF once the terminal translated it).
    public static let pressKeys: Set<UInt8> = [0x20, 0x0D, 0x0A]
    /// The keys that ask to quit.
    public static let quitKeys: Set<UInt8> = [UInt8(ascii: "q"), UInt8(ascii: "Q")]

    private struct State {
        var model: KeyHoldModel
        var mode: TerminalMode?
        var open = true
    }

    private let input: Int32
    private let epoll: Int32
    private let timer: Int32
    private let state: Mutex<State>
    private let onQuit: @Sendable () -> Void

    /// - Parameters:
    ///   - input: the terminal (standard input by default).
    ///   - holdModel: the auto-repeat windows.
    ///   - onQuit: called (on the loop thread) when `q` is pressed.
    public init(input: Int32 = STDIN_FILENO, holdModel: KeyHoldModel = KeyHoldModel(),
                onQuit: @escaping @Sendable () -> Void) throws(TerminalError) {
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw TerminalError("epoll_create1", errno: errno) }
        let timer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard timer >= 0 else {
            Glibc.close(epoll)
            throw TerminalError("timerfd_create", errno: errno)
        }
        for descriptor in [input, timer] {
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.fd = descriptor
            guard epoll_ctl(epoll, EPOLL_CTL_ADD, descriptor, &event) == 0 else {
                let failure = TerminalError(
                    descriptor == input ? "watching standard input (it must be a terminal or a pipe, not a file)" : "epoll_ctl",
                    errno: errno)
                Glibc.close(timer)
                Glibc.close(epoll)
                throw failure
            }
        }
        let mode: TerminalMode?
        do {
            mode = try TerminalMode.enter(descriptor: input)
        } catch {
            Glibc.close(timer)
            Glibc.close(epoll)
            throw error
        }
        self.input = input
        self.epoll = epoll
        self.timer = timer
        self.onQuit = onQuit
        state = Mutex(State(model: holdModel, mode: mode))
    }

    deinit { close() }

    /// Readable when a key or a release deadline is waiting.
    public var pollDescriptor: Int32 { epoll }

    /// Whether standard input is a terminal (raw mode applied) rather than a pipe.
    public var isTerminal: Bool { state.withLock { $0.mode != nil } }

    public func readEdges() throws -> [ButtonEdge] {
        var quit = false
        let edges = try state.withLock { state throws(TerminalError) -> [ButtonEdge] in
            guard state.open else { return [] }
            var edges: [ButtonEdge] = []
            var ready = [epoll_event](repeating: epoll_event(), count: 2)
            // A zero timeout: this asks which descriptor is ready, it never waits.
            let count = epoll_wait(epoll, &ready, Int32(ready.count), 0)
            let inputReady = count > 0 && ready.prefix(Int(count)).contains { $0.data.fd == input }
            if count > 0 && ready.prefix(Int(count)).contains(where: { $0.data.fd == timer }) {
                var expirations: UInt64 = 0
                _ = read(timer, &expirations, 8)
            }
            if inputReady {
                var buffer = [UInt8](repeating: 0, count: 64)
                let got = read(input, &buffer, buffer.count)
                let arrival = HardwareClock.monotonicNanoseconds()
                if got < 0 && errno != EAGAIN && errno != EINTR { throw TerminalError("read", errno: errno) }
                if got == 0 && state.mode == nil {
                    // End of a piped input: no key can come any more. Stop watching it (it would stay
                    // readable forever); the session goes on until it ends, Ctrl-C or SIGTERM.
                    _ = epoll_ctl(epoll, EPOLL_CTL_DEL, input, nil)
                }
                for byte in buffer.prefix(max(got, 0)) {
                    if Self.pressKeys.contains(byte) {
                        // CR LF from a pipe is one Enter, not two presses.
                        edges += state.model.keystroke(byte == 0x0A ? 0x0D : byte, at: arrival)
                    } else if Self.quitKeys.contains(byte) {
                        quit = true
                    }
                }
            }
            edges += state.model.advance(to: HardwareClock.monotonicNanoseconds())
            try armTimer(at: state.model.releaseDeadline)
            return edges
        }
        if quit { onQuit() }
        return edges
    }

    /// Restores the terminal and releases the descriptors (standard input itself stays open).
    public func close() {
        state.withLock { state in
            guard state.open else { return }
            state.open = false
            state.mode?.restore()
            state.mode = nil
            Glibc.close(timer)
            Glibc.close(epoll)
        }
    }

    private func armTimer(at instant: Int64?) throws(TerminalError) {
        var setting = itimerspec()
        if let instant {
            let nanoseconds = max(instant, 1)
            setting.it_value = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        }
        guard timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &setting, nil) == 0 else {
            throw TerminalError("timerfd_settime", errno: errno)
        }
    }
}
