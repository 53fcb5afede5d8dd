import ChronoCore

extension DeviceEvent {
    /// The event as one Server-Sent Events message (`event:` and one `data:` line; JSON has no raw newlines).
    var serverSentEvent: String {
        "event: \(name)\ndata: \(json.compactText)\n\n"
    }
}
