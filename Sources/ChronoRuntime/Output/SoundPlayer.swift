import ChronoHardware
import Foundation
import Synchronization

/// The sound thread: plays Fear Mode's aversive sound when the loop signals it, so the loop never
/// blocks on ALSA. A failed play is reported back (the loop then tells the engine sound was lost);
/// plays signalled while one is playing are played after it, none is dropped silently.
public final class SoundPlayer: Sendable {
    private struct State {
        var pending = 0
        var closing = false
    }

    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - sound: the prepared output, used from this thread only after this point.
    ///   - onFailure: called on the sound thread with the reason when a play fails.
    public init(sound: SoundOutput, onFailure: @escaping @Sendable (String) -> Void) {
        let box = UncheckedSound(sound)
        let thread = Thread { [self] in
            while true {
                self.available.wait()
                let (plays, closing) = self.state.withLock { current in
                    defer { current.pending = 0 }
                    return (current.pending, current.closing)
                }
                for _ in 0..<plays {
                    do {
                        try box.sound.playAversiveSound()
                    } catch {
                        onFailure(String(describing: error))
                        break
                    }
                }
                if closing { break }
            }
            self.finished.signal()
        }
        thread.name = "chronoception sound"
        thread.start()
    }

    /// Asks for one play. Never blocks.
    public func play() {
        state.withLock { $0.pending += 1 }
        available.signal()
    }

    /// Lets a play in progress (and those queued) finish, then stops the thread.
    public func finish() {
        state.withLock { $0.closing = true }
        available.signal()
        finished.wait()
    }
}

/// The sound output handed to the sound thread. Drivers are classes that are not all `Sendable`;
/// after the hand-over only the sound thread plays on it (the loop never touches it again).
private struct UncheckedSound: @unchecked Sendable {
    let sound: SoundOutput
    init(_ sound: SoundOutput) { self.sound = sound }
}
