extension DeviceState {
    /// The `update` member: the running version and slot and the last update as `UpdateRecord` says
    /// it, so the page, `status` and a widget say the same words.
    public struct Update: Hashable, Sendable {
        public var runningVersion: String
        public var slot: BootSlot?
        public var phase: UpdateRecord.Phase
        public var toVersion: String
        /// `UpdateRecord.line(running:)`.
        public var line: String
        public var progress: Int?

        public init(record: UpdateRecord, running: ReleaseVersion, slot: BootSlot?) {
            runningVersion = running.description
            self.slot = slot
            phase = record.phase
            toVersion = record.toVersion.description
            line = record.line(running: running)
            progress = record.progress
        }

        public var json: JSONValue {
            .object([
                ("running_version", .string(runningVersion)),
                ("slot", slot.map { .string($0.rawValue) } ?? .null),
                ("phase", .string(phase.rawValue)),
                ("to_version", .string(toVersion)),
                ("progress", progress.map { .int($0) } ?? .null),
                ("line", .string(line)),
            ])
        }
    }
}
