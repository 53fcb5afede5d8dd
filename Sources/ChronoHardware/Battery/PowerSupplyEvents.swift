import CLinuxSystem
#if canImport(Glibc)
import Glibc
#endif

/// The kernel's power-supply uevents (a charger plugged in, a gauge's new level), on a netlink socket,
/// so the battery thread reads the battery at once instead of at its next poll. `wait` returns early
/// for such an event or for `wake()` (the daemon stopping). Where the socket cannot be opened (a
/// container without netlink), `open()` says why and the thread only polls.
public final class PowerSupplyEvents: @unchecked Sendable {
    private let socket: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// Why it cannot be watched (the errno's words).
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    private init(socket: Int32, wakeRead: Int32, wakeWrite: Int32) {
        self.socket = socket
        self.wakeRead = wakeRead
        self.wakeWrite = wakeWrite
    }

    public static func open() throws(Unavailable) -> PowerSupplyEvents {
        let socket = chrono_uevent_socket()
        guard socket >= 0 else { throw Unavailable(description: "netlink uevent socket: \(String(cString: strerror(errno)))") }
        var ends: [Int32] = [-1, -1]
        guard chrono_pipe2(&ends, O_NONBLOCK | O_CLOEXEC) == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw Unavailable(description: "pipe2: \(reason)")
        }
        return PowerSupplyEvents(socket: socket, wakeRead: ends[0], wakeWrite: ends[1])
    }

    deinit {
        close(socket)
        close(wakeRead)
        close(wakeWrite)
    }

    /// What ended a wait.
    public enum Wakeup: Equatable, Sendable {
        case timedOut
        /// One or more power_supply uevents arrived (all queued ones are taken).
        case powerSupplyChanged
        case woken
    }

    /// Waits up to `milliseconds` for a power_supply uevent or `wake()`. Other subsystems' uevents are
    /// read and ignored, and the wait goes on: a busy USB bus does not make the battery be read more often.
    public func wait(milliseconds: Int) -> Wakeup {
        var remaining = max(0, milliseconds)
        while true {
            var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let started = Self.nowMilliseconds()
            let ready = poll(&descriptors, 2, Int32(clamping: remaining))
            if ready < 0, errno != EINTR { return .timedOut }
            if descriptors[1].revents != 0 { return .woken }
            if descriptors[0].revents != 0, drainMessages() { return .powerSupplyChanged }
            remaining -= Int(Self.nowMilliseconds() - started)
            if ready == 0 || remaining <= 0 { return .timedOut }
        }
    }

    /// Ends a wait now (and every later one).
    public func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Reads every queued message; true when one is the power-supply class's.
    private func drainMessages() -> Bool {
        var found = false
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return found }
            if Self.isPowerSupplyEvent(buffer.prefix(count)) { found = true }
        }
    }

    /// Whether a kernel uevent (`ACTION@DEVPATH`, then NUL-separated `KEY=value` fields) is the
    /// power-supply class's: a field `SUBSYSTEM=power_supply`.
    public static func isPowerSupplyEvent<Bytes: Collection>(_ message: Bytes) -> Bool where Bytes.Element == UInt8 {
        let wanted = Array("SUBSYSTEM=power_supply".utf8)
        return message.split(separator: 0, omittingEmptySubsequences: true).contains { Array($0) == wanted }
    }

    private static func nowMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
