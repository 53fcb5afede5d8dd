import NIOCore

/// Sheds a connection beyond its holder's cap (`ConnectionCounter`) the moment it becomes active:
/// it is closed before any byte is read, so a flood costs the server one accept and one close per
/// connection and never a descriptor held. An admitted connection is given back when it closes.
///
/// Both listeners accept through NIO's `ServerBootstrap`, which puts an `AcceptBackoffHandler` on
/// the listening channel (accepting pauses for a second when `accept` fails, e.g. EMFILE, instead of
/// spinning); this handler is what keeps the accepted ones from using up the descriptors in the first
/// place. The Unix socket's listener (Hummingbird's) installs it with `Installer`; the TCP listener
/// decides before it builds a pipeline at all (`admitting`).
final class ConnectionLimit: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Any

    let counter: ConnectionCounter
    /// The share this connection holds; nil until admitted (and for a shed one).
    private var holding: ConnectionCounter.Holder?

    init(counter: ConnectionCounter) {
        self.counter = counter
    }

    /// A handler already holding `channel`'s share, or nil when its holder's cap is reached: for a
    /// listener that decides as soon as a connection is accepted (before it is registered, its peer
    /// known), so a shed one costs no pipeline at all (`TCPHTTPServer`).
    static func admitting(_ channel: any Channel, counter: ConnectionCounter) -> ConnectionLimit? {
        let holder = ConnectionCounter.Holder(RequestPeer(channel: channel))
        guard counter.admit(holder) else { return nil }
        let handler = ConnectionLimit(counter: counter)
        handler.holding = holder
        return handler
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // Added to a connection that is already active: no channelActive will come, so count it now.
        if context.channel.isActive, !admit(context) { context.close(promise: nil) }
    }

    func channelActive(context: ChannelHandlerContext) {
        guard admit(context) else {
            // Not passed on: nothing behind this handler starts (no idle timer, no request read).
            context.close(promise: nil)
            return
        }
        context.fireChannelActive()
    }

    private func admit(_ context: ChannelHandlerContext) -> Bool {
        guard holding == nil else { return true }
        let holder = ConnectionCounter.Holder(RequestPeer(channel: context.channel))
        guard counter.admit(holder) else { return false }
        holding = holder
        return true
    }

    func channelInactive(context: ChannelHandlerContext) {
        giveBack()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        // A pipeline torn down without channelInactive still gives its share back.
        giveBack()
    }

    private func giveBack() {
        if let holder = holding {
            holding = nil
            counter.release(holder)
        }
    }

    /// Hummingbird adds its extra handlers after the HTTP codec; this puts the limit first in the
    /// pipeline, ahead of the codec and the idle timer, when it is added.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = Any
        let counter: ConnectionCounter

        init(counter: ConnectionCounter) {
            self.counter = counter
        }

        func handlerAdded(context: ChannelHandlerContext) {
            try? context.pipeline.syncOperations.addHandler(ConnectionLimit(counter: counter), position: .first)
        }
    }
}
