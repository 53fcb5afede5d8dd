/// The last update of the card's root (docs/IMAGE.md, "Updates"): the one record of it, kept as a file
/// on the data partition (`chronoception-update.json` beside the store), written by `chronoception
/// update` as the update goes on and read by the daemon, `status`, `GET /device` and the sync.
///
/// The file comes from outside the reading process, so it is read only through `init(fileText:)`, the
/// one validator: a record it refuses is as if there were none, and is never trusted in part.
public struct UpdateRecord: Hashable, Sendable {
    /// Where the update is. The order is the order it goes through.
    public enum Phase: String, Sendable, Hashable, CaseIterable {
        /// RAUC is writing the other slot (`progress` says how far); no session starts.
        case installing
        /// The other slot is written and named in `tryboot.txt`; the device restarts into it. No session starts.
        case installed
        /// The first boot of the new slot, before it confirms itself; no session starts.
        case trying
        /// The new slot confirmed itself (`rauc status mark-good`): `config.txt` names it.
        case confirmed
        /// The new slot did not confirm, and the old one booted again.
        case rolledBack = "rolled_back"
        /// The install itself did not finish (refused, failed, cut by a restart); nothing was switched.
        case failed
    }

    /// The format's version.
    public static let formatVersion = 1
    /// The longest `reason` kept (RAUC's own message is cut to this).
    public static let reasonLimit = 300

    public var phase: Phase
    public var fromVersion: ReleaseVersion
    public var toVersion: ReleaseVersion
    public var fromSlot: BootSlot
    /// Always `fromSlot.other`: kept so a reader need not know the rule.
    public var toSlot: BootSlot { fromSlot.other }
    public var started: WallTime
    /// When it reached `confirmed`, `rolled_back` or `failed`.
    public var finished: WallTime?
    /// While `installing`: RAUC's percentage, 0 to 100.
    public var progress: Int?
    /// Why it `failed`, in RAUC's or our words (terminal-safe, at most `reasonLimit` characters).
    public var reason: String?

    public init(phase: Phase, fromVersion: ReleaseVersion, toVersion: ReleaseVersion, fromSlot: BootSlot,
                started: WallTime, finished: WallTime? = nil, progress: Int? = nil, reason: String? = nil) {
        self.phase = phase
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.fromSlot = fromSlot
        self.started = started
        self.finished = finished
        self.progress = progress.map { min(100, max(0, $0)) }
        self.reason = reason.map(Self.keepable)
    }

    /// Whether the device refuses to start a session now: from the install's start until the new slot
    /// confirmed or the old one is back. A session in that window could be lost to a rollback.
    public var holdsSessions: Bool { phase == .installing || phase == .installed || phase == .trying }

    /// Whether the update has ended, one way or the other.
    public var isFinished: Bool { phase == .confirmed || phase == .rolledBack || phase == .failed }

    /// A reason as it can be kept: terminal-safe, one line, at most `reasonLimit` characters.
    public static func keepable(_ reason: String) -> String {
        let line = TerminalSafeText.sanitized(reason, keepNewlines: false)
        return line.count <= reasonLimit ? line : String(line.prefix(reasonLimit - 1)) + "…"
    }
}
