import ChronoCore
import ChronoRuntime
import ChronoStore

/// Makes the store the daemon's `DeviceLibrary`: the last configuration for "Start Last Session" (the
/// settings' defaults before the first session), presets in frecency order with their saved H(I)
/// patterns, and the health-log status for the state file. Read between sessions only.
final class StoreDeviceLibrary: DeviceLibrary {
    let store: ChronoStore

    init(store: ChronoStore) { self.store = store }

    func idleMenuInputs(nowUnixSeconds: Int64) -> (lastConfiguration: SessionConfiguration, presets: [TrainingInterval], patterns: IntervalPatternBook) {
        let ranked = (try? store.rankedPresets(nowUnixSeconds: nowUnixSeconds))
            ?? [RankedPreset(interval: .builtInPreset, score: 0, useCount: 0, lastUsedUnixSeconds: nil)]
        let book = (try? store.patternBook(ranked: ranked, nowUnixSeconds: nowUnixSeconds)) ?? IntervalPatternBook()
        var configuration = (try? store.lastConfiguration()) ?? nil
        if configuration == nil {
            configuration = try? (try? store.settings())?.sessionConfiguration()
        }
        var last = configuration ?? (try! SessionConfiguration(mode: .challenge, interval: .builtInPreset))
        if let pattern = book.pattern(for: last.interval) { last.intervalPattern = pattern }
        return (last, ranked.map(\.interval), book)
    }

    func healthStatus() -> String {
        (try? store.settings().healthStatus) ?? "failing: the store cannot be read"
    }
}
