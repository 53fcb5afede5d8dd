import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads the board's battery from sysfs, once per call (the daemon's battery thread calls it once a
/// minute and on power-supply uevents, never on the loop thread). `root` is `/sys` on a device; tests
/// give a temporary tree of the same shape.
public struct BatteryGauge: Sendable {
    public let configuration: BatteryConfiguration
    public let root: String

    public init(_ configuration: BatteryConfiguration, root: String = "/sys") {
        self.configuration = configuration
        self.root = root
    }

    /// The battery now, or why it cannot be read.
    public func read() throws(BatteryProblem) -> BatterySample {
        switch configuration {
        case .powerSupply(let name):
            let directory = "\(root)/class/power_supply/\(name)"
            guard let capacity = try Self.value(at: "\(directory)/capacity") else {
                throw BatteryProblem(problem: "\(directory)/capacity does not exist",
                                     fix: Self.exists(directory)
                                         ? "this supply reports no capacity (a charger, or a voltage-only gauge): use `driver: hwmon` with a curve"
                                         : "check `ls /sys/class/power_supply` for the gauge's name and that its driver and overlay are loaded (docs/HARDWARE.md)")
            }
            guard let status = try Self.value(at: "\(directory)/status") else {
                throw BatteryProblem(problem: "\(directory)/status does not exist", fix: "check that the board file names a battery, not a charger")
            }
            let voltage = try Self.value(at: "\(directory)/voltage_now")
            return try PowerSupplyValues.reading(capacity: capacity, status: status, voltageMicrovolts: voltage, directory: directory)
        case .hwmon(let name, let input, let curve):
            let device = try hwmonDirectory(named: name)
            let file = "\(device)/in\(input)_input"
            guard let text = try Self.value(at: file) else {
                throw BatteryProblem(problem: "\(file) does not exist", fix: "check the board file's `input:` against `ls \(device)`")
            }
            return try PowerSupplyValues.reading(millivolts: text, file: file, curve: curve)
        }
    }

    /// The hwmon device whose `name` file holds `name` (hwmon numbers change between boots; names do not).
    func hwmonDirectory(named name: String) throws(BatteryProblem) -> String {
        let classDirectory = "\(root)/class/hwmon"
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: classDirectory)) ?? []).sorted()
        for entry in entries where entry.hasPrefix("hwmon") {
            let directory = "\(classDirectory)/\(entry)"
            if let text = try? Self.value(at: "\(directory)/name"), PowerSupplyValues.trimmed(text) == name { return directory }
        }
        throw BatteryProblem(problem: "no hwmon device is named \"\(name)\" under \(classDirectory)",
                             fix: "check `cat /sys/class/hwmon/hwmon*/name` and that the sensor's driver and overlay are loaded (docs/HARDWARE.md)")
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// A sysfs value's text; nil when the file does not exist. At most `PowerSupplyValues.maximumBytes`
    /// are taken: a longer file is not a sysfs value.
    static func value(at path: String) throws(BatteryProblem) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw BatteryProblem(problem: "\(path) cannot be read (\(String(cString: strerror(code))))",
                                 fix: "check that the daemon's user may read it")
        }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: PowerSupplyValues.maximumBytes + 1)
        var count = 0
        while count < buffer.count {
            let got = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0 {
                if errno == EINTR { continue }
                // A gauge that does not answer on I²C makes the driver fail the read (EIO, ENODEV).
                throw BatteryProblem(problem: "\(path) cannot be read (\(String(cString: strerror(errno))))",
                                     fix: "check the gauge's wiring and driver (`dmesg`)")
            }
            if got == 0 { break }
            count += got
        }
        guard count <= PowerSupplyValues.maximumBytes else {
            throw BatteryProblem(problem: "\(path) holds more than \(PowerSupplyValues.maximumBytes) bytes, not a sysfs value",
                                 fix: "check that the board file names the right device")
        }
        guard let text = String(validating: buffer.prefix(count), as: UTF8.self), !text.contains("\0") else {
            throw BatteryProblem(problem: "\(path) does not hold text", fix: "check that the board file names the right device")
        }
        return text
    }
}
