import ChronoCore

/// Where the runtime hands sessions so that they are kept: the store (through an adapter in the
/// command-line target), or standard output when there is none. The runtime calls these methods from
/// its writer thread, never from the session loop, so an implementation may block on disk.
public protocol SessionRecorder: AnyObject, Sendable {
    /// A session has started: keep a `running` row so that a crash leaves a trace
    /// ("Previous session ended unexpectedly." on the next start).
    func sessionStarted(_ start: SessionStartRecord)
    /// A session has finished (completed, aborted or interrupted): keep it, and log it to health if due.
    func sessionFinished(_ finish: SessionFinishRecord)
}

/// Where the device daemon's idle menu comes from: the store's adapter in the product, an in-memory
/// one in tests. Never called on the loop thread — only by `SnapshotKeeper`, from the writer thread, a
/// change watcher or before the loop starts — so an implementation may block on disk.
public protocol DeviceLibrary: AnyObject, Sendable {
    /// The idle menu's inputs as they are now (settings, presets, H(I), health status).
    func prepareSnapshot() -> DeviceSnapshot
    /// SIGHUP: re-read what is otherwise read once (the board file). The next snapshot uses it.
    func reload()
}
