import ChronoCore

/// The fuzz function: interval text. Whatever parses must print a form that parses back to the same
/// interval, inside the product range; nothing may trap.
func fuzzInterval(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let interval = try? TrainingInterval.parse(text) else { return 0 }
    precondition(interval.isProductInterval, "accepted an interval outside the product range: \(interval)")
    guard let again = try? TrainingInterval.parse(interval.description) else {
        preconditionFailure("the printed form '\(interval.description)' of an accepted interval does not parse")
    }
    precondition(again == interval, "'\(interval.description)' parses to \(again), not \(interval)")
    return 0
}
