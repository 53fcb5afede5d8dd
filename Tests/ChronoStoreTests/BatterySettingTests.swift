import ChronoCore
@testable import ChronoStore
import ChronoSync
import Testing

/// `battery-low`, `battery-stop`, `battery-critical`: 15, 5 and 3 % by default, each in its range and
/// in order with the other two, through the one validator; per device (never in what sync sends).
@Suite("Settings: battery levels")
struct BatterySettingTests {
    static func refusal(_ key: SettingKey, _ value: String, _ current: StoreSettings) -> String? {
        do {
            _ = try key.canonicalValue(value, current: current)
            return nil
        } catch {
            guard case .invalidValue(let words) = error else { return "\(error)" }
            return words
        }
    }

    @Test("defaults 15/5/3; a value in range and order is stored, with or without a % sign")
    func defaultsAndValues() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        #expect(try store.settings().batteryThresholds == BatteryThresholds(low: 15, stop: 5, critical: 3))
        #expect(try store.setSetting(.batteryLow, to: "20 %", nowUnixSeconds: 1) == "20")
        #expect(try store.setSetting(.batteryStop, to: "8", nowUnixSeconds: 2) == "8")
        #expect(try store.setSetting(.batteryCritical, to: " 4 ", nowUnixSeconds: 3) == "4")
        #expect(try store.settings().batteryThresholds == BatteryThresholds(low: 20, stop: 8, critical: 4))
        #expect(try !store.syncPreferences().contains { $0.key.hasPrefix("battery-") })
    }

    @Test("out of range, not a number, or out of order with the other two: refused in words")
    func refusals() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        let current = try store.settings()
        #expect(Self.refusal(.batteryLow, "60", current) == "battery-low must be a whole percent from 5 to 50; got '60'.")
        #expect(Self.refusal(.batteryStop, "five", current) == "battery-stop must be a whole percent from 2 to 30; got 'five'.")
        #expect(Self.refusal(.batteryCritical, "0", current) == "battery-critical must be a whole percent from 1 to 20; got '0'.")
        #expect(Self.refusal(.batteryStop, "20", current)
            == "the battery levels must keep battery-critical < battery-stop < battery-low; they would be 3 %, 20 % and 15 %. Change the other level first (`chronoception settings list` shows them).")
        #expect(Self.refusal(.batteryCritical, "5", current)
            == "the battery levels must keep battery-critical < battery-stop < battery-low; they would be 5 %, 5 % and 15 %. Change the other level first (`chronoception settings list` shows them).")
        #expect(Self.refusal(.batteryLow, "10", current) == nil)
    }
}
