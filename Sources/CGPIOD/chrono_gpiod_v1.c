// The shim over libgpiod 1.x (API v1). Compiled to nothing when gpiod.h is 2.x.
#include "chrono_gpiod_internal.h"
#if CHRONO_GPIOD_API == 1

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

struct chrono_gpiod_input {
    chrono_chip chip;         // v1 lines belong to their chip: it stays open while the line is held
    struct gpiod_line *line;
};

struct chrono_gpiod_output {
    chrono_chip chip;
    struct gpiod_line *line;
};

bool chrono_chip_open_path(const char *path, chrono_chip *out) {
    memset(out, 0, sizeof *out);
    out->chip = gpiod_chip_open(path);
    if (!out->chip) return false;
    chrono_copy(out->path, sizeof out->path, path);
    chrono_copy(out->label, sizeof out->label, gpiod_chip_label(out->chip));
    out->num_lines = gpiod_chip_num_lines(out->chip);
    return true;
}

void chrono_chip_close(chrono_chip *chip) {
    if (chip->chip) gpiod_chip_close(chip->chip);
    chip->chip = NULL;
}

int chrono_chip_find_line(chrono_chip *chip, const char *name) {
    struct gpiod_line *line = gpiod_chip_find_line(chip->chip, name);
    if (!line) { errno = ENOENT; return -1; }
    return (int)gpiod_line_offset(line);
}

void chrono_chip_line_consumer(chrono_chip *chip, unsigned int offset, char *out, size_t size) {
    out[0] = '\0';
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (line && gpiod_line_update(line) == 0 && gpiod_line_is_used(line))
        chrono_copy(out, size, gpiod_line_consumer(line));
}

void chrono_chip_line_name(chrono_chip *chip, unsigned int offset, char *out, size_t size) {
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    chrono_copy(out, size, line ? gpiod_line_name(line) : NULL);
}

static int bias_flags(chrono_gpiod_bias bias) {
    switch (bias) {
    case CHRONO_GPIOD_BIAS_DISABLED: return GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE;
    case CHRONO_GPIOD_BIAS_PULL_UP: return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP;
    case CHRONO_GPIOD_BIAS_PULL_DOWN: return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN;
    default: return 0;
    }
}

chrono_gpiod_input *chrono_gpiod_input_open(const chrono_gpiod_line_spec *spec,
                                            chrono_gpiod_resolved *resolved,
                                            chrono_gpiod_error *error) {
    chrono_gpiod_input *input = calloc(1, sizeof *input);
    if (!input) { chrono_fail(error, CHRONO_GPIOD_SYSTEM_ERROR, ENOMEM, "out of memory"); return NULL; }
    unsigned int offset;
    if (!chrono_resolve(spec, &input->chip, &offset, resolved, error)) { free(input); return NULL; }
    input->line = gpiod_chip_get_line(input->chip.chip, offset);
    // uAPI v1 has no debounce; the caller's own debounce always runs, so nothing is lost but the
    // kernel's pre-filtering. Edge timestamps are CLOCK_MONOTONIC on every kernel since 5.7.
    struct gpiod_line_request_config config = {
        .consumer = spec->consumer ? spec->consumer : "chronoception",
        .request_type = GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES,
        .flags = bias_flags(spec->bias) | (spec->active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0),
    };
    if (!input->line || gpiod_line_request(input->line, &config, 0) < 0) {
        chrono_fail_request(&input->chip, offset, input->line ? errno : EINVAL, "cannot watch", error);
        chrono_chip_close(&input->chip);
        free(input);
        return NULL;
    }
    return input;
}

int chrono_gpiod_input_fd(const chrono_gpiod_input *input) {
    return gpiod_line_event_get_fd(input->line);
}

int chrono_gpiod_input_read(chrono_gpiod_input *input, chrono_gpiod_edge *edges, int capacity,
                            chrono_gpiod_error *error) {
    if (capacity <= 0) return 0;
    // The event fd is blocking: look before reading so that this call never waits.
    int ready = chrono_edges_waiting(gpiod_line_event_get_fd(input->line), error);
    if (ready <= 0) return ready;
    struct gpiod_line_event events[16];
    int max = capacity < 16 ? capacity : 16;
    int count = gpiod_line_event_read_multiple(input->line, events, (unsigned int)max);
    if (count < 0) {
        chrono_fail(error, CHRONO_GPIOD_SYSTEM_ERROR, errno, "reading edge events: %s", strerror(errno));
        return -1;
    }
    for (int i = 0; i < count; i++) {
        // With ACTIVE_LOW the kernel reports edges of the logical value, so RISING means pressed.
        edges[i].active = events[i].event_type == GPIOD_LINE_EVENT_RISING_EDGE;
        edges[i].timestamp_ns = (uint64_t)events[i].ts.tv_sec * 1000000000ull + (uint64_t)events[i].ts.tv_nsec;
    }
    return count;
}

int chrono_gpiod_input_level(chrono_gpiod_input *input, chrono_gpiod_error *error) {
    int value = gpiod_line_get_value(input->line);
    if (value < 0) chrono_fail(error, CHRONO_GPIOD_SYSTEM_ERROR, errno, "reading the line: %s", strerror(errno));
    return value;
}

void chrono_gpiod_input_close(chrono_gpiod_input *input) {
    if (!input) return;
    gpiod_line_release(input->line);
    chrono_chip_close(&input->chip);
    free(input);
}

chrono_gpiod_output *chrono_gpiod_output_open(const chrono_gpiod_line_spec *spec,
                                              chrono_gpiod_resolved *resolved,
                                              chrono_gpiod_error *error) {
    chrono_gpiod_output *output = calloc(1, sizeof *output);
    if (!output) { chrono_fail(error, CHRONO_GPIOD_SYSTEM_ERROR, ENOMEM, "out of memory"); return NULL; }
    unsigned int offset;
    if (!chrono_resolve(spec, &output->chip, &offset, resolved, error)) { free(output); return NULL; }
    output->line = gpiod_chip_get_line(output->chip.chip, offset);
    struct gpiod_line_request_config config = {
        .consumer = spec->consumer ? spec->consumer : "chronoception",
        .request_type = GPIOD_LINE_REQUEST_DIRECTION_OUTPUT,
        .flags = spec->active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0,
    };
    // default_val 0 is the logical value: inactive (off) from the moment the line becomes an output.
    if (!output->line || gpiod_line_request(output->line, &config, 0) < 0) {
        chrono_fail_request(&output->chip, offset, output->line ? errno : EINVAL, "cannot drive", error);
        chrono_chip_close(&output->chip);
        free(output);
        return NULL;
    }
    return output;
}

int chrono_gpiod_output_set(chrono_gpiod_output *output, bool active, chrono_gpiod_error *error) {
    if (gpiod_line_set_value(output->line, active ? 1 : 0) < 0) {
        chrono_fail(error, CHRONO_GPIOD_SYSTEM_ERROR, errno, "setting the line %s: %s", active ? "on" : "off",
                    strerror(errno));
        return -1;
    }
    return 0;
}

void chrono_gpiod_output_close(chrono_gpiod_output *output) {
    if (!output) return;
    (void)gpiod_line_set_value(output->line, 0);
    gpiod_line_release(output->line);
    chrono_chip_close(&output->chip);
    free(output);
}

#endif
