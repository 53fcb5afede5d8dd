import Testing
@testable import ChronoHardware

@Suite("Board files: the battery section")
struct BoardBatterySectionTests {
    static func board(_ battery: String) -> String {
        BoardFileTests.minimal + "\n" + battery
    }

    @Test("no battery section: the board has no battery")
    func none() throws {
        #expect(try BoardFileParser.parse(BoardFileTests.minimal, file: "boards/test.yaml").battery == nil)
    }

    @Test("a fuel gauge by its power-supply name (power_supply is the default driver)")
    func powerSupply() throws {
        let board = try BoardFileParser.parse(Self.board("battery:\n  name: bq27441-0\n"), file: "boards/test.yaml")
        #expect(board.battery == .powerSupply(name: "bq27441-0"))
        #expect(board.battery?.description == "power_supply bq27441-0 (/sys/class/power_supply/bq27441-0)")
    }

    @Test("a voltage-only HAT: hwmon name, input and a curve in any order of lines")
    func hwmon() throws {
        let yaml = Self.board("battery:\n  driver: hwmon\n  name: ina219\n  input: 1\n  curve:\n    4200: 100\n    3300: 0\n    3700: 50\n")
        let board = try BoardFileParser.parse(yaml, file: "boards/test.yaml")
        let curve = DischargeCurve([.init(millivolts: 3300, percent: 0), .init(millivolts: 3700, percent: 50), .init(millivolts: 4200, percent: 100)])!
        #expect(board.battery == .hwmon(name: "ina219", input: 1, curve: curve))
        #expect(board.battery?.description == "hwmon ina219 in1_input, curve 3300 mV = 0 %, 3700 mV = 50 %, 4200 mV = 100 %")
    }

    @Test("hostile or wrong sections get the file, key, line and fix")
    func errors() {
        #expect(BoardFileTests.error(Self.board("battery:\n  driver: acpi\n  name: BAT0\n"))
            == "boards/test.yaml:11: battery.driver: unknown value \"acpi\". Fix: use one of: power_supply, hwmon")
        #expect(BoardFileTests.error(Self.board("battery:\n  name: ../../../etc\n"))
            == "boards/test.yaml:11: battery.name: \"../../../etc\" is not a device name (letters, digits, - _ . : and at most 64 characters). Fix: name the gauge as `ls /sys/class/power_supply` lists it, e.g. `name: bq27441-0`")
        #expect(BoardFileTests.error(Self.board("battery:\n  nmae: bq27441-0\n"))
            == "boards/test.yaml:10: battery.name: is missing. Fix: name the gauge as `ls /sys/class/power_supply` lists it, e.g. `name: bq27441-0`")
        #expect(BoardFileTests.error(Self.board("battery:\n  name: bq27441-0\n  curve:\n    3300: 0\n"))
            == "boards/test.yaml:12: battery.curve: unknown key. Fix: Known keys here: driver, name")
        #expect(BoardFileTests.error(Self.board("battery:\n  driver: hwmon\n  name: ina219\n"))
            == "boards/test.yaml:10: battery.curve: is missing. Fix: give the battery's discharge curve as `millivolts: percent` lines under `curve:`, e.g. 3300: 0, 3600: 10, 3700: 50, 3900: 80, 4200: 100 for one LiPo cell")
        #expect(BoardFileTests.error(Self.board("battery:\n  driver: hwmon\n  name: ina219\n  curve:\n    3300: 0\n"))
            == "boards/test.yaml:14: battery.curve: has 1 point; a curve needs 2 to 32. Fix: give the battery's discharge curve as `millivolts: percent` lines under `curve:`, e.g. 3300: 0, 3600: 10, 3700: 50, 3900: 80, 4200: 100 for one LiPo cell")
        #expect(BoardFileTests.error(Self.board("battery:\n  driver: hwmon\n  name: ina219\n  curve:\n    3300: 50\n    3700: 20\n"))
            == "boards/test.yaml:14: battery.curve: does not rise: a higher voltage must give a higher percent at every point. Fix: give the battery's discharge curve as `millivolts: percent` lines under `curve:`, e.g. 3300: 0, 3600: 10, 3700: 50, 3900: 80, 4200: 100 for one LiPo cell")
        #expect(BoardFileTests.error(Self.board("battery:\n  driver: hwmon\n  name: ina219\n  curve:\n    3.3V: 0\n    4200: 100\n"))
            == "boards/test.yaml:14: battery.curve: has \"3.3V\": \"0\", not whole millivolts: a whole percent. Fix: give the battery's discharge curve as `millivolts: percent` lines under `curve:`, e.g. 3300: 0, 3600: 10, 3700: 50, 3900: 80, 4200: 100 for one LiPo cell")
        #expect(BoardFileTests.error(Self.board("battery:\n  driver: hwmon\n  name: ina219\n  curve:\n    3300: 0\n    42000: 100\n"))
            == "boards/test.yaml:15: battery.curve: has 42000: 100, outside 1-30000 mV or 0-100 %. Fix: give the battery's discharge curve as `millivolts: percent` lines under `curve:`, e.g. 3300: 0, 3600: 10, 3700: 50, 3900: 80, 4200: 100 for one LiPo cell")
        #expect(BoardFileTests.error(Self.board("battery: bq27441-0\n"))
            == "boards/test.yaml:10: battery: expected a mapping of keys (key: value lines), got \"bq27441-0\". Fix: write `battery:` followed by indented `key: value` lines")
    }
}
