import NIOCore

/// Bounds how long a request may take to *arrive*: a connection whose client has been sending for
/// longer than `limit` since the server last answered is closed. Hummingbird's idle timeout counts each
/// body chunk as activity, so a body dripped a byte at a time would otherwise hold a connection for
/// as long as the body is (measured: 50 bytes over 50 s, still open). Timer-free: the rule is checked
/// when bytes arrive, which is exactly when a dripping client acts; a client that stops sending is the
/// idle timeout's.
///
/// It sits first in the pipeline, on raw bytes, so it sees a request's head and body alike without
/// naming Hummingbird's request-part type; any answer the server writes (a response, a live event)
/// starts the window again, so a long-poll or an event stream is never cut.
final class RequestArrivalLimit: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = Any
    typealias OutboundOut = Any

    let limit: TimeAmount
    /// When the first byte after the last answer arrived; nil while the server has the word.
    private var arrivingSince: NIODeadline?

    init(limit: TimeAmount) {
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let now = NIODeadline.now()
        if let since = arrivingSince {
            if now - since > limit {
                context.close(promise: nil)
                return
            }
        } else {
            arrivingSince = now
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        arrivingSince = nil
        context.write(data, promise: promise)
    }

    /// Hummingbird adds its extra handlers after the HTTP codec; this one puts the limit in front of
    /// it, on the bytes, when it is added.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = Any
        let limit: TimeAmount

        init(limit: TimeAmount) {
            self.limit = limit
        }

        func handlerAdded(context: ChannelHandlerContext) {
            try? context.pipeline.syncOperations.addHandler(RequestArrivalLimit(limit: limit), position: .first)
        }
    }
}
