// The shim over libgpiod 2.x (API v2). Compiled to nothing when gpiod.h is 1.x.
#include "chrono_gpiod_internal.h"
#if CHRONO_GPIOD_API == 2

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

enum { EVENT_BUFFER_CAPACITY = 16 };

struct chrono_gpiod_input {
    struct gpiod_line_request *request;   // independent of the chip once made
    struct gpiod_edge_event_buffer *events;
    unsigned int offset;
};

struct chrono_gpiod_output {
    struct gpiod_line_request *request;
    unsigned int offset;
};

bool chrono_chip_open_path(const char *path, chrono_chip *out) {
    memset(out, 0, sizeof *out);
    out->chip = gpiod_chip_open(path);
    if (!out->chip) return false;
    chrono_copy(out->path, sizeof out->path, path);
    struct gpiod_chip_info *info = gpiod_chip_get_info(out->chip);
    if (info) {
        chrono_copy(out->label, sizeof out->label, gpiod_chip_info_get_label(info));
        out->num_lines = (unsigned int)gpiod_chip_info_get_num_lines(info);
        gpiod_chip_info_free(info);
    }
    return true;
}

void chrono_chip_close(chrono_chip *chip) {
    if (chip->chip) gpiod_chip_close(chip->chip);
    chip->chip = NULL;
}

int chrono_chip_find_line(chrono_chip *chip, const char *name) {
    return gpiod_chip_get_line_offset_from_name(chip->chip, name);
}

void chrono_chip_line_consumer(chrono_chip *chip, unsigned int offset, char *out, size_t size) {
    out[0] = '\0';
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip->chip, offset);
    if (!info) return;
    if (gpiod_line_info_is_used(info)) chrono_copy(out, size, gpiod_line_info_get_consumer(info));
    gpiod_line_info_free(info);
}

void chrono_chip_line_name(chrono_chip *chip, unsigned int offset, char *out, size_t size) {
    out[0] = '\0';
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip->chip, offset);
    if (!info) return;
    chrono_copy(out, size, gpiod_line_info_get_name(info));
    gpiod_line_info_free(info);
}

static enum gpiod_line_bias v2_bias(chrono_gpiod_bias bias) {
    switch (bias) {
    case CHRONO_GPIOD_BIAS_DISABLED: return GPIOD_LINE_BIAS_DISABLED;
    case CHRONO_GPIOD_BIAS_PULL_UP: return GPIOD_LINE_BIAS_PULL_UP;
    case CHRONO_GPIOD_BIAS_PULL_DOWN: return GPIOD_LINE_BIAS_PULL_DOWN;
    default: return GPIOD_LINE_BIAS_AS_IS;
    }
}

/// Builds the request configuration for one line and asks the chip for it. NULL with errno set.
static struct gpiod_line_request *request_line(chrono_chip *chip, unsigned int offset,
                                               struct gpiod_line_settings *settings, const char *consumer) {
    struct gpiod_line_request *request = NULL;
    struct gpiod_line_config *line_config = gpiod_line_config_new();
    struct gpiod_request_config *request_config = gpiod_request_config_new();
    if (line_config && request_config &&
        gpiod_line_config_add_line_settings(line_config, &offset, 1, settings) == 0) {
        gpiod_request_config_set_consumer(request_config, consumer ? consumer : "chronoception");
        request = gpiod_chip_request_lines(chip->chip, request_config, line_config);
    }
    int saved = errno;
    if (line_config) gpiod_line_config_free(line_config);
    if (request_config) gpiod_request_config_free(request_config);
    errno = saved;
    return request;
}

chrono_gpiod_input *chrono_gpiod_input_open(const chrono_gpiod_line_spec *spec,
                                            chrono_gpiod_resolved *resolved,
                                            chrono_gpiod_error *error) {
    chrono_chip chip;
    unsigned int offset;
    if (!chrono_resolve(spec, &chip, &offset, resolved, error)) return NULL;
    chrono_gpiod_input *input = calloc(1, sizeof *input);
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (!input || !settings) {
        chrono_fail(error, CHRONO_GPIOD_SYSTEM_ERROR, ENOMEM, "out of memory");
        goto fail;
    }
    gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT);
    gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH);
    gpiod_line_settings_set_bias(settings, v2_bias(spec->bias));
    gpiod_line_settings_set_active_low(settings, spec->active_low);
    // The kernel's default event clock is already monotonic, but say so: a board or a future
    // default must never hand us REALTIME stamps that jump with the wall clock.
    gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC);
    if (spec->debounce_us) gpiod_line_settings_set_debounce_period_us(settings, spec->debounce_us);

    input->request = request_line(&chip, offset, settings, spec->consumer);
    if (!input->request) {
        chrono_fail_request(&chip, offset, errno, "cannot watch", error);
        goto fail;
    }
    input->events = gpiod_edge_event_buffer_new(EVENT_BUFFER_CAPACITY);
    if (!input->events) {
        chrono_fail(error, CHRONO_GPIOD_SYSTEM_ERROR, ENOMEM, "out of memory");
        gpiod_line_request_release(input->request);
        goto fail;
    }
    input->offset = offset;
    if (resolved) resolved->kernel_debounce_us = spec->debounce_us;
    gpiod_line_settings_free(settings);
    chrono_chip_close(&chip);
    return input;
fail:
    if (settings) gpiod_line_settings_free(settings);
    free(input);
    chrono_chip_close(&chip);
    return NULL;
}

int chrono_gpiod_input_fd(const chrono_gpiod_input *input) {
    return gpiod_line_request_get_fd((struct gpiod_line_request *)input->request);
}

int chrono_gpiod_input_read(chrono_gpiod_input *input, chrono_gpiod_edge *edges, int capacity,
                            chrono_gpiod_error *error) {
    if (capacity <= 0) return 0;
    // The request fd is blocking: look before reading so that this call never waits.
    int ready = chrono_edges_waiting(gpiod_line_request_get_fd(input->request), error);
    if (ready <= 0) return ready;
    size_t max = capacity < EVENT_BUFFER_CAPACITY ? (size_t)capacity : EVENT_BUFFER_CAPACITY;
    int count = gpiod_line_request_read_edge_events(input->request, input->events, max);
    if (count < 0) {
        chrono_fail(error, CHRONO_GPIOD_SYSTEM_ERROR, errno, "reading edge events: %s", strerror(errno));
        return -1;
    }
    for (int i = 0; i < count; i++) {
        struct gpiod_edge_event *event = gpiod_edge_event_buffer_get_event(input->events, (unsigned long)i);
        // Edge types are of the logical value (active-low already applied): RISING means pressed.
        edges[i].active = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE;
        edges[i].timestamp_ns = gpiod_edge_event_get_timestamp_ns(event);
    }
    return count;
}

int chrono_gpiod_input_level(chrono_gpiod_input *input, chrono_gpiod_error *error) {
    enum gpiod_line_value value = gpiod_line_request_get_value(input->request, input->offset);
    if (value == GPIOD_LINE_VALUE_ERROR) {
        chrono_fail(error, CHRONO_GPIOD_SYSTEM_ERROR, errno, "reading the line: %s", strerror(errno));
        return -1;
    }
    return value == GPIOD_LINE_VALUE_ACTIVE ? 1 : 0;
}

void chrono_gpiod_input_close(chrono_gpiod_input *input) {
    if (!input) return;
    gpiod_line_request_release(input->request);
    gpiod_edge_event_buffer_free(input->events);
    free(input);
}

chrono_gpiod_output *chrono_gpiod_output_open(const chrono_gpiod_line_spec *spec,
                                              chrono_gpiod_resolved *resolved,
                                              chrono_gpiod_error *error) {
    chrono_chip chip;
    unsigned int offset;
    if (!chrono_resolve(spec, &chip, &offset, resolved, error)) return NULL;
    chrono_gpiod_output *output = calloc(1, sizeof *output);
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (!output || !settings) {
        chrono_fail(error, CHRONO_GPIOD_SYSTEM_ERROR, ENOMEM, "out of memory");
        goto fail;
    }
    gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT);
    gpiod_line_settings_set_active_low(settings, spec->active_low);
    // Logical inactive from the moment the line becomes an output: the motor never twitches.
    gpiod_line_settings_set_output_value(settings, GPIOD_LINE_VALUE_INACTIVE);
    output->request = request_line(&chip, offset, settings, spec->consumer);
    if (!output->request) {
        chrono_fail_request(&chip, offset, errno, "cannot drive", error);
        goto fail;
    }
    output->offset = offset;
    gpiod_line_settings_free(settings);
    chrono_chip_close(&chip);
    return output;
fail:
    if (settings) gpiod_line_settings_free(settings);
    free(output);
    chrono_chip_close(&chip);
    return NULL;
}

int chrono_gpiod_output_set(chrono_gpiod_output *output, bool active, chrono_gpiod_error *error) {
    if (gpiod_line_request_set_value(output->request, output->offset,
                                     active ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE) < 0) {
        chrono_fail(error, CHRONO_GPIOD_SYSTEM_ERROR, errno, "setting the line %s: %s", active ? "on" : "off",
                    strerror(errno));
        return -1;
    }
    return 0;
}

void chrono_gpiod_output_close(chrono_gpiod_output *output) {
    if (!output) return;
    (void)gpiod_line_request_set_value(output->request, output->offset, GPIOD_LINE_VALUE_INACTIVE);
    gpiod_line_request_release(output->request);
    free(output);
}

#endif
