/// Why the battery could not be read this time: which file, what it held, and what to check. Never a
/// trap: the daemon says it once, keeps the last good reading's rules off, and tries at the next poll.
public struct BatteryProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var problem: String
    public var fix: String

    public init(problem: String, fix: String) {
        self.problem = problem
        self.fix = fix
    }

    public var description: String { "Battery: \(problem). Fix: \(fix)" }
}
