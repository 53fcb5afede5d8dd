/// Where health records go: a JSON Lines file on the device, or a stand-in in tests (a full disk).
public protocol HealthLogTarget: Sendable {
    /// Appends one line (without its newline) and makes it durable before returning.
    func append(line: String) throws(HealthLogWriteError)
    /// The `HKMetadataKeySyncIdentifier` of every record already in the log, so that a backfill never
    /// writes a session twice (a crash may fall between the append and the ledger update).
    func existingSyncIdentifiers() throws(HealthLogWriteError) -> Set<String>
}

/// Why the health log could not be written, in words for `health status`.
public struct HealthLogWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
