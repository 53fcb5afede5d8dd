import ChronoCore

/// The filters a person finds sessions by — mode, interval, first and last day, study — as the text
/// they typed, from the page's query (`GET /api/v1/sessions?mode=…`) or the command line
/// (`sessions --mode …`, `export csv --mode …`), and the one validator of that text: it gives the
/// query's filters or refuses in words that name the filter (as its asker calls it) and the fix, so
/// the page and the command line accept and refuse the same values with the same sentences.
public struct SessionFilterText: Hashable, Sendable {
    public var mode: String?
    public var interval: String?
    /// The first local day, `YYYY-MM-DD`.
    public var from: String?
    /// The last local day, `YYYY-MM-DD`, inclusive.
    public var to: String?
    /// A study protocol's name: only the sessions run as part of it.
    public var study: String?

    public init(mode: String? = nil, interval: String? = nil, from: String? = nil, to: String? = nil, study: String? = nil) {
        self.mode = mode
        self.interval = interval
        self.from = from
        self.to = to
        self.study = study
    }

    /// How the asker names each filter in a refusal: the API's query parameters (`from`) or the
    /// command line's options (`--from`).
    public struct Names: Hashable, Sendable {
        public var from: String
        public var to: String
        public var study: String

        public static let query = Names(from: "from", to: "to", study: "study")
        public static let options = Names(from: "--from", to: "--to", study: "--study")
    }

    /// Whether any filter is given.
    public var isEmpty: Bool { [mode, interval, from, to, study].allSatisfy { $0 == nil } }

    /// `query` with these filters set, or the first refusal in the order mode, interval, from, to,
    /// the two days' order, study.
    public func applied(to query: SessionQuery, names: Names) throws(SessionFilterError) -> SessionQuery {
        var query = query
        if let mode {
            guard let parsed = SessionMode(rawValue: mode.lowercased()) else {
                throw SessionFilterError("\(TerminalSafeText.quoted(mode)) is not a mode. Use \(SessionMode.listText).")
            }
            query.mode = parsed
        }
        if let interval {
            do { query.interval = try TrainingInterval.parse(interval) } catch { throw SessionFilterError(error.description) }
        }
        query.fromDay = try Self.day(from, name: names.from)
        query.toDay = try Self.day(to, name: names.to)
        if let first = query.fromDay, let last = query.toDay, first > last {
            throw SessionFilterError("\(names.from) must not be after \(names.to).")
        }
        if let study {
            if let problem = StudyNames.problem(study, what: names.study) { throw SessionFilterError(problem + ".") }
            query.study = study
        }
        return query
    }

    /// A local date `YYYY-MM-DD` inside the accepted range, bounded by `CalendarDay`, so the store's day
    /// arithmetic cannot overflow.
    static func day(_ text: String?, name: String) throws(SessionFilterError) -> CalendarDay? {
        guard let text else { return nil }
        guard let day = CalendarDay(parsing: text) else {
            throw SessionFilterError("\(name) must be a date as YYYY-MM-DD \(CalendarDay.rangeText), e.g. 2026-11-23; got \(TerminalSafeText.quoted(text, limit: 40)).")
        }
        return day
    }
}

/// A session filter refused: the sentence names the filter, what is wrong and what is accepted.
public struct SessionFilterError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
