/// Whether a read's device and participant are enrolled on this collector. A name that is not is
/// refused (404 from the API, a usage error from the CLI) rather than answered with nothing: an empty
/// answer would read as a device without sessions when the name was only mistyped. Pure.
public enum CollectorScope {
    /// What the query names that no enrolled device has.
    public enum Unknown: Equatable, Sendable {
        case device(String)
        case participant(String)

        /// One line naming the fix; `lister` is how the caller lists devices (a route or a command).
        public func message(lister: String) -> String {
            switch self {
            case .device(let name): "No device named '\(name.prefix(100))' (or with that UUID) is enrolled here; \(lister) lists them."
            case .participant(let name): "No device of participant '\(name.prefix(100))' is enrolled here; \(lister) lists the participants."
            }
        }
    }

    /// The first thing `query` names that none of `devices` (revoked ones included) is; nil when all are known.
    public static func unknown(_ query: CollectorSessionQuery, among devices: [CollectorDevice]) -> Unknown? {
        if let device = query.device, !devices.contains(where: { $0.name == device || $0.id == device.lowercased() }) {
            return .device(device)
        }
        if let participant = query.participant, !devices.contains(where: { $0.participant == participant }) {
            return .participant(participant)
        }
        return nil
    }
}
