import ArgumentParser
import ChronoCore
import ChronoStore

/// `chronoception presets`: every used interval and the built-in 5m 0s in frecency order, each with
/// its haptic pattern H(I) (assigned and kept the first time it is listed).
struct PresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract: "List presets in frecency order with their haptic patterns.",
        discussion: "Frecency: each use weighs 0.5^(age / 14 days); an interval's score is the sum over its uses.")
    @OptionGroup var store: StoreOptions
    @Flag(help: "Machine-readable output.") var json = false

    func run() throws {
        try reportingFailures {
            let opened = try store.openStore()
            let ranked = try opened.rankedPresets(nowUnixSeconds: nowUnixSeconds)
            let book = try opened.patternBook(ranked: ranked, nowUnixSeconds: nowUnixSeconds)
            if json {
                print(JSONValue.array(ranked.map { preset in
                    .object([
                        ("interval", .string(preset.interval.description)),
                        ("interval_seconds", .int(preset.interval.seconds)),
                        ("pattern", book.pattern(for: preset.interval).map { .string($0.description) } ?? .null),
                        ("uses", .int(preset.useCount)),
                        ("score", .double(Double(Int((preset.score * 100).rounded())) / 100)),
                    ])
                }).prettyText)
                return
            }
            print("  Interval   H(I)        Uses  Score")
            for preset in ranked {
                let pattern = book.pattern(for: preset.interval)?.description ?? "—"
                print("  " + pad(preset.interval.description, 9) + "  " + pad(pattern, 10) + "  " + pad(String(preset.useCount), 4)
                      + "  " + String(Double(Int((preset.score * 100).rounded())) / 100))
            }
        }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
