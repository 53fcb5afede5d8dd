import CLinuxSystem
#if canImport(Glibc)
import Glibc
#endif

/// The loop's one wait: `ppoll` on a fixed set of descriptors with no timeout at all.
///
/// Time is never waited for here: the `AbsoluteTimer` is one of the descriptors. A poll timeout would
/// be rounded up by the kernel's timer slack (milliseconds for long waits), so it is never used.
struct Poller {
    private var descriptors: [pollfd]

    init(_ fds: [Int32]) {
        descriptors = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    }

    /// What one wait found.
    struct Readiness {
        var readable: Set<Int32> = []
        /// Descriptors whose other end is gone (POLLHUP/POLLERR): they would stay "ready" forever.
        var hungUp: Set<Int32> = []
    }

    /// Blocks until at least one descriptor is readable (or has hung up, or a signal interrupted the
    /// wait); nothing is ready after EINTR.
    mutating func wait() throws(SystemCallError) -> Readiness {
        for index in descriptors.indices { descriptors[index].revents = 0 }
        let result = chrono_ppoll_without_timeout(&descriptors, nfds_t(descriptors.count))
        if result < 0 {
            if errno == EINTR { return Readiness() }
            throw SystemCallError("ppoll")
        }
        var ready = Readiness()
        for entry in descriptors where entry.revents != 0 {
            if entry.revents & Int16(POLLNVAL) != 0 {
                throw SystemCallError("ppoll (descriptor \(entry.fd) is not open)", errno: EBADF)
            }
            if entry.revents & Int16(POLLIN) != 0 { ready.readable.insert(entry.fd) }
            if entry.revents & Int16(POLLHUP | POLLERR) != 0 { ready.hungUp.insert(entry.fd) }
        }
        return ready
    }
}
