/// One of the card's two root slots (docs/IMAGE.md, "Slots"): what RAUC calls a slot's `bootname`, the
/// kernel command line's `rauc.slot=` and `image/layout.env`'s ROOT_A/ROOT_B.
public enum BootSlot: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case a = "A"
    case b = "B"

    /// "A" or "B", as every message names a slot.
    public var description: String { rawValue }

    /// The other slot: the one an update writes.
    public var other: BootSlot { self == .a ? .b : .a }

    /// The slot a kernel command line (`/proc/cmdline`) says was booted: its `rauc.slot=` word; nil when
    /// it names none (a desktop, a one-slot card), so nothing is claimed about slots.
    public static func booted(commandLine: String) -> BootSlot? {
        for word in commandLine.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
            guard word.hasPrefix("rauc.slot=") else { continue }
            return BootSlot(rawValue: String(word.dropFirst("rauc.slot=".count)))
        }
        return nil
    }
}
