import ChronoCore
import ChronoStore
import ChronoSync

/// The fuzz function: `settings set KEY VALUE`. The first byte picks the key, the rest is the value.
/// An accepted value must be canonical (accepting it again gives itself) and the device must be able
/// to start a session from it; nothing may trap.
func fuzzSettings(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let selector = bytes.first else { return 0 }
    let keys = SettingKey.allCases
    let key = keys[Int(selector) % keys.count]
    let raw = String(decoding: bytes.dropFirst(), as: UTF8.self)

    let location = StoreLocation(directory: "/var/lib/chronoception")
    var values: [SettingKey: String] = [:]
    for each in keys { values[each] = each.defaultValue(location: location) }
    if selector & 0x80 != 0 { values[.fearMode] = "on" }
    let current = StoreSettings(values: values, healthFailure: nil)

    guard let canonical = try? key.canonicalValue(raw, current: current) else { return 0 }
    guard let again = try? key.canonicalValue(canonical, current: current) else {
        preconditionFailure("\(key.rawValue): the stored form '\(canonical)' of an accepted value is refused")
    }
    precondition(again == canonical, "\(key.rawValue): '\(canonical)' is not canonical, it becomes '\(again)'")

    values[key] = canonical
    let updated = StoreSettings(values: values, healthFailure: nil)
    _ = updated.healthStatus
    // The device starts its session through the resolver (no board file here: the built-in timing).
    _ = try? SessionResolver.configuration(flags: SessionFlags(), settings: updated.session, board: .builtIn)
    return 0
}
