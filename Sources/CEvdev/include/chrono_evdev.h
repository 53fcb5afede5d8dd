// A flat C interface over libevdev for the Swift evdev button in ChronoHardware.
//
// Why a shim: `struct input_event` keeps its time as `struct timeval` on some ABIs and as
// `__sec`/`__usec` on others (32-bit with 64-bit time_t), and libevdev's SYN_DROPPED recovery is a
// small state machine across calls. Both stay here; Swift sees flat events with nanosecond stamps.
#ifndef CHRONO_EVDEV_H
#define CHRONO_EVDEV_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What went wrong, in the terms a user can act on.
typedef enum {
    CHRONO_EVDEV_OK = 0,
    CHRONO_EVDEV_NO_SUCH_DEVICE,      // the path does not exist (ENOENT, ENXIO)
    CHRONO_EVDEV_PERMISSION_DENIED,   // EACCES/EPERM on /dev/input/event*: group or udev rule
    CHRONO_EVDEV_NOT_AN_INPUT_DEVICE, // the path opened but is not an evdev node (ENOTTY, EINVAL)
    CHRONO_EVDEV_GRABBED_ELSEWHERE,   // EVIOCGRAB: another program holds the device exclusively
    CHRONO_EVDEV_DEVICE_GONE,         // ENODEV: the device was unplugged
    CHRONO_EVDEV_SYSTEM_ERROR,        // anything else; `error_number` and `detail` say what
} chrono_evdev_status;

/// Filled on failure. `detail` is always NUL-terminated (possibly empty).
typedef struct {
    chrono_evdev_status status;
    int error_number;                 // errno of the failing call, 0 if none
    char detail[192];                 // the failing call, in words
} chrono_evdev_error;

/// One event as read. EV_KEY events and SYN_DROPPED markers only; the rest are skipped.
typedef struct {
    uint16_t type;
    uint16_t code;
    int32_t value;
    /// The kernel's stamp on CLOCK_MONOTONIC (the device is switched to it at open), in nanoseconds;
    /// the kernel keeps microseconds, so the last three digits are zero.
    int64_t timestamp_ns;
    /// True for the state changes libevdev synthesises after a SYN_DROPPED (they carry the drop's stamp).
    bool resync;
} chrono_evdev_event;

typedef struct chrono_evdev_device chrono_evdev_device;

/// Opens an event device non-blocking, switches its clock to CLOCK_MONOTONIC and, when `grab`,
/// takes it exclusively (EVIOCGRAB). NULL on failure (see `error`).
chrono_evdev_device *chrono_evdev_open(const char *path, bool grab, chrono_evdev_error *error);
/// The device's descriptor, readable (POLLIN) when events are queued; POLLHUP|POLLERR once unplugged.
int chrono_evdev_fd(const chrono_evdev_device *device);
/// The kernel's name for the device, e.g. "Logitech USB Keyboard".
const char *chrono_evdev_name(const chrono_evdev_device *device);
uint16_t chrono_evdev_vendor(const chrono_evdev_device *device);
uint16_t chrono_evdev_product(const chrono_evdev_device *device);
/// Whether the device reports the key code at all.
bool chrono_evdev_has_key(const chrono_evdev_device *device, unsigned int code);
/// Whether the device looks like a full keyboard: it has every key from Esc to D (codes 1…32), as
/// udev's ID_INPUT_KEYBOARD test does, so mice, power buttons and media-key pads do not count.
bool chrono_evdev_is_keyboard(const chrono_evdev_device *device);
/// The key's level as libevdev knows it: 1 held, 0 up.
int chrono_evdev_key_value(const chrono_evdev_device *device, unsigned int code);
/// Reads every queued event into `events` (up to `capacity`) without blocking, recovering from a
/// SYN_DROPPED through libevdev's sync mode. Returns the count (`capacity` means: call again), or -1
/// (see `error`; CHRONO_EVDEV_DEVICE_GONE after an unplug).
int chrono_evdev_read(chrono_evdev_device *device, chrono_evdev_event *events, int capacity, chrono_evdev_error *error);
/// Releases the grab, frees libevdev and closes the descriptor. Safe with NULL.
void chrono_evdev_close(chrono_evdev_device *device);

/// Waits until an entry is created in `folder` (/dev/input) or its by-id subfolder, or `timeout_ms`
/// passes: inotify, no polling loop. Returns 1 on a change, 0 on timeout, 2 when `wake_fd` (-1: none)
/// became readable or a signal interrupted the wait, -1 (errno) when it cannot watch.
int chrono_evdev_wait_for_new_devices(const char *folder, int timeout_ms, int wake_fd);

/// The EV_KEY code for a name such as "KEY_SPACE" or "BTN_0"; -1 when libevdev does not know it.
int chrono_evdev_key_code(const char *name);
/// The name of an EV_KEY code ("KEY_SPACE"), or NULL.
const char *chrono_evdev_key_name(unsigned int code);
/// EV_KEY and EV_SYN/SYN_DROPPED, for the Swift side's decoding without linux/input.h.
uint16_t chrono_evdev_type_key(void);
uint16_t chrono_evdev_type_syn(void);
uint16_t chrono_evdev_code_syn_dropped(void);

#ifdef __cplusplus
}
#endif

#endif
