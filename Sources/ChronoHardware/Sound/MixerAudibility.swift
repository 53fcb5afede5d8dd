/// What the playback mixer control said when it was read.
public struct MixerReading: Sendable, Equatable {
    /// The simple control's name, e.g. `PCM`.
    public var control: String
    /// Playback switch per channel (true = on, not muted); empty when the control has no switch.
    public var switches: [Bool]
    /// Raw playback volume per channel; empty when the control has no volume.
    public var volumes: [Int]
    /// The control's raw volume range.
    public var volumeRange: ClosedRange<Int>

    public init(control: String, switches: [Bool], volumes: [Int], volumeRange: ClosedRange<Int>) {
        self.control = control
        self.switches = switches
        self.volumes = volumes
        self.volumeRange = volumeRange
    }

    /// The loudest channel's volume as a percentage of its range; nil without a volume.
    public var volumePercent: Int? {
        guard let loudest = volumes.max() else { return nil }
        let span = volumeRange.upperBound - volumeRange.lowerBound
        guard span > 0 else { return loudest > volumeRange.lowerBound ? 100 : 0 }
        return Int((Double(loudest - volumeRange.lowerBound) / Double(span) * 100).rounded())
    }
}

/// The outcome of looking for the board's mixer control.
public enum MixerLookup: Sendable, Equatable {
    /// The board names no control (the device has no volume control).
    case notConfigured
    /// The mixer device could not be opened.
    case cannotOpen(reason: String)
    /// The mixer has no such control; `available` lists its playback controls.
    case controlMissing(available: [String])
    case found(MixerReading)
}

/// The mute check of SPEC §2, as a pure decision: sound will really come out when the device opens and
/// the mixer control (if the board has one) is switched on with a volume above zero. Kept apart from
/// alsa-lib so every branch is unit-tested; `AlsaSound` gathers the facts and asks this.
public enum AudibilityDecision {
    public static func decide(device: String, deviceOpenError: String?, mixerDevice: String,
                              lookup: MixerLookup) -> SoundAudibility {
        if let deviceOpenError {
            return .inaudible(reason: "cannot open ALSA device \"\(device)\": \(deviceOpenError). "
                + "Fix: check `aplay -L` for the device name and set `sound.device` in the board file; "
                + "the user needs to be in the `audio` group")
        }
        switch lookup {
        case .notConfigured:
            return .audible(description: "\"\(device)\" opens; it has no volume control to check")
        case .cannotOpen(let reason):
            return .inaudible(reason: "cannot open the mixer \"\(mixerDevice)\": \(reason). "
                + "Fix: set `sound.mixer_device` to the card's control device (e.g. hw:CARD=Headphones), "
                + "or `sound.mixer_control: null` if the device has no volume control")
        case .controlMissing(let available):
            let list = available.isEmpty ? "none" : available.map { "\"\($0)\"" }.joined(separator: ", ")
            return .inaudible(reason: "the mixer \"\(mixerDevice)\" has no such playback control (it has: \(list)). "
                + "Fix: set `sound.mixer_control` to one of them (a Pi's analog output calls it PCM)")
        case .found(let reading):
            if !reading.switches.isEmpty, !reading.switches.contains(true) {
                return .inaudible(reason: "\"\(reading.control)\" playback on \(mixerDevice) is muted. "
                    + "Fix: `amixer -D \(mixerDevice) sset \(reading.control) unmute`")
            }
            if !reading.volumes.isEmpty, reading.volumes.allSatisfy({ $0 <= reading.volumeRange.lowerBound }) {
                return .inaudible(reason: "\"\(reading.control)\" volume on \(mixerDevice) is at zero. "
                    + "Fix: `amixer -D \(mixerDevice) sset \(reading.control) 80%`")
            }
            let level = reading.volumePercent.map { " at \($0)%" } ?? ""
            let state = reading.switches.isEmpty ? "" : ", not muted"
            return .audible(description: "\"\(device)\" opens; \"\(reading.control)\"\(level)\(state)")
        }
    }
}
