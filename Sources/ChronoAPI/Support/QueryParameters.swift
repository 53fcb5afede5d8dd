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

    func mode(_ name: String = "mode") throws(APIError) -> SessionMode? {
        guard let text = string(name) else { return nil }
        guard let mode = SessionMode(rawValue: text.lowercased()) else {
            throw APIError.badRequest("'\(text)' is not a mode. Use challenge, fear, passive or reproduction.")
        }
        return mode
    }

    /// A local date `YYYY-MM-DD` inside the accepted range, bounded by `CalendarDay`, so the store's day
    /// arithmetic cannot overflow.
    func day(_ name: String) throws(APIError) -> CalendarDay? {
        guard let text = string(name) else { return nil }
        guard let day = CalendarDay(parsing: text) else {
            throw APIError.badRequest("\(name) must be a date as YYYY-MM-DD \(CalendarDay.rangeText), e.g. 2026-11-23; got '\(text.prefix(40))'.")
        }
        return day
    }
}
