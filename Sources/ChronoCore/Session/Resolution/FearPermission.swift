/// Whether Fear Mode may run, and what a Fear request becomes when it may not: the one rule the
/// single-session commands, the daemon (its starts and its idle tap), the resolver and the settings'
/// validation all ask. Fear Mode plays an aversive sound, so it is never on by itself: the person opts
/// in, for one process with `--i-understand-fear-mode` or for good with the `fear-mode` setting.
///
/// Without the opt-in, Fear *named* now (`chronoception fear`, `run --mode fear`, a start with mode
/// fear, `settings set default-mode fear`) is refused, each asker in its own words with the way to opt
/// in; Fear that only comes *from defaults* (the default mode, the last session again, a preset) runs
/// as Challenge — a tap always starts something, and the sound is what the opt-in is about.
public struct FearPermission: Hashable, Sendable {
    /// Fear may run.
    public let allowed: Bool

    /// The opt-in: `optIn` is `--i-understand-fear-mode` (this process only), `settingOn` the
    /// `fear-mode` setting. Either is enough.
    public init(optIn: Bool, settingOn: Bool) {
        allowed = optIn || settingOn
    }

    /// An answer this rule gave elsewhere, carried as a value (the daemon's snapshot, prepared off the
    /// loop from the flag and the settings).
    public init(allowed: Bool) {
        self.allowed = allowed
    }

    /// Whether `mode`, named by the person now, may run (false: refuse it).
    public func allowsByName(_ mode: SessionMode) -> Bool {
        mode != .fear || allowed
    }

    /// The mode that runs for `mode` taken from defaults: itself, or Challenge for Fear without the opt-in.
    public func mode(fromDefaults mode: SessionMode) -> SessionMode {
        mode == .fear && !allowed ? .challenge : mode
    }
}
