import ArgumentParser

/// Range checks for numbers that enter through flags: a refusal names the flag, the value and the
/// allowed range (exit status 64), so no command computes with a value it cannot handle (NaN,
/// infinity, 1e300 seconds, Int64.max milliseconds).
enum BoundedNumber {
    static func check<Number: BinaryInteger>(_ value: Number, in range: ClosedRange<Number>, flag: String, unit: String) throws {
        guard range.contains(value) else {
            throw ValidationError("\(flag) \(value) is out of range: give \(range.lowerBound) to \(range.upperBound) \(unit).")
        }
    }

    static func check(_ value: Double, in range: ClosedRange<Double>, flag: String, unit: String) throws {
        guard value.isFinite, range.contains(value) else {
            throw ValidationError("\(flag) \(value) is out of range: give a number from \(format(range.lowerBound)) to \(format(range.upperBound)) \(unit).")
        }
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
