import ChronoCore
import ChronoStore
import Hummingbird

/// Query parameters, validated with the same core types as the command line's options.
struct QueryParameters {
    let request: Request

    func string(_ name: String) -> String? {
        request.uri.queryParameters[Substring(name)].map(String.init)
    }

    func int(_ name: String, in range: ClosedRange<Int>) throws(APIError) -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw APIError.badRequest("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound); got '\(text)'.")
        }
        return value
    }

    func bool(_ name: String) throws(APIError) -> Bool? {
        guard let text = string(name) else { return nil }
        switch text.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: throw APIError.badRequest("\(name) is true or false; got '\(text)'.")
        }
    }

    func interval(_ name: String = "interval") throws(APIError) -> TrainingInterval? {
        guard let text = string(name) else { return nil }
        do { return try TrainingInterval.parse(text) } catch { throw APIError.badRequest(error.description) }
    }
}
