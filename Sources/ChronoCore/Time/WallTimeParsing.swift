extension WallTime {
    /// Parses ISO 8601 date-times with an offset: `2026-11-23T08:20:17Z`, `2026-11-23T08:20:17.5+01:00`,
    /// `2026-11-23 08:20:17 +0100` (Apple's export format). Nil when the text is not one of these.
    public init?(parsing text: String) {
        let scalars = Array(text.trimmingWhitespace.utf8)
        var position = 0
        func number(_ digits: Int) -> Int? {
            guard position + digits <= scalars.count else { return nil }
            var value = 0
            for byte in scalars[position..<position + digits] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            position += digits
            return value
        }
        func expect(_ options: [UInt8]) -> Bool {
            guard position < scalars.count, options.contains(scalars[position]) else { return false }
            position += 1
            return true
        }
        guard let year = number(4), expect([45]), let month = number(2), expect([45]), let day = number(2),
              expect([84, 32]), let hour = number(2), expect([58]), let minute = number(2), expect([58]),
              let second = number(2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var nanoseconds: Int64 = 0
        if expect([46]) {
            var scale: Int64 = 100_000_000
            var digits = 0
            while position < scalars.count, scalars[position] >= 48, scalars[position] <= 57 {
                nanoseconds += Int64(scalars[position] - 48) * scale
                scale /= 10
                position += 1
                digits += 1
            }
            guard digits > 0 else { return nil }
        }
        _ = expect([32])
        var offset = 0
        if expect([90]) {
            offset = 0
        } else {
            guard position < scalars.count else { return nil }
            let negative = scalars[position] == 45
            guard expect([43, 45]), let offsetHours = number(2) else { return nil }
            _ = expect([58])
            guard let offsetMinutes = number(2) else { return nil }
            offset = (offsetHours * 3600 + offsetMinutes * 60) * (negative ? -1 : 1)
        }
        guard position == scalars.count else { return nil }
        let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
        let localSeconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        // Years up to 9999 fit in seconds but not all in Int64 nanoseconds (the limit is in 2262).
        let (scaled, overflow) = (localSeconds - Int64(offset)).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return nil }
        let (total, overflowAdding) = scaled.addingReportingOverflow(nanoseconds)
        guard !overflowAdding else { return nil }
        self.init(unixNanoseconds: total, utcOffsetSeconds: offset)
    }
}
