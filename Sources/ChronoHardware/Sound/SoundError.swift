/// Why the aversive sound could not be played.
public struct SoundError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The class of failure.
    public enum Kind: Equatable, Sendable {
        /// The PCM could not be opened.
        case cannotOpen
        /// The device refused the format, rate or period the board asks for.
        case configuration
        /// The mixer says nothing would come out (muted, zero volume): checked at each trigger.
        case inaudible
        /// Writing the samples failed (device unplugged, driver error).
        case playbackFailed
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
