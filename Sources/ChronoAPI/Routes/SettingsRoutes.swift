import ChronoCore
import ChronoStore
import ChronoSync
import Foundation
import Hummingbird

/// Settings: read them with their version; change some of them by sending that version back. A
/// write based on a version that is no longer current is refused with 409 (the client reads again
/// and reapplies its change), so two editors never silently overwrite each other.
///
/// The version is a digest of every current value: any change, from the API or from
/// `chronoception settings set`, gives a new version, and no counter needs storing.
enum SettingsRoutes {
    static func add(to group: RouterGroup<APIRequestContext>, _ state: APIState) {
        group.get("settings") { _, _ in
            let settings = try await state.withStore { try $0.settings() }
            return JSONResponse.ok(json(settings))
        }
        group.patch("settings") { request, context in
            let body = try await JSONBody.read(request, context: context)
            try body.only(["version", "values"])
            guard let version = try body.string("version") else {
                throw APIError.badRequest("Send the \"version\" you read with GET /api/v1/settings, so a change made meanwhile is not overwritten.")
            }
            guard let raw = try body.object("values"), !raw.isEmpty else {
                throw APIError.badRequest("Send \"values\": an object of setting keys to new values, e.g. {\"default-interval\": \"30s\"}.")
            }
            var changes: [(SettingKey, String)] = []
            // The Fear opt-in first, so `fear-mode: on` with `default-mode: fear` is one change.
            for (name, value) in raw.sorted(by: { ($0.key == SettingKey.fearMode.rawValue ? "0" : "1") + $0.key < ($1.key == SettingKey.fearMode.rawValue ? "0" : "1") + $1.key }) {
                guard let key = SettingKey(rawValue: name) else {
                    throw APIError(.unprocessableContent, "invalid_value", "'\(name)' is not a setting. Settings: \(SettingKey.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                if key.isLocalOnly, case .key? = context.access {
                    throw APIError(.forbidden, "local_only",
                                   "\(name) is about this machine itself (a file on it, its own clock) and is changed only on the device: `chronoception settings set \(name) VALUE` there, or this page opened on the device itself.")
                }
                changes.append((key, try text(value, key: name)))
            }
            let now = state.nowUnixSeconds
            let requested = changes
            let updated = try await state.withStore { store in
                try state.settingsLock.withLock { _ in
                    var current = try store.settings()
                    let currentVersion = Self.version(current)
                    guard currentVersion == version else {
                        throw APIError(.conflict, "version_conflict", "The settings changed since version \(version) was read (now \(currentVersion)). Read them again and reapply the change.")
                    }
                    // Validate every value against the settings as they will be before writing any.
                    for (key, value) in requested {
                        var values = current.values
                        values[key] = try key.canonicalValue(value, current: current)
                        current = StoreSettings(values: values, healthFailure: current.healthFailure)
                    }
                    for (key, value) in requested { try store.setSetting(key, to: value, nowUnixSeconds: now) }
                    return try store.settings()
                }
            }
            return JSONResponse.ok(json(updated))
        }
    }

    static func text(_ value: Any, key: String) throws(APIError) -> String {
        if let text = value as? String { return text }
        if let number = value as? NSNumber {
            if type(of: number) == type(of: true as NSNumber) { return number.boolValue ? "on" : "off" }
            return number.stringValue
        }
        throw APIError.badRequest("The value of \"\(key)\" must be a string, a number or true/false.")
    }

    /// A digest of every value, in key order.
    static func version(_ settings: StoreSettings) -> String {
        let text = SettingKey.allCases.map { "\($0.rawValue)=\(settings[$0])\n" }.joined()
        return String(SHA256.hex(text).prefix(16))
    }

    static func json(_ settings: StoreSettings) -> JSONValue {
        .object([
            ("version", .string(version(settings))),
            ("values", .object(SettingKey.allCases.map { ($0.rawValue, .string(settings[$0])) })),
            ("descriptions", .object(SettingKey.allCases.map { ($0.rawValue, .string($0.summary)) })),
            ("health_status", .string(settings.healthStatus)),
        ])
    }
}
