// See include/chrono_evdev.h.
#include "chrono_evdev.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <libevdev/libevdev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct chrono_evdev_device {
    int fd;
    struct libevdev *evdev;
    bool grabbed;
    /// Between a SYN_DROPPED and the end of libevdev's sync events (kept across reads that fill the buffer).
    bool syncing;
};

static void fail(chrono_evdev_error *error, chrono_evdev_status status, int number, const char *what, const char *path) {
    if (!error) return;
    error->status = status;
    error->error_number = number;
    snprintf(error->detail, sizeof error->detail, "%s %s: %s", what, path ? path : "", strerror(number));
}

static chrono_evdev_status status_for(int number) {
    switch (number) {
    case ENOENT: case ENXIO: return CHRONO_EVDEV_NO_SUCH_DEVICE;
    case EACCES: case EPERM: return CHRONO_EVDEV_PERMISSION_DENIED;
    case ENOTTY: case EINVAL: return CHRONO_EVDEV_NOT_AN_INPUT_DEVICE;
    case ENODEV: return CHRONO_EVDEV_DEVICE_GONE;
    default: return CHRONO_EVDEV_SYSTEM_ERROR;
    }
}

chrono_evdev_device *chrono_evdev_open(const char *path, bool grab, chrono_evdev_error *error) {
    if (error) memset(error, 0, sizeof *error);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        int number = errno;
        fail(error, status_for(number), number, "open", path);
        return NULL;
    }
    struct libevdev *evdev = NULL;
    int rc = libevdev_new_from_fd(fd, &evdev);
    if (rc < 0) {
        close(fd);
        fail(error, status_for(-rc), -rc, "reading the input device behind", path);
        return NULL;
    }
    // Stamps on CLOCK_MONOTONIC, the clock the loop's deadlines use (the kernel default is REALTIME).
    rc = libevdev_set_clock_id(evdev, CLOCK_MONOTONIC);
    if (rc < 0) {
        libevdev_free(evdev);
        close(fd);
        fail(error, status_for(-rc), -rc, "EVIOCSCLOCKID (CLOCK_MONOTONIC) on", path);
        return NULL;
    }
    if (grab) {
        rc = libevdev_grab(evdev, LIBEVDEV_GRAB);
        if (rc < 0) {
            libevdev_free(evdev);
            close(fd);
            fail(error, -rc == EBUSY ? CHRONO_EVDEV_GRABBED_ELSEWHERE : status_for(-rc), -rc, "EVIOCGRAB on", path);
            return NULL;
        }
    }
    chrono_evdev_device *device = calloc(1, sizeof *device);
    if (!device) {
        libevdev_free(evdev);
        close(fd);
        fail(error, CHRONO_EVDEV_SYSTEM_ERROR, ENOMEM, "allocating the device for", path);
        return NULL;
    }
    device->fd = fd;
    device->evdev = evdev;
    device->grabbed = grab;
    return device;
}

int chrono_evdev_fd(const chrono_evdev_device *device) { return device->fd; }
const char *chrono_evdev_name(const chrono_evdev_device *device) {
    const char *name = libevdev_get_name(device->evdev);
    return name ? name : "";
}
uint16_t chrono_evdev_vendor(const chrono_evdev_device *device) { return (uint16_t)libevdev_get_id_vendor(device->evdev); }
uint16_t chrono_evdev_product(const chrono_evdev_device *device) { return (uint16_t)libevdev_get_id_product(device->evdev); }

bool chrono_evdev_has_key(const chrono_evdev_device *device, unsigned int code) {
    return libevdev_has_event_code(device->evdev, EV_KEY, code) == 1;
}

bool chrono_evdev_is_keyboard(const chrono_evdev_device *device) {
    for (unsigned int code = KEY_ESC; code <= KEY_D; code++) {
        if (!chrono_evdev_has_key(device, code)) return false;
    }
    return true;
}

int chrono_evdev_key_value(const chrono_evdev_device *device, unsigned int code) {
    return libevdev_get_event_value(device->evdev, EV_KEY, code);
}

static void store(chrono_evdev_event *slot, const struct input_event *event, bool resync) {
    slot->type = event->type;
    slot->code = event->code;
    slot->value = event->value;
    slot->timestamp_ns = (int64_t)event->input_event_sec * 1000000000LL + (int64_t)event->input_event_usec * 1000LL;
    slot->resync = resync;
}

int chrono_evdev_read(chrono_evdev_device *device, chrono_evdev_event *events, int capacity, chrono_evdev_error *error) {
    if (error) memset(error, 0, sizeof *error);
    int count = 0;
    while (count < capacity) {
        struct input_event event;
        int rc = libevdev_next_event(device->evdev, device->syncing ? LIBEVDEV_READ_FLAG_SYNC : LIBEVDEV_READ_FLAG_NORMAL, &event);
        if (rc == -EAGAIN) {
            // In sync mode: the synthesised state is all out, back to normal events. Otherwise: queue empty.
            if (device->syncing) { device->syncing = false; continue; }
            return count;
        }
        if (rc < 0) {
            fail(error, status_for(-rc), -rc, "reading events from", libevdev_get_name(device->evdev));
            return -1;
        }
        if (rc == LIBEVDEV_READ_STATUS_SYNC && !device->syncing) {
            // `event` is the SYN_DROPPED itself: events were lost; libevdev now offers the state deltas.
            device->syncing = true;
            store(&events[count++], &event, false);
            continue;
        }
        if (event.type == EV_KEY) store(&events[count++], &event, device->syncing);
    }
    return count;
}

void chrono_evdev_close(chrono_evdev_device *device) {
    if (!device) return;
    if (device->grabbed) libevdev_grab(device->evdev, LIBEVDEV_UNGRAB);
    libevdev_free(device->evdev);
    close(device->fd);
    free(device);
}

int chrono_evdev_key_code(const char *name) { return libevdev_event_code_from_name(EV_KEY, name); }
const char *chrono_evdev_key_name(unsigned int code) { return libevdev_event_code_get_name(EV_KEY, code); }
uint16_t chrono_evdev_type_key(void) { return EV_KEY; }
uint16_t chrono_evdev_type_syn(void) { return EV_SYN; }
uint16_t chrono_evdev_code_syn_dropped(void) { return SYN_DROPPED; }

int chrono_evdev_wait_for_new_devices(const char *folder, int timeout_ms, int wake_fd) {
    int fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
    if (fd < 0) return -1;
    if (inotify_add_watch(fd, folder, IN_CREATE | IN_MOVED_TO | IN_ATTRIB) < 0) {
        int number = errno;
        close(fd);
        errno = number;
        return -1;
    }
    char by_id[512];
    snprintf(by_id, sizeof by_id, "%s/by-id", folder);
    (void)inotify_add_watch(fd, by_id, IN_CREATE | IN_MOVED_TO); // absent until the first USB input device
    struct pollfd entries[2] = {
        { .fd = fd, .events = POLLIN, .revents = 0 },
        { .fd = wake_fd, .events = POLLIN, .revents = 0 }, // poll ignores a negative fd
    };
    int rc = poll(entries, 2, timeout_ms);
    int number = errno;
    close(fd);
    errno = number;
    if (rc < 0) return number == EINTR ? 2 : -1;
    if (entries[1].revents & POLLIN) return 2;
    return rc > 0 ? 1 : 0;
}
