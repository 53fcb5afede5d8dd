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
            throw APIError.badRequest("'\(text)' is not a mode. Use challenge, fear or passive.")
        }
        return mode
    }

    /// A local date `YYYY-MM-DD`, as a day number.
    func day(_ name: String) throws(APIError) -> Int64? {
        guard let text = string(name) else { return nil }
        guard let day = CivilDayText.dayNumber(text) else {
            throw APIError.badRequest("\(name) must be a date as YYYY-MM-DD, e.g. 2026-11-23; got '\(text)'.")
        }
        return day
    }
}

/// `YYYY-MM-DD` to a day number (days since 1970-01-01) through the core's `CivilDate`, checked
/// by converting back (so 2026-02-30 is refused, not rolled over).
enum CivilDayText {
    static func dayNumber(_ text: String) -> Int64? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(day), year >= 1970 else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        let number = date.daysSinceEpoch
        return CivilDate(daysSinceEpoch: number) == date ? number : nil
    }
}
