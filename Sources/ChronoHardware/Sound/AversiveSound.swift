#if canImport(Glibc)
import Glibc
#endif

/// Fear Mode's aversive sound, synthesised once at start-up so that a trigger costs only the write.
///
/// What it is (deterministic for a given sample rate and loudness):
/// - 0.6 s in all: 5 bursts, each 90 ms of sound followed by 30 ms of silence;
/// - in each burst a square-ish tone, `tanh(6·sin φ)/tanh(6)` (a sine driven into soft clipping, rich in
///   odd harmonics), whose pitch sweeps linearly from 2.5 kHz up to 4 kHz — the band the ear is most
///   sensitive to and finds harshest;
/// - mixed 3:1 with white noise from a fixed-seed xorshift generator, for grit;
/// - 2 ms linear fade in and out per burst, so the bursts start sharply but without clicks;
/// - peak level `loudness` × full scale (the board's `sound.loudness`, default 0.5 = −6 dBFS);
/// - mono signed 16-bit; `AlsaSound` copies it to every channel the device wants.
public struct AversiveSound: Sendable, Equatable {
    public static let burstCount = 5
    public static let burstSeconds = 0.090
    public static let gapSeconds = 0.030
    public static let sweepFromHertz = 2500.0
    public static let sweepToHertz = 4000.0
    public static let noiseShare = 0.25
    public static let fadeSeconds = 0.002
    static let clipDrive = 6.0
    static let noiseSeed: UInt32 = 0x1234_5678

    public let sampleRate: Int
    public let loudness: Double
    /// The mono samples, `sampleRate × 0.6` of them.
    public let samples: [Int16]

    /// Length in seconds.
    public var duration: Double { Double(samples.count) / Double(sampleRate) }

    public init(sampleRate: Int, loudness: Double) {
        self.sampleRate = sampleRate
        self.loudness = loudness
        self.samples = Self.synthesise(sampleRate: sampleRate, loudness: loudness)
    }

    static func synthesise(sampleRate: Int, loudness: Double) -> [Int16] {
        let rate = Double(sampleRate)
        let burstFrames = Int((burstSeconds * rate).rounded())
        let gapFrames = Int((gapSeconds * rate).rounded())
        let fadeFrames = max(1, Int((fadeSeconds * rate).rounded()))
        let peak = min(max(loudness, 0), 1) * Double(Int16.max)
        let normaliser = tanh(clipDrive)
        var noise = noiseSeed
        var samples: [Int16] = []
        samples.reserveCapacity(burstCount * (burstFrames + gapFrames))

        for _ in 0..<burstCount {
            var phase = 0.0
            for frame in 0..<burstFrames {
                let progress = Double(frame) / Double(burstFrames)
                let frequency = sweepFromHertz + (sweepToHertz - sweepFromHertz) * progress
                phase += 2 * Double.pi * frequency / rate
                let tone = tanh(clipDrive * sin(phase)) / normaliser
                // xorshift32: a fixed sequence, so the sound (and the tests that compare it) never change.
                noise ^= noise << 13
                noise ^= noise >> 17
                noise ^= noise << 5
                let white = Double(noise) / Double(UInt32.max) * 2 - 1
                let fade = min(1, Double(min(frame, burstFrames - 1 - frame)) / Double(fadeFrames))
                let value = ((1 - noiseShare) * tone + noiseShare * white) * fade * peak
                samples.append(Int16(value.rounded()))
            }
            samples.append(contentsOf: repeatElement(0, count: gapFrames))
        }
        return samples
    }

    /// The samples interleaved for `channels` channels (each frame repeated on every channel).
    public func interleaved(channels: Int) -> [Int16] {
        guard channels > 1 else { return samples }
        var result: [Int16] = []
        result.reserveCapacity(samples.count * channels)
        for sample in samples { result.append(contentsOf: repeatElement(sample, count: channels)) }
        return result
    }
}
