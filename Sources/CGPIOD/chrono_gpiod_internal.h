// Internal to the shim: API detection and the few chip primitives the version-neutral resolver needs.
#ifndef CHRONO_GPIOD_INTERNAL_H
#define CHRONO_GPIOD_INTERNAL_H

#include <gpiod.h>
#include "chrono_gpiod.h"

// libgpiod 1.x defines GPIOD_LINE_BULK_MAX_LINES (its line-bulk API); 2.x removed line bulks and
// has no such macro. Nothing else is needed to tell them apart at compile time.
#ifdef GPIOD_LINE_BULK_MAX_LINES
#define CHRONO_GPIOD_API 1
#else
#define CHRONO_GPIOD_API 2
#endif

/// An open chip and what the resolver learnt about it.
typedef struct {
    struct gpiod_chip *chip;
    char path[64];
    char label[64];
    unsigned int num_lines;
} chrono_chip;

// --- implemented once per API (chrono_gpiod_v1.c / chrono_gpiod_v2.c) ---
/// Opens a chip by path and fills label and line count; false with errno set on failure.
bool chrono_chip_open_path(const char *path, chrono_chip *out);
void chrono_chip_close(chrono_chip *chip);
/// The offset of the named line on this chip, or -1 (errno ENOENT) when there is none.
int chrono_chip_find_line(chrono_chip *chip, const char *name);
/// Copies the name of the consumer holding `offset` (empty when unknown or unused).
void chrono_chip_line_consumer(chrono_chip *chip, unsigned int offset, char *out, size_t size);
/// The line's name from the device tree (empty when it has none).
void chrono_chip_line_name(chrono_chip *chip, unsigned int offset, char *out, size_t size);

// --- version-neutral (chrono_gpiod_resolve.c) ---
/// Finds and opens the chip named by `spec->chip`, then the line, filling `resolved`.
/// On failure fills `error` and returns false (the chip is closed).
bool chrono_resolve(const chrono_gpiod_line_spec *spec, chrono_chip *chip, unsigned int *offset,
                    chrono_gpiod_resolved *resolved, chrono_gpiod_error *error);
/// Turns a failed request's errno into the user-facing status, naming the consumer when busy.
void chrono_fail_request(chrono_chip *chip, unsigned int offset, int errnum, const char *what,
                         chrono_gpiod_error *error);
/// Fills `error` with a status, errno and a formatted detail.
void chrono_fail(chrono_gpiod_error *error, chrono_gpiod_status status, int errnum,
                 const char *format, ...) __attribute__((format(printf, 4, 5)));
/// Copies a C string into a fixed buffer, always terminated.
void chrono_copy(char *out, size_t size, const char *in);


/// Whether edge events are waiting on a button's descriptor, without blocking: 1 yes, 0 no (or
/// interrupted), -1 with `error` filled when the descriptor failed or the line was lost.
int chrono_edges_waiting(int fd, chrono_gpiod_error *error);

#endif
