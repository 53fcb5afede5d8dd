import ChronoCore
import ChronoSync
import Foundation

extension SyncedSession {
    /// The record as a `JSONValue`, encoded by its own `Codable` conformance (members sorted by name,
    /// as in a fallback file), for documents that embed it: the API's session and `--json-lines`.
    public var json: JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain values cannot fail; the core's reader reads what JSONEncoder writes.
        guard let data = try? encoder.encode(self), let value = JSONValue(parsing: String(decoding: data, as: UTF8.self)) else { return .null }
        return value
    }
}
