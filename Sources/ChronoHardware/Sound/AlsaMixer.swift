import CALSA

/// An open ALSA simple-mixer handle on one control device, for the mute check. Kept open while a
/// session runs so that the check at each trigger is a refresh and a read, not a re-open.
final class AlsaMixer {
    private var handle: OpaquePointer?
    let device: String

    /// Opens and loads the mixer; throws the alsa-lib error text on failure.
    init(device: String) throws(SoundError) {
        self.device = device
        var mixer: OpaquePointer?
        var result = snd_mixer_open(&mixer, 0)
        if result == 0, let mixer {
            result = snd_mixer_attach(mixer, device)
            if result == 0 { result = snd_mixer_selem_register(mixer, nil, nil) }
            if result == 0 { result = snd_mixer_load(mixer) }
            if result < 0 { snd_mixer_close(mixer) }
        }
        guard result >= 0, let mixer else { throw SoundError(.cannotOpen, alsaMessage(result)) }
        handle = mixer
    }

    deinit { close() }

    func close() {
        if let handle { snd_mixer_close(handle) }
        handle = nil
    }

    /// Reads the control now (processing pending change events first).
    func look(control: String) -> MixerLookup {
        guard let handle else { return .cannotOpen(reason: "mixer closed") }
        _ = snd_mixer_handle_events(handle)
        guard let element = findElement(control) else { return .controlMissing(available: playbackControls()) }

        var switches: [Bool] = []
        var volumes: [Int] = []
        var low = 0, high = 0
        let hasSwitch = snd_mixer_selem_has_playback_switch(element) != 0
        let hasVolume = snd_mixer_selem_has_playback_volume(element) != 0
        if hasVolume {
            var minimum = 0, maximum = 0
            snd_mixer_selem_get_playback_volume_range(element, &minimum, &maximum)
            low = minimum; high = maximum
        }
        for rawChannel in 0..<Int32(SND_MIXER_SCHN_LAST.rawValue) {
            let channel = snd_mixer_selem_channel_id_t(rawValue: rawChannel)
            guard snd_mixer_selem_has_playback_channel(element, channel) != 0 else { continue }
            if hasSwitch {
                var on: Int32 = 0
                if snd_mixer_selem_get_playback_switch(element, channel, &on) == 0 { switches.append(on != 0) }
            }
            if hasVolume {
                var volume = 0
                if snd_mixer_selem_get_playback_volume(element, channel, &volume) == 0 { volumes.append(volume) }
            }
        }
        return .found(MixerReading(control: control, switches: switches, volumes: volumes,
                                   volumeRange: low...max(low, high)))
    }

    private func findElement(_ control: String) -> OpaquePointer? {
        guard let handle else { return nil }
        var id: OpaquePointer?
        guard snd_mixer_selem_id_malloc(&id) == 0, let id else { return nil }
        defer { snd_mixer_selem_id_free(id) }
        snd_mixer_selem_id_set_index(id, 0)
        snd_mixer_selem_id_set_name(id, control)
        return snd_mixer_find_selem(handle, id)
    }

    /// Names of the controls that have a playback switch or volume, for "did you mean".
    private func playbackControls() -> [String] {
        guard let handle else { return [] }
        var names: [String] = []
        var element = snd_mixer_first_elem(handle)
        while let current = element {
            if snd_mixer_selem_has_playback_volume(current) != 0 || snd_mixer_selem_has_playback_switch(current) != 0,
               let name = snd_mixer_selem_get_name(current) {
                names.append(String(cString: name))
            }
            element = snd_mixer_elem_next(current)
        }
        return names
    }
}

/// alsa-lib's text for a negative error code.
func alsaMessage(_ code: Int32) -> String {
    String(cString: snd_strerror(code))
}
