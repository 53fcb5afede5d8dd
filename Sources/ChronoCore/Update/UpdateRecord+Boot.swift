/// What a boot makes of the record: the one rule for noticing a confirmed switch, a rollback and an
/// install a restart cut short. `chronoception update boot` applies it before the daemon starts.
extension UpdateRecord {
    /// The record after a boot of `booted` at `now` (unchanged when there is nothing to notice).
    ///
    /// The firmware boots the new slot only once, from `tryboot.txt`; every later boot follows
    /// `config.txt`, which names the new slot only after it confirmed itself. So a boot of the old slot
    /// while the update was installed or trying means the new slot did not confirm: a rollback.
    public func afterBoot(of booted: BootSlot, at now: WallTime) -> UpdateRecord {
        var next = self
        switch phase {
        case .installing:
            next.phase = .failed
            next.progress = nil
            next.reason = "the install was cut short by a restart; nothing was switched"
        case .installed, .trying:
            if booted == toSlot {
                // Installed: the tryboot boot itself. Trying again on the new slot: config.txt already
                // names it (mark-good switched it; the record's write was cut before it said so).
                next.phase = phase == .installed ? .trying : .confirmed
            } else {
                next.phase = .rolledBack
                next.reason = phase == .installed ? "the new slot did not start" : "the new slot started but did not confirm itself"
            }
        case .confirmed, .rolledBack, .failed:
            return self
        }
        if next.isFinished { next.finished = max(now, started) }
        return next
    }

    /// The record once the new slot confirmed itself at `now`.
    public func confirmed(at now: WallTime) -> UpdateRecord {
        var next = self
        next.phase = .confirmed
        next.finished = max(now, started)
        return next
    }
}
