#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP port held by a listener of the test's own (the kernel picks the port), so a server
/// started on it finds it taken. Closed by `close()`.
public final class TakenLoopbackPort {
    public let port: Int
    private let descriptor: Int32

    public init() throws(TakenLoopbackPortError) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw TakenLoopbackPortError() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, listen(listener, 1) == 0 else {
            Glibc.close(listener)
            throw TakenLoopbackPortError()
        }
        descriptor = listener
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    public func close() { Glibc.close(descriptor) }
}

/// The test's own listener could not be made (no loopback, no descriptor).
public struct TakenLoopbackPortError: Error {}
