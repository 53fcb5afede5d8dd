// A flat C interface over libgpiod for the Swift drivers in ChronoHardware.
//
// libgpiod changed its API completely between 1.x (API v1: Debian 12, Raspberry Pi OS Bookworm) and
// 2.x (API v2: Raspberry Pi OS Trixie, Debian 13). This shim is compiled against whichever gpiod.h
// pkg-config finds and exposes the same small interface either way, so the Swift code never changes
// and nobody passes a build flag. See chrono_gpiod_internal.h for how the API is detected.
#ifndef CHRONO_GPIOD_H
#define CHRONO_GPIOD_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What went wrong, in the terms a user can act on.
typedef enum {
    CHRONO_GPIOD_OK = 0,
    CHRONO_GPIOD_NO_SUCH_CHIP,          // no gpiochip with that path, number or label
    CHRONO_GPIOD_NO_SUCH_LINE,          // offset beyond the chip, or no line with that name
    CHRONO_GPIOD_LINE_BUSY,             // another consumer holds the line (see `consumer`)
    CHRONO_GPIOD_PERMISSION_DENIED,     // /dev/gpiochipN not accessible: udev rule / group
    CHRONO_GPIOD_UNSUPPORTED,           // the kernel or chip refused a setting (bias, debounce)
    CHRONO_GPIOD_SYSTEM_ERROR,          // anything else; `error_number` and `detail` say what
} chrono_gpiod_status;

/// Filled on failure. Strings are always NUL-terminated (possibly empty).
typedef struct {
    chrono_gpiod_status status;
    int error_number;        // errno of the failing call, 0 if none
    char chip[96];           // the chip as resolved so far (path and label), or as asked for
    char consumer[64];       // LINE_BUSY: who holds the line, when the kernel says
    char detail[192];        // the failing call, in words
} chrono_gpiod_error;

/// Bias (internal pull resistor) for an input line.
typedef enum {
    CHRONO_GPIOD_BIAS_AS_IS = 0,
    CHRONO_GPIOD_BIAS_DISABLED,
    CHRONO_GPIOD_BIAS_PULL_UP,
    CHRONO_GPIOD_BIAS_PULL_DOWN,
} chrono_gpiod_bias;

/// Which line to request and how.
typedef struct {
    /// "gpiochip0", "/dev/gpiochip0", "0", or a chip label such as "pinctrl-rp1".
    const char *chip;
    /// A line name from the device tree (e.g. "GPIO17"); NULL or "" to use `line_offset`.
    const char *line_name;
    unsigned int line_offset;
    bool active_low;
    chrono_gpiod_bias bias;          // inputs only
    unsigned int debounce_us;        // inputs only; applied by the kernel with API v2, ignored by v1
    const char *consumer;            // shown by `gpioinfo` while we hold the line
} chrono_gpiod_line_spec;

/// Where a request ended up: for reports such as `chronoception board check`.
typedef struct {
    char chip_path[64];
    char chip_label[64];
    char line_name[64];
    unsigned int line_offset;
    unsigned int kernel_debounce_us; // 0 when the kernel does not debounce (API v1, or not asked)
} chrono_gpiod_resolved;

/// One edge, already in logical terms: `active` is true when the line became active (pressed),
/// whatever the wiring polarity. The timestamp is the kernel's, on CLOCK_MONOTONIC.
typedef struct {
    bool active;
    uint64_t timestamp_ns;
} chrono_gpiod_edge;

typedef struct chrono_gpiod_input chrono_gpiod_input;
typedef struct chrono_gpiod_output chrono_gpiod_output;

/// 1 or 2: the libgpiod API this shim was compiled against.
int chrono_gpiod_api_version(void);

/// Requests an input line with edge events on both edges. NULL on failure (see `error`).
chrono_gpiod_input *chrono_gpiod_input_open(const chrono_gpiod_line_spec *spec,
                                            chrono_gpiod_resolved *resolved,
                                            chrono_gpiod_error *error);
/// The descriptor that becomes readable when edge events are queued.
int chrono_gpiod_input_fd(const chrono_gpiod_input *input);
/// Reads up to `capacity` queued edges without blocking. Returns the count (0 when none are
/// ready) or -1 on failure.
int chrono_gpiod_input_read(chrono_gpiod_input *input, chrono_gpiod_edge *edges, int capacity,
                            chrono_gpiod_error *error);
/// The line's current logical level: 1 active, 0 inactive, -1 on failure.
int chrono_gpiod_input_level(chrono_gpiod_input *input, chrono_gpiod_error *error);
/// Releases the line and frees the handle.
void chrono_gpiod_input_close(chrono_gpiod_input *input);

/// Requests an output line, driven inactive (off) from the first instant. NULL on failure.
chrono_gpiod_output *chrono_gpiod_output_open(const chrono_gpiod_line_spec *spec,
                                              chrono_gpiod_resolved *resolved,
                                              chrono_gpiod_error *error);
/// Drives the line active or inactive. 0 on success, -1 on failure.
int chrono_gpiod_output_set(chrono_gpiod_output *output, bool active, chrono_gpiod_error *error);
/// Drives the line inactive, releases it and frees the handle.
void chrono_gpiod_output_close(chrono_gpiod_output *output);

#ifdef __cplusplus
}
#endif

#endif
