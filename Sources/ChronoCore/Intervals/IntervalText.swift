/// The grammar of interval input (SPEC §1): an optional minutes part `Nm`, an optional seconds part
/// `N` or `Ns`, with optional spaces between them. Validation of the range is the caller's.
enum IntervalText {
    static func parseSeconds(_ rawText: String) throws(IntervalError) -> Int {
        let text = rawText.trimmingWhitespace
        guard !text.isEmpty else { throw .empty }
        var scanner = Substring(text)
        var minutes: Int?
        var seconds: Int?

        let first = scanner.takeDigits()
        guard let firstNumber = first else { throw .malformed(text: text) }
        scanner.skipSpaces()
        if scanner.first == "m" {
            scanner.removeFirst()
            minutes = firstNumber
            scanner.skipSpaces()
            if let secondNumber = scanner.takeDigits() {
                seconds = secondNumber
                scanner.skipSpaces()
                if scanner.first == "s" { scanner.removeFirst() }
            }
        } else {
            seconds = firstNumber
            if scanner.first == "s" { scanner.removeFirst() }
        }
        scanner.skipSpaces()
        guard scanner.isEmpty else { throw .malformed(text: text) }

        if let minutes {
            let secondsPart = seconds ?? 0
            guard secondsPart < 60 else { throw .secondsOutOfRange(text: text) }
            let (product, overflow) = minutes.multipliedReportingOverflow(by: 60)
            guard !overflow else { throw .tooLong(seconds: Int.max) }
            return product + secondsPart
        }
        return seconds ?? 0
    }
}

extension Substring {
    /// Removes and returns a run of ASCII digits; nil when there is none. Saturates instead of
    /// overflowing so that absurd input is reported as too long, not as a crash.
    mutating func takeDigits() -> Int? {
        var value: Int?
        while let character = first, let digit = character.asciiDigitValue {
            let (shifted, overflowA) = (value ?? 0).multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(digit)
            value = (overflowA || overflowB) ? Int.max / 2 : sum
            removeFirst()
        }
        return value
    }

    mutating func skipSpaces() {
        while let character = first, character == " " || character == "\t" { removeFirst() }
    }
}

extension Character {
    var asciiDigitValue: Int? {
        guard let ascii = asciiValue, ascii >= 48, ascii <= 57 else { return nil }
        return Int(ascii - 48)
    }
}
