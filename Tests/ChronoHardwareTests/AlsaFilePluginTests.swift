import ChronoTesting
import Foundation
import Testing
@testable import ChronoHardware

/// The real alsa-lib path: the driver plays into alsa-lib's `file` plugin (with a `null` slave), selected
/// through a generated asound.conf, and the WAV it writes must hold exactly the synthesised samples.
/// Serialized: ALSA_CONFIG_PATH is process-wide.
@Suite("ALSA through the file plugin", .serialized)
struct AlsaFilePluginTests {
    static let folder = try! TemporaryFolder()
    static let configured: Void = {
        let config = """
            </usr/share/alsa/alsa.conf>
            pcm.chrono_mono { type file; slave.pcm "null"; file "\(folder.path)/mono.wav"; format "wav" }
            pcm.chrono_again {
                type file; slave.pcm { type null; }; file "\(folder.path)/again.wav"; format "wav"
            }
            """
        try! config.write(toFile: folder.path + "/asound.conf", atomically: true, encoding: .utf8)
        setenv("ALSA_CONFIG_PATH", folder.path + "/asound.conf", 1)
    }()

    static func configuration(device: String, rate: Int = 48_000, period: Int = 256, mixer: String? = nil,
                              mixerDevice: String = "default") -> SoundConfiguration {
        SoundConfiguration(driver: .alsa, device: device, mixerDevice: mixerDevice, mixerControl: mixer,
                           periodFrames: period, sampleRate: rate, loudness: 0.5)
    }

    @Test func playsExactlyTheSynthesisedSamples() throws {
        Self.configured
        let sound = AlsaSound(configuration: Self.configuration(device: "chrono_mono"))
        #expect(sound.checkAudibility() == .audible(description: "\"chrono_mono\" opens; it has no volume control to check"))
        try sound.prepare()
        let timing = try #require(sound.timing)
        #expect(timing.sampleRate == 48_000 && timing.channels == 1)
        #expect(timing.periodFrames == 256 && timing.bufferFrames == 512)
        #expect(abs(timing.bufferMilliseconds - 10.667) < 0.01)
        try sound.playAversiveSound()
        sound.close() // the file plugin completes the WAV header on close

        let wav = try WAVFile(path: Self.folder.path + "/mono.wav")
        #expect(wav.channels == 1 && wav.sampleRate == 48_000 && wav.bitsPerSample == 16)
        #expect(wav.samples == sound.sound.samples)
        #expect(wav.samples.count == 28_800)
    }

    @Test func playsTwiceAfterOnePrepare() throws {
        Self.configured
        let sound = AlsaSound(configuration: Self.configuration(device: "chrono_again", rate: 44_100, period: 128))
        try sound.prepare()
        try sound.playAversiveSound()
        try sound.playAversiveSound()
        sound.close()
        let wav = try WAVFile(path: Self.folder.path + "/again.wav")
        let expected = sound.sound.samples
        #expect(wav.sampleRate == 44_100)
        #expect(wav.samples == expected + expected)
    }

    @Test func missingDeviceIsInaudibleAndPlayFails() {
        Self.configured
        let sound = AlsaSound(configuration: Self.configuration(device: "chrono_no_such_pcm"))
        #expect(sound.checkAudibility().inaudibleReason?.hasPrefix("cannot open ALSA device \"chrono_no_such_pcm\": ") == true)
        #expect(throws: SoundError.self) { try sound.playAversiveSound() }
    }

    @Test func unopenableMixerMakesItInaudibleAtTheTrigger() throws {
        Self.configured
        let sound = AlsaSound(configuration: Self.configuration(device: "chrono_mono", mixer: "PCM", mixerDevice: "hw:99"))
        #expect(sound.checkAudibility().inaudibleReason?.hasPrefix("cannot open the mixer \"hw:99\"") == true)
        try sound.prepare()
        #expect { try sound.playAversiveSound() } throws: { ($0 as? SoundError)?.kind == .inaudible }
        sound.close()
    }
}

@Suite("Aversive sound")
struct AversiveSoundTests {
    @Test func isDeterministicAndShaped() {
        let sound = AversiveSound(sampleRate: 48_000, loudness: 0.5)
        #expect(sound == AversiveSound(sampleRate: 48_000, loudness: 0.5))
        #expect(sound.samples.count == 28_800)
        #expect(abs(sound.duration - 0.6) < 1e-9)
        let peak = sound.samples.map { abs(Int($0)) }.max() ?? 0
        #expect(peak <= 16_384 && peak > 14_000)
        // 90 ms of sound then 30 ms of silence, five times.
        #expect(sound.samples[4_320..<5_760].allSatisfy { $0 == 0 })
        #expect(sound.samples[1_000..<4_000].contains { abs(Int($0)) > 10_000 })
    }

    @Test func pitchSweepsThroughTheHarshBand() {
        // Zero crossings of the first burst's middle give its fundamental: between 2.5 and 4 kHz.
        let sound = AversiveSound(sampleRate: 48_000, loudness: 1)
        let burst = Array(sound.samples[1_000..<3_000]).map(Int.init)
        var crossings = 0
        for index in 1..<burst.count where (burst[index - 1] < 0) != (burst[index] < 0) { crossings += 1 }
        let hertz = Double(crossings) / 2 / (Double(burst.count) / 48_000)
        #expect(hertz > 2_500 && hertz < 4_500, "fundamental \(hertz) Hz")
    }

    @Test func interleavesForStereo() {
        let sound = AversiveSound(sampleRate: 8_000, loudness: 0.5)
        let stereo = sound.interleaved(channels: 2)
        #expect(stereo.count == sound.samples.count * 2)
        #expect(stereo[200] == sound.samples[100] && stereo[201] == sound.samples[100])
    }
}

/// Just enough of a RIFF/WAVE reader for the files alsa-lib's file plugin writes.
struct WAVFile {
    var channels = 0
    var sampleRate = 0
    var bitsPerSample = 0
    var samples: [Int16] = []

    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let bytes = [UInt8](data)
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        guard bytes.count >= 12, String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF" else {
            throw MockDriverError("\(path) is not a WAV file")
        }
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            var size = u32(offset + 4)
            let body = offset + 8
            if id == "fmt " {
                channels = u16(body + 2); sampleRate = u32(body + 4); bitsPerSample = u16(body + 14)
            } else if id == "data" {
                size = min(size, bytes.count - body)
                samples = stride(from: body, to: body + size - 1, by: 2).map { Int16(bitPattern: UInt16(u16($0))) }
            }
            offset = body + size + (size & 1)
        }
    }
}
