import CALSA
import CALSASupport
import Synchronization

/// Fear Mode's speaker through alsa-lib.
///
/// - The sound is synthesised once, in `init` (see `AversiveSound`).
/// - `prepare()` opens the PCM, sets a small period (the board's `period_frames`, 256 by default:
///   5.3 ms at 48 kHz) with two periods of buffer, and prepares it, so a trigger costs only the write.
///   `timing` then reports what the device actually granted and the resulting output latency.
/// - `checkAudibility()` is the mute check of SPEC §2: the PCM opens, and the board's mixer control is
///   switched on with a volume above zero. `playAversiveSound()` repeats the mixer part before every
///   play (a refresh and a read of the already open mixer) and throws `SoundError(.inaudible, …)`
///   instead of playing into a muted device, so sound lost mid-session is noticed at the trigger.
///
/// Thread-safe, and a play never blocks the other calls: plays (and `close`) are serialised by their
/// own lock, held through the write and `snd_pcm_drain` (the length of the sound); the state lock that
/// `checkAudibility`, `timing` and `sound` take is held only to read or open handles, never while
/// samples are written or drained. So another thread (the loop, a status check) asking while the sound
/// thread plays gets its answer at once.
public final class AlsaSound: SoundOutput, Sendable {
    /// What the device granted at `prepare()`.
    public struct OutputTiming: Sendable, Equatable, CustomStringConvertible {
        public var sampleRate: Int
        public var channels: Int
        public var periodFrames: Int
        public var bufferFrames: Int

        /// One period: the granularity at which samples reach the device.
        public var periodMilliseconds: Double { Double(periodFrames) * 1000 / Double(sampleRate) }
        /// The whole buffer: the longest a written sample can wait before it is heard (the output latency).
        public var bufferMilliseconds: Double { Double(bufferFrames) * 1000 / Double(sampleRate) }

        public var description: String {
            "\(sampleRate) Hz, \(channels) ch, period \(periodFrames) frames (\(Self.ms(periodMilliseconds))), "
                + "buffer \(bufferFrames) frames (\(Self.ms(bufferMilliseconds))): output latency ≤ \(Self.ms(bufferMilliseconds))"
        }

        private static func ms(_ value: Double) -> String {
            "\((value * 10).rounded() / 10) ms"
        }
    }

    private struct State {
        var pcm: PCMHandle?
        var mixer: MixerHandle?
        var timing: OutputTiming?
        var frames: [Int16] = []
        var sound: AversiveSound
    }

    public let configuration: SoundConfiguration
    private let state: Mutex<State>
    /// Serialises plays and `close`; held through write and drain. Never taken inside `state`'s lock.
    private let playback = Mutex(())

    /// Synthesises the sound for the board's rate and loudness. Opens nothing yet.
    public init(configuration: SoundConfiguration) {
        Self.silenceLibraryMessages
        self.configuration = configuration
        state = Mutex(State(sound: AversiveSound(sampleRate: configuration.sampleRate, loudness: configuration.loudness)))
    }

    deinit { close() }

    /// alsa-lib prints its own error trail to stderr; every failure is reported here instead, with a fix.
    private static let silenceLibraryMessages: Void = chrono_alsa_silence_library_errors()

    /// The sound as synthesised (at the rate the device granted, once prepared).
    public var sound: AversiveSound { state.withLock { $0.sound } }

    /// What the device granted; nil before `prepare()`.
    public var timing: OutputTiming? { state.withLock { $0.timing } }

    public func checkAudibility() -> SoundAudibility {
        state.withLock { state in
            var openError: String?
            if let pcm = state.pcm {
                if snd_pcm_state(pcm.pointer) == SND_PCM_STATE_DISCONNECTED { openError = "the device was disconnected" }
            } else {
                var probe: OpaquePointer?
                let result = snd_pcm_open(&probe, configuration.device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
                if result < 0 { openError = alsaMessage(result) } else if let probe { snd_pcm_close(probe) }
            }
            return AudibilityDecision.decide(device: configuration.device, deviceOpenError: openError,
                                             mixerDevice: configuration.mixerDevice,
                                             lookup: openError == nil ? lookUpMixer(&state) : .notConfigured)
        }
    }

    public func prepare() throws {
        try state.withLock { state throws(SoundError) in try prepareLocked(&state) }
    }

    public func playAversiveSound() throws {
        try playback.withLock { _ throws(SoundError) in
            // Under the state lock only to open and check; the long part below holds the playback lock.
            let ready: (pcm: PCMHandle, frames: [Int16], channels: Int)? = try state.withLock { state throws(SoundError) in
                try prepareLocked(&state)
                if case .inaudible(let reason) = AudibilityDecision.decide(
                    device: configuration.device, deviceOpenError: nil, mixerDevice: configuration.mixerDevice,
                    lookup: lookUpMixer(&state)) {
                    throw SoundError(.inaudible, reason)
                }
                guard let pcm = state.pcm, let timing = state.timing else { return nil }
                return (pcm, state.frames, timing.channels)
            }
            guard let ready else { return }
            // The handle stays open meanwhile: only `close`, which waits for this lock, closes it.
            try Self.write(ready.frames, channels: ready.channels, to: ready.pcm.pointer)
            // Wait for the last sample to leave, then get ready for the next trigger.
            _ = snd_pcm_drain(ready.pcm.pointer)
            let result = snd_pcm_prepare(ready.pcm.pointer)
            if result < 0 { throw SoundError(.playbackFailed, "re-preparing \(configuration.device): \(alsaMessage(result))") }
        }
    }

    public func close() {
        playback.withLock { _ in closeHandles() }
    }

    private func closeHandles() {
        state.withLock { state in
            if let pcm = state.pcm { snd_pcm_close(pcm.pointer) }
            state.mixer?.mixer.close()
            state.pcm = nil
            state.mixer = nil
            state.timing = nil
        }
    }

    // MARK: - Inside the lock

    private func lookUpMixer(_ state: inout State) -> MixerLookup {
        guard let control = configuration.mixerControl else { return .notConfigured }
        if state.mixer == nil {
            do {
                state.mixer = MixerHandle(mixer: try AlsaMixer(device: configuration.mixerDevice))
            } catch {
                return .cannotOpen(reason: error.message)
            }
        }
        return state.mixer!.mixer.look(control: control)
    }

    private func prepareLocked(_ state: inout State) throws(SoundError) {
        guard state.pcm == nil else { return }
        var opened: OpaquePointer?
        let result = snd_pcm_open(&opened, configuration.device, SND_PCM_STREAM_PLAYBACK, 0)
        guard result >= 0, let pcm = opened else {
            throw SoundError(.cannotOpen, "cannot open ALSA device \"\(configuration.device)\": \(alsaMessage(result))")
        }
        do {
            let timing = try configure(pcm)
            if timing.sampleRate != state.sound.sampleRate {
                state.sound = AversiveSound(sampleRate: timing.sampleRate, loudness: configuration.loudness)
            }
            state.frames = state.sound.interleaved(channels: timing.channels)
            state.timing = timing
            state.pcm = PCMHandle(pointer: pcm)
        } catch {
            snd_pcm_close(pcm)
            throw error
        }
    }

    /// S16 interleaved, mono if the device takes it, the board's rate and period, two periods of buffer;
    /// playback starts as soon as one period is written.
    private func configure(_ pcm: OpaquePointer) throws(SoundError) -> OutputTiming {
        func check(_ result: Int32, _ what: String) throws(SoundError) {
            if result < 0 {
                throw SoundError(.configuration, "\(configuration.device) refused \(what): \(alsaMessage(result)). "
                    + "Fix: use a `plughw:` device (it converts) or change sound.sample_rate / sound.period_frames")
            }
        }
        var hw: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&hw), "hardware parameters")
        guard let hw else { throw SoundError(.configuration, "out of memory") }
        defer { snd_pcm_hw_params_free(hw) }
        try check(snd_pcm_hw_params_any(pcm, hw), "any configuration")
        try check(snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED), "interleaved access")
        try check(snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE), "16-bit samples")
        var channels: UInt32 = 1
        try check(snd_pcm_hw_params_set_channels_near(pcm, hw, &channels), "mono or stereo")
        var rate = UInt32(configuration.sampleRate)
        var direction: Int32 = 0
        try check(snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, &direction), "\(configuration.sampleRate) Hz")
        var period = snd_pcm_uframes_t(configuration.periodFrames)
        try check(snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, &direction), "a period of \(configuration.periodFrames) frames")
        var buffer = period * 2
        try check(snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer), "a buffer of two periods")
        try check(snd_pcm_hw_params(pcm, hw), "the parameters together")
        snd_pcm_hw_params_get_period_size(hw, &period, &direction)
        snd_pcm_hw_params_get_buffer_size(hw, &buffer)

        var sw: OpaquePointer?
        try check(snd_pcm_sw_params_malloc(&sw), "software parameters")
        guard let sw else { throw SoundError(.configuration, "out of memory") }
        defer { snd_pcm_sw_params_free(sw) }
        try check(snd_pcm_sw_params_current(pcm, sw), "software parameters")
        try check(snd_pcm_sw_params_set_start_threshold(pcm, sw, period), "starting after one period")
        try check(snd_pcm_sw_params_set_avail_min(pcm, sw, period), "waking once a period")
        try check(snd_pcm_sw_params(pcm, sw), "the software parameters")
        try check(snd_pcm_prepare(pcm), "being prepared")
        return OutputTiming(sampleRate: Int(rate), channels: Int(channels), periodFrames: Int(period), bufferFrames: Int(buffer))
    }

    /// Writes every frame, recovering from underruns (a late sound thread) and interrupted calls.
    private static func write(_ samples: [Int16], channels: Int, to pcm: OpaquePointer) throws(SoundError) {
        let totalFrames = samples.count / channels
        var written = 0
        var failure: Int32 = 0
        samples.withUnsafeBufferPointer { buffer in
            while written < totalFrames {
                let start = buffer.baseAddress! + written * channels
                let result = snd_pcm_writei(pcm, start, snd_pcm_uframes_t(totalFrames - written))
                if result >= 0 {
                    written += result
                } else if snd_pcm_recover(pcm, Int32(result), 1) < 0 {
                    failure = Int32(result)
                    return
                }
            }
        }
        if failure < 0 { throw SoundError(.playbackFailed, "writing the sound failed: \(alsaMessage(failure))") }
    }
}

/// An open `snd_pcm_t *`, only touched under `AlsaSound`'s mutex.
private struct PCMHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// An open mixer, only touched under `AlsaSound`'s mutex.
private struct MixerHandle: @unchecked Sendable {
    let mixer: AlsaMixer
}
