import Testing
@testable import ChronoHardware

@Suite("Mute check decision")
struct AudibilityDecisionTests {
    static func decide(_ lookup: MixerLookup, openError: String? = nil) -> SoundAudibility {
        AudibilityDecision.decide(device: "plughw:CARD=Headphones,DEV=0", deviceOpenError: openError,
                                  mixerDevice: "hw:CARD=Headphones", lookup: lookup)
    }

    static func pcm(switches: [Bool], volumes: [Int]) -> MixerLookup {
        .found(MixerReading(control: "PCM", switches: switches, volumes: volumes, volumeRange: -10239...400))
    }

    @Test func deviceThatDoesNotOpenIsInaudible() {
        #expect(Self.decide(Self.pcm(switches: [true], volumes: [0]), openError: "No such file or directory")
            == .inaudible(reason: "cannot open ALSA device \"plughw:CARD=Headphones,DEV=0\": No such file or directory. Fix: check `aplay -L` for the device name and set `sound.device` in the board file; the user needs to be in the `audio` group"))
    }

    @Test func mutedSwitchIsInaudible() {
        #expect(Self.decide(Self.pcm(switches: [false, false], volumes: [0, 0]))
            == .inaudible(reason: "\"PCM\" playback on hw:CARD=Headphones is muted. Fix: `amixer -D hw:CARD=Headphones sset PCM unmute`"))
    }

    @Test func oneChannelOnIsEnough() {
        #expect(Self.decide(Self.pcm(switches: [false, true], volumes: [0, 0])).isAudible)
    }

    @Test func zeroVolumeIsInaudible() {
        #expect(Self.decide(Self.pcm(switches: [true], volumes: [-10239]))
            == .inaudible(reason: "\"PCM\" volume on hw:CARD=Headphones is at zero. Fix: `amixer -D hw:CARD=Headphones sset PCM 80%`"))
    }

    @Test func audibleReportsLevel() {
        #expect(Self.decide(Self.pcm(switches: [true], volumes: [400]))
            == .audible(description: "\"plughw:CARD=Headphones,DEV=0\" opens; \"PCM\" at 100%, not muted"))
        let volumeOnly = MixerLookup.found(MixerReading(control: "Speaker", switches: [], volumes: [0, 30], volumeRange: 0...60))
        #expect(Self.decide(volumeOnly) == .audible(description: "\"plughw:CARD=Headphones,DEV=0\" opens; \"Speaker\" at 50%"))
    }

    @Test func switchWithoutVolumeOnlyChecksTheSwitch() {
        let switchOnly = MixerLookup.found(MixerReading(control: "Headphone", switches: [true], volumes: [], volumeRange: 0...0))
        #expect(Self.decide(switchOnly).isAudible)
    }

    @Test func missingControlNamesTheAlternatives() {
        #expect(Self.decide(.controlMissing(available: ["Headphone", "Speaker"]))
            == .inaudible(reason: "the mixer \"hw:CARD=Headphones\" has no such playback control (it has: \"Headphone\", \"Speaker\"). Fix: set `sound.mixer_control` to one of them (a Pi's analog output calls it PCM)"))
    }

    @Test func unopenableMixerIsInaudible() {
        #expect(Self.decide(.cannotOpen(reason: "No such device")).inaudibleReason?.hasPrefix("cannot open the mixer \"hw:CARD=Headphones\": No such device.") == true)
    }

    @Test func noMixerConfiguredOnlyNeedsTheDeviceToOpen() {
        #expect(Self.decide(.notConfigured) == .audible(description: "\"plughw:CARD=Headphones,DEV=0\" opens; it has no volume control to check"))
    }
}
