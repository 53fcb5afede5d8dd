import ChronoHardware
import Synchronization

/// Plays Fear Mode's aversive sound when the loop asks, on the sound worker (a thread of its own in the
/// product), so the loop never blocks on ALSA. A failed play is reported back (the loop then tells the
/// engine sound was lost); plays asked for while one is playing are played after it, none is dropped
/// silently; after a failure the plays asked for meanwhile are dropped with it (the sound is gone).
public final class SoundPlayer: Sendable {
    /// Plays asked for and not yet started: the worker has one job queued exactly while this is above 0.
    private let pending = Mutex(0)
    private let worker: LoopWorker
    private let sound: UncheckedSound
    private let onFailure: @Sendable (String) -> Void

    /// - Parameters:
    ///   - sound: the prepared output, used from the worker only after this point.
    ///   - worker: where plays run (`LoopWorkerRole.sound`).
    ///   - onFailure: called on the worker with the reason when a play fails.
    public init(sound: SoundOutput, worker: LoopWorker, onFailure: @escaping @Sendable (String) -> Void) {
        self.sound = UncheckedSound(sound)
        self.worker = worker
        self.onFailure = onFailure
    }

    /// Asks for one play. Never blocks.
    public func play() {
        let first = pending.withLock { count in
            count += 1
            return count == 1
        }
        if first { worker.post { [self] in playPending() } }
    }

    /// Lets a play in progress (and those queued) finish, then stops the worker.
    public func finish() {
        worker.finish()
    }

    private func playPending() {
        let plays = pending.withLock { count in
            defer { count = 0 }
            return count
        }
        for _ in 0..<plays {
            do {
                try sound.sound.playAversiveSound()
            } catch {
                onFailure(String(describing: error))
                break
            }
        }
    }
}

/// The sound output handed to the sound worker. Drivers are classes that are not all `Sendable`;
/// after the hand-over only the worker plays on it (the loop never touches it again).
private struct UncheckedSound: @unchecked Sendable {
    let sound: SoundOutput
    init(_ sound: SoundOutput) { self.sound = sound }
}
