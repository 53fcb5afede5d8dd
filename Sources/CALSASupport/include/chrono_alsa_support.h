// The one alsa-lib call Swift cannot make itself: installing an error handler (a C variadic callback).
#ifndef CHRONO_ALSA_SUPPORT_H
#define CHRONO_ALSA_SUPPORT_H

/// Stops alsa-lib from printing its own "ALSA lib …" lines to stderr. The drivers report every failure
/// themselves, with the device name and a fix, so alsa-lib's internal trail is noise for a user.
void chrono_alsa_silence_library_errors(void);

#endif
