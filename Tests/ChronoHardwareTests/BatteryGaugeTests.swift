import Foundation
import Testing
@testable import ChronoHardware

@Suite("Battery from sysfs: the power-supply class, hwmon with a curve, and every bad value refused")
struct BatteryGaugeTests {
    /// A temporary /sys of the shape the gauge reads, removed when the test ends.
    final class FakeSysfs {
        let root: String

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("battery-sysfs-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func write(_ relative: String, _ text: String) throws {
            let path = "\(root)/\(relative)"
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }

        func supply(_ name: String, capacity: String?, status: String?, voltage: String? = nil) throws {
            try FileManager.default.createDirectory(atPath: "\(root)/class/power_supply/\(name)", withIntermediateDirectories: true)
            if let capacity { try write("class/power_supply/\(name)/capacity", capacity) }
            if let status { try write("class/power_supply/\(name)/status", status) }
            if let voltage { try write("class/power_supply/\(name)/voltage_now", voltage) }
        }
    }

    static let lipo = DischargeCurve([.init(millivolts: 3300, percent: 0), .init(millivolts: 3700, percent: 50),
                                      .init(millivolts: 4200, percent: 100)])!

    static func problem(_ gauge: BatteryGauge) -> String {
        do { return "read \(try gauge.read())" } catch { return error.description }
    }

    @Test("a fuel gauge: capacity, status and voltage_now (µV) as the bq27xxx driver writes them")
    func powerSupply() throws {
        let sysfs = try FakeSysfs()
        try sysfs.supply("bq27441-0", capacity: "87\n", status: "Discharging\n", voltage: "3912000\n")
        let reading = try BatteryGauge(.powerSupply(name: "bq27441-0"), root: sysfs.root).read()
        #expect(reading == BatterySample(percent: 87, status: .discharging, millivolts: 3912))
        try sysfs.supply("bq27441-0", capacity: "100\n", status: "Full\n")
        #expect(try BatteryGauge(.powerSupply(name: "bq27441-0"), root: sysfs.root).read().status == .full)
    }

    @Test("no voltage_now is no voltage; every status word of the class maps")
    func statusWords() throws {
        let sysfs = try FakeSysfs()
        try sysfs.supply("BAT0", capacity: "5\n", status: "Not charging\n")
        #expect(try BatteryGauge(.powerSupply(name: "BAT0"), root: sysfs.root).read() == BatterySample(percent: 5, status: .notCharging))
        for (word, status) in [("Charging", BatterySample.Status.charging), ("Unknown", .unknown), ("Full", .full)] {
            #expect(try PowerSupplyValues.charge(word + "\n", file: "f") == status)
        }
    }

    @Test("garbage, out-of-range and missing values are clear problems, never a trap")
    func badValues() throws {
        let sysfs = try FakeSysfs()
        let gauge = BatteryGauge(.powerSupply(name: "bq27441-0"), root: sysfs.root)
        let directory = "\(sysfs.root)/class/power_supply/bq27441-0"
        #expect(Self.problem(gauge) == "Battery: \(directory)/capacity does not exist. Fix: check `ls /sys/class/power_supply` for the gauge's name and that its driver and overlay are loaded (docs/HARDWARE.md)")
        try sysfs.supply("bq27441-0", capacity: nil, status: "Charging\n")
        #expect(Self.problem(gauge) == "Battery: \(directory)/capacity does not exist. Fix: this supply reports no capacity (a charger, or a voltage-only gauge): use `driver: hwmon` with a curve")
        try sysfs.supply("bq27441-0", capacity: "12 %\n", status: "Charging\n")
        #expect(Self.problem(gauge) == "Battery: \(directory)/capacity reads \"12 %\", not a percent. Fix: check that the board file names the right device, and the driver (`dmesg`)")
        try sysfs.supply("bq27441-0", capacity: "250\n", status: "Charging\n")
        #expect(Self.problem(gauge) == "Battery: \(directory)/capacity reads 250 %, outside 0-100 %. Fix: the gauge is not calibrated or misreads; check its driver (`dmesg`) and the wiring")
        try sysfs.supply("bq27441-0", capacity: "50\n", status: "Sleeping\u{1B}[2J\n")
        #expect(Self.problem(gauge) == "Battery: \(directory)/status reads \"Sleeping?[2J\", not a charging status. Fix: check that the board file names a battery (`type` is Battery), not a charger or USB supply")
        try sysfs.supply("bq27441-0", capacity: "", status: "Charging\n")
        #expect(Self.problem(gauge) == "Battery: \(directory)/capacity reads nothing, not a percent. Fix: check that the board file names the right device, and the driver (`dmesg`)")
        try sysfs.supply("bq27441-0", capacity: String(repeating: "9", count: 100), status: "Charging\n")
        #expect(Self.problem(gauge) == "Battery: \(directory)/capacity holds more than 64 bytes, not a sysfs value. Fix: check that the board file names the right device")
        try sysfs.supply("bq27441-0", capacity: "50\n", status: "Charging\n", voltage: "-1\n")
        #expect(Self.problem(gauge) == "Battery: \(directory)/voltage_now reads -1 µV, outside 1000-30000000 µV. Fix: the gauge is not calibrated or misreads; check its driver (`dmesg`) and the wiring")
    }

    @Test("a voltage-only HAT: the hwmon device found by its name, in1_input in mV through the curve")
    func hwmon() throws {
        let sysfs = try FakeSysfs()
        try sysfs.write("class/hwmon/hwmon0/name", "cpu_thermal\n")
        try sysfs.write("class/hwmon/hwmon3/name", "ina219\n")
        try sysfs.write("class/hwmon/hwmon3/in1_input", "3500\n")
        let gauge = BatteryGauge(.hwmon(name: "ina219", input: 1, curve: Self.lipo), root: sysfs.root)
        #expect(try gauge.read() == BatterySample(percent: 25, status: .unknown, millivolts: 3500))
        #expect(Self.problem(BatteryGauge(.hwmon(name: "ina260", input: 1, curve: Self.lipo), root: sysfs.root))
            == "Battery: no hwmon device is named \"ina260\" under \(sysfs.root)/class/hwmon. Fix: check `cat /sys/class/hwmon/hwmon*/name` and that the sensor's driver and overlay are loaded (docs/HARDWARE.md)")
        #expect(Self.problem(BatteryGauge(.hwmon(name: "ina219", input: 2, curve: Self.lipo), root: sysfs.root))
            == "Battery: \(sysfs.root)/class/hwmon/hwmon3/in2_input does not exist. Fix: check the board file's `input:` against `ls \(sysfs.root)/class/hwmon/hwmon3`")
        try sysfs.write("class/hwmon/hwmon3/in1_input", "0\n")
        #expect(Self.problem(gauge) == "Battery: \(sysfs.root)/class/hwmon/hwmon3/in1_input reads 0 mV, outside 1-30000 mV. Fix: the gauge is not calibrated or misreads; check its driver (`dmesg`) and the wiring")
    }

    @Test("a power-supply uevent is told from other subsystems' by its SUBSYSTEM field")
    func uevents() {
        let charger = Array("change@/devices/platform/test_power/power_supply/test_ac\0ACTION=change\0DEVPATH=/devices/platform/test_power/power_supply/test_ac\0SUBSYSTEM=power_supply\0POWER_SUPPLY_NAME=test_ac\0".utf8)
        let usb = Array("add@/devices/pci0000:00/usb1/1-1\0ACTION=add\0SUBSYSTEM=usb\0".utf8)
        let lookalike = Array("change@/x\0SUBSYSTEM=power_supply_extra\0".utf8)
        #expect(PowerSupplyEvents.isPowerSupplyEvent(charger))
        #expect(!PowerSupplyEvents.isPowerSupplyEvent(usb))
        #expect(!PowerSupplyEvents.isPowerSupplyEvent(lookalike))
    }

    @Test("a wait ends at once on wake(), and times out without events")
    func wakeAndTimeout() throws {
        guard let events = try? PowerSupplyEvents.open() else { return } // no netlink here: the poller only polls
        #expect(events.wait(milliseconds: 0) == .timedOut)
        events.wake()
        #expect(events.wait(milliseconds: 60_000) == .woken)
    }

    @Test("a discharge curve interpolates between its points (rounded down) and clamps beyond them; bad curves are refused")
    func curve() {
        #expect(Self.lipo.percent(atMillivolts: 3000) == 0)
        #expect(Self.lipo.percent(atMillivolts: 3500) == 25)
        #expect(Self.lipo.percent(atMillivolts: 3950) == 75)
        #expect(Self.lipo.percent(atMillivolts: 3701) == 50)
        #expect(Self.lipo.percent(atMillivolts: 4300) == 100)
        #expect(DischargeCurve([.init(millivolts: 3300, percent: 0)]) == nil)
        #expect(DischargeCurve([.init(millivolts: 3700, percent: 0), .init(millivolts: 3300, percent: 100)]) == nil)
        #expect(DischargeCurve([.init(millivolts: 3300, percent: 50), .init(millivolts: 3700, percent: 50)]) == nil)
    }
}
