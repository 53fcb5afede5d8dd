/// The device's setup as onboarding shows it: its board and, part by part (board, button, motor,
/// sound), what `board check` would say about it. The daemon reports the drivers it opened (opening
/// them is the check: it could not run otherwise); the API's `NoDevice` reports no parts and says where
/// to look.
public struct DeviceSetup: Hashable, Sendable {
    /// How a part stands.
    public enum Status: String, Hashable, Sendable {
        /// Opened and working.
        case ok
        /// Works, but not as configured (e.g. sound muted: Fear Mode behaves like Challenge Mode).
        case warning
        /// Nothing to check for this part (a terminal driver, no sound configured).
        case info
    }

    /// One part of the board, in `board check`'s words.
    public struct Part: Hashable, Sendable {
        /// `board`, `button`, `second_button`, `motor`, `led` or `sound`.
        public var name: String
        public var status: Status
        public var detail: String
        /// What to do about a warning; nil otherwise.
        public var fix: String?

        public init(name: String, status: Status, detail: String, fix: String? = nil) {
            self.name = name
            self.status = status
            self.detail = detail
            self.fix = fix
        }
    }

    /// The board's name, nil without a device.
    public var board: String?
    public var parts: [Part]
    /// One sentence for people: where this came from and how to check the hardware by hand.
    public var note: String

    public init(board: String?, parts: [Part], note: String) {
        self.board = board
        self.parts = parts
        self.note = note
    }

    public var json: JSONValue {
        .object([
            ("board", board.map { .string($0) } ?? .null),
            ("parts", .array(parts.map { part in
                .object([("name", .string(part.name)), ("status", .string(part.status.rawValue)),
                         ("detail", .string(part.detail)), ("fix", part.fix.map { .string($0) } ?? .null)])
            })),
            ("note", .string(note)),
        ])
    }
}
