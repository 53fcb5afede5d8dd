/// A day-by-day series where a day without data is a gap (nil), never a zero (SPEC §5).
public struct DailySeries: Hashable, Sendable {
    /// The local day number (`WallTime.localDayNumber`) of the first value.
    public var firstDay: Int64
    /// One value per day from `firstDay`, nil where nothing happened.
    public var values: [Double?]

    public init(firstDay: Int64, values: [Double?]) {
        self.firstDay = firstDay
        self.values = values
    }

    /// The `dayCount` days ending with `lastDay`, taking values from `valuesByDay`.
    public init(lastDay: Int64, dayCount: Int, valuesByDay: [Int64: Double]) {
        let first = lastDay - Int64(max(dayCount, 1) - 1)
        self.firstDay = first
        self.values = (0..<Int64(max(dayCount, 1))).map { valuesByDay[first + $0] }
    }

    /// Eight block heights for values in `0...scaleMax`; a gap is a space, so an empty day reads as
    /// missing rather than as the lowest bar. Values outside the scale are clamped for drawing only.
    public func sparkline(scaleMax: Double) -> String {
        let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        var text = ""
        for value in values {
            guard let value else { text.append(" "); continue }
            let fraction = scaleMax > 0 ? min(max(value / scaleMax, 0), 1) : 0
            text.append(blocks[Int((fraction * Double(blocks.count - 1)).rounded(.toNearestOrAwayFromZero))])
        }
        return text
    }

    /// The day as `YYYY-MM-DD`, for labels and JSON.
    public static func dayText(_ day: Int64) -> String {
        WallTime(unixNanoseconds: day * 86_400_000_000_000, utcOffsetSeconds: 0).localDayText
    }
}
