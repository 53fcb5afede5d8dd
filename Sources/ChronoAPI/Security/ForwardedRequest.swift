import Hummingbird

/// Whether a request says it was passed on by a proxy: it carries `Forwarded` (RFC 7239),
/// `X-Forwarded-For`, `X-Forwarded-Host` or `X-Real-IP`. A reverse proxy on the device connects from
/// loopback and (nginx's default) sends a loopback `Host`, so without this rule every client of the
/// proxy would be the local user. Such a request is never local (`AccessRules.isLocal`): it needs a
/// key like any remote one. A proxy that strips these fields must be run with
/// `--require-key-on-loopback` (docs/API.md).
public enum ForwardedRequest {
    /// The fields' names, lower-case, as HTTP field names compare.
    public static let fieldNames: Set<String> = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip"]

    /// True when any of `fieldNames` is present, whatever its value (an empty one too).
    public static func isForwarded(_ fields: HTTPFields) -> Bool {
        fields.contains { fieldNames.contains($0.name.canonicalName) }
    }
}
