/// A server that stopped before it was listening: its own error is the cause (the address or the
/// socket in use, a folder not writable), and that error's message already names the fix. `companion`
/// and `chronoception-collector serve` say it in one sentence, never as an HTTP status.
public struct ServerStartFailure: Error, CustomStringConvertible {
    /// What could not start, as the sentence's subject: "The device API", "The collector".
    public var server: String
    public var cause: any Error

    public var description: String {
        let text = (cause as? APIError)?.message ?? "\(cause)"
        return "\(server) could not start: " + (text.hasSuffix(".") ? text : text + ".")
    }
}

extension ThrowingTaskGroup where ChildTaskResult == Void, Failure == any Error {
    /// Waits for `listening()` of a server whose `run()` is this group's task. When the server stops
    /// first, the answer is only "not listening": the run's own error says why, so that is thrown.
    public mutating func awaitListening(
        _ server: String, _ listening: () async throws -> APIServer.Listening
    ) async throws -> APIServer.Listening {
        do {
            return try await listening()
        } catch {
            var cause: any Error = error
            do { try await next() } catch let stopped { cause = stopped }
            throw ServerStartFailure(server: server, cause: cause)
        }
    }
}
