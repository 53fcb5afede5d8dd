/// The texts a first-boot apply leaves for people and for the daemon: the report
/// (`/var/lib/chronoception/first-boot.txt`), the lines printed for the journal and the serial
/// console, and the problem marker (`first-boot-problems`, docs/FIRST-BOOT.md).
public enum FirstBootReport {
    /// The report: where the file came from, what the device has, each problem, what was removed.
    /// No secret appears in it, and no time (the journal dates it), so the same apply reports the same.
    public static func text(source: String, found: Bool, summary: [String], problems: [FirstBootProblem], removed: [FirstBootFile.SecretLine]) -> String {
        var lines = [found ? "Chronoception first boot: applied \(source)." : "Chronoception first boot: no \(source); the defaults apply."]
        lines.append("")
        lines.append("What the device has:")
        lines += summary.map { "  " + $0 }
        lines.append("")
        if problems.isEmpty {
            lines.append("Problems: none.")
        } else {
            lines.append("Problems (\(problems.count)), each with its fix in chronoception.txt:")
            lines += problems.map { "  " + $0.description }
        }
        if !removed.isEmpty {
            lines.append("")
            let words = removed.map { secret in
                let lines = secret.lastLine > secret.line ? "lines \(secret.line)-\(secret.lastLine)" : "line \(secret.line)"
                return "\(secret.name) (\(lines)\(secret.valid ? "" : ", not applied"))"
            }
            lines.append("Removed from chronoception.txt: \(words.joined(separator: ", ")).")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The problem marker's text: one problem a line, `LINE<tab>KEY<tab>MESSAGE`, with `-` for a
    /// problem of the whole file (no line) or of a line that is no setting (no key). Written only
    /// when there are problems; its presence is the daemon's signal.
    public static func marker(_ problems: [FirstBootProblem]) -> String {
        problems.map { "\($0.line.map(String.init) ?? "-")\t\($0.key ?? "-")\t\($0.message)\n" }.joined()
    }
}
