/// Sentences both stores say the same way.
enum CollectorMessages {
    static func unknownDevice(_ name: String, enrolled: [String]) -> String {
        let known = enrolled.isEmpty ? "no device is enrolled yet" : "enrolled: " + enrolled.joined(separator: ", ")
        return "No enrolled device is called '\(name)' (\(known)). `chronoception-collector devices` lists them."
    }

    static func revoked(_ name: String) -> String {
        "This device's key was revoked on the collector (device '\(name)'). Enrol it again with a new code: `chronoception-collector enrol \(name)` on the collector, then `chronoception sync add URL --code CODE` here."
    }

    /// A code redeemed by a device ID that is already enrolled: the first sentence names what happened
    /// (the device shows it with its own fix), the rest says how to resolve it from either end.
    static func deviceEnrolled(id: String, name: String) -> String {
        "Device ID \(id) is already enrolled on this collector as '\(name)', so this code was not used and '\(name)' was left as it is. "
            + "If this device's data directory was copied from '\(name)', the copy must enrol as a new device: `chronoception sync add URL --code CODE --as-new-device` on it. "
            + "If it is '\(name)' itself enrolling again, revoke it on the collector first (`chronoception-collector revoke \(name)`), then run `sync add` again with this code."
    }

    /// Which reader key `collector keys revoke` means: the one with that ID, else the only one with
    /// that name. Both stores fetch the candidates and let this decide, so they say the same things.
    static func readerKeyToRevoke(_ idOrName: String, byID: ReaderKey?, byName: [ReaderKey], all: [ReaderKey]) throws(CollectorError) -> ReaderKey {
        if let byID { return byID }
        if byName.count == 1 { return byName[0] }
        if byName.count > 1 {
            throw .invalidValue("\(byName.count) reader keys are called '\(idOrName)' (IDs \(byName.map(\.id).joined(separator: ", "))); revoke one by its ID.")
        }
        let known = all.isEmpty ? "there are no reader keys" : "keys: " + all.prefix(10).map { "\($0.id) \($0.name)" }.joined(separator: ", ")
        throw .invalidValue("No reader key has the ID or name '\(idOrName)' (\(known)). `chronoception-collector keys list` lists them.")
    }
}
