/// Prints one line per check in a TAP-like form (`ok - …` / `not ok - …`) that Tests/hil/run counts.
final class CheckReport {
    private(set) var passed = 0
    private(set) var failed = 0
    let prefix: String

    init(prefix: String) { self.prefix = prefix }

    func check(_ name: String, _ condition: Bool, _ detail: @autoclosure () -> String = "") {
        if condition {
            passed += 1
            print("ok - \(prefix)\(name)\(detail().isEmpty ? "" : " (\(detail()))")")
        } else {
            failed += 1
            print("not ok - \(prefix)\(name)\(detail().isEmpty ? "" : ": \(detail())")")
        }
    }

    /// Runs a check whose body may throw; a throw is a failure with the error's text.
    func check(_ name: String, _ body: () throws -> (Bool, String)) {
        do {
            let (condition, detail) = try body()
            check(name, condition, detail)
        } catch {
            check(name, false, "threw \(error)")
        }
    }

    func note(_ text: String) { print("# \(prefix)\(text)") }
}
