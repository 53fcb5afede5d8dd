import Foundation
import NIOCore
import NIOSSL

/// Keeps the first TLS error a connection's handshake raised. When the handshake fails, NIOSSL closes
/// the channel, and the request's pending write may fail first with "I/O on closed channel"; the
/// exchange then asks this recorder for the real reason (an untrusted certificate, another host's
/// name), so the failure says `tls_failed` whichever error arrived first.
final class TLSErrorRecorder: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = NIOAny
    private let lock = NSLock()
    private var recorded: (any Error)?

    /// The first TLS error seen on the channel, if any.
    var first: (any Error)? { lock.lock(); defer { lock.unlock() }; return recorded }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if CollectorClient.isTLSError(error) {
            lock.lock()
            if recorded == nil { recorded = error }
            lock.unlock()
        }
        context.fireErrorCaught(error)
    }
}
