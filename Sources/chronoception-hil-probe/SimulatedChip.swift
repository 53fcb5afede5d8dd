import ChronoHardware
import Glibc

/// The test side of a gpio-sim chip: its sysfs folder lets us pull input lines up or down (as a button
/// would) and read back what an output line is driven to. Test harness only: the drivers themselves
/// never touch sysfs.
struct SimulatedChip {
    /// e.g. /sys/devices/platform/gpio-sim.0/gpiochip0
    let folder: String

    func pull(line: Int, up: Bool) throws {
        try write(up ? "pull-up" : "pull-down", to: "\(folder)/sim_gpio\(line)/pull")
    }

    func value(line: Int) throws -> Int {
        let text = try read("\(folder)/sim_gpio\(line)/value")
        guard let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ProbeError("unexpected value \"\(text)\" for line \(line)")
        }
        return value
    }

    private func write(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY)
        guard descriptor >= 0 else { throw ProbeError("open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let written = text.withCString { Glibc.write(descriptor, $0, strlen($0)) }
        guard written == text.utf8.count else { throw ProbeError("write \(path): \(String(cString: strerror(errno)))") }
    }

    private func read(_ path: String) throws -> String {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw ProbeError("open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = Glibc.read(descriptor, &buffer, buffer.count)
        guard count >= 0 else { throw ProbeError("read \(path): \(String(cString: strerror(errno)))") }
        return String(decoding: buffer.prefix(count), as: UTF8.self)
    }
}

struct ProbeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension String {
    func trimmingCharacters(in set: Set<Character>) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}

extension Set where Element == Character {
    static let whitespacesAndNewlines: Set<Character> = [" ", "\n", "\t", "\r"]
}
