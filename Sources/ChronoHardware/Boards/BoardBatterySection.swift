import Yams

/// A board file's `battery:` section (docs/HARDWARE.md, "Battery"): a power-supply fuel gauge by name,
/// or a hwmon voltage input with its discharge curve. Hostile input like the rest of the file: every
/// key is checked, names are bounded and may not walk out of sysfs, the curve is bounded and monotonic.
enum BoardBatterySection {
    /// A power-supply or hwmon name is a short sysfs directory entry (`bq27441-0`, `ina219`).
    static let maximumNameLength = 64

    static func parse(_ reader: inout YAMLMappingReader) throws(BoardFileError) -> BatteryConfiguration {
        let driver = try reader.choice("driver", default: Driver.powerSupply, among: Driver.allCases)
        let result: BatteryConfiguration
        switch driver {
        case .powerSupply:
            let name = try self.name(&reader, fix: "name the gauge as `ls /sys/class/power_supply` lists it, e.g. `name: bq27441-0`")
            result = .powerSupply(name: name)
        case .hwmon:
            let name = try self.name(&reader, fix: "name the sensor as `cat /sys/class/hwmon/hwmon*/name` prints it, e.g. `name: ina219`")
            let input = try reader.int("input", default: 1, in: 0...31, unit: "",
                                       fix: "give the number of the voltage input, e.g. `input: 1` for in1_input (the INA219's bus voltage)")
            result = .hwmon(name: name, input: input, curve: try curve(&reader))
        }
        try reader.finish()
        return result
    }

    private static func name(_ reader: inout YAMLMappingReader, fix: String) throws(BoardFileError) -> String {
        let name = try reader.string("name", fix: fix)
        let allowed = name.unicodeScalars.allSatisfy { scalar in
            (0x30...0x39).contains(scalar.value) || (0x41...0x5A).contains(scalar.value) || (0x61...0x7A).contains(scalar.value)
                || scalar == "-" || scalar == "_" || scalar == "." || scalar == ":"
        }
        guard allowed, name.count <= maximumNameLength, name != ".", name != ".." else {
            throw reader.error("name", at: reader.node("name"), "\"\(name.prefix(maximumNameLength))\" is not a device name (letters, digits, - _ . : and at most \(maximumNameLength) characters)", fix: fix)
        }
        return name
    }

    /// `curve:` as `millivolts: percent` lines, e.g. `3300: 0`, `3700: 50`, `4200: 100`.
    private static func curve(_ reader: inout YAMLMappingReader) throws(BoardFileError) -> DischargeCurve {
        let fix = "give the battery's discharge curve as `millivolts: percent` lines under `curve:`, e.g. 3300: 0, 3600: 10, 3700: 50, 3900: 80, 4200: 100 for one LiPo cell"
        guard let node = reader.node("curve") else { throw reader.missing("curve", fix: fix) }
        guard let mapping = node.mapping else {
            throw reader.error("curve", at: node, "expected `millivolts: percent` lines, got \(YAMLMappingReader.describe(node))", fix: fix)
        }
        var points: [DischargeCurve.Point] = []
        for (key, value) in mapping {
            guard key.isTagged(.int), let millivolts = key.int, value.isTagged(.int), let percent = value.int else {
                throw reader.error("curve", at: key, "has \(YAMLMappingReader.describe(key)): \(YAMLMappingReader.describe(value)), not whole millivolts: a whole percent", fix: fix)
            }
            guard BatterySample.millivoltRange.contains(millivolts), BatterySample.percentRange.contains(percent) else {
                throw reader.error("curve", at: key, "has \(millivolts): \(percent), outside 1-30000 mV or 0-100 %", fix: fix)
            }
            points.append(DischargeCurve.Point(millivolts: millivolts, percent: percent))
        }
        guard DischargeCurve.pointCount.contains(points.count) else {
            throw reader.error("curve", at: node, "has \(points.count) point\(points.count == 1 ? "" : "s"); a curve needs \(DischargeCurve.pointCount.lowerBound) to \(DischargeCurve.pointCount.upperBound)", fix: fix)
        }
        points.sort { $0.millivolts < $1.millivolts }
        guard let curve = DischargeCurve(points) else {
            throw reader.error("curve", at: node, "does not rise: a higher voltage must give a higher percent at every point", fix: fix)
        }
        return curve
    }

    /// The ways a board may read its battery.
    enum Driver: String, CaseIterable {
        case powerSupply = "power_supply"
        case hwmon
    }
}
