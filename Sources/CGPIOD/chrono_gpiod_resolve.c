// Version-neutral part of the shim: which chip and line a board file means, and errors in words.
#include "chrono_gpiod_internal.h"
#include <poll.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

int chrono_gpiod_api_version(void) { return CHRONO_GPIOD_API; }

void chrono_copy(char *out, size_t size, const char *in) {
    if (size == 0) return;
    snprintf(out, size, "%s", in ? in : "");
}

void chrono_fail(chrono_gpiod_error *error, chrono_gpiod_status status, int errnum,
                 const char *format, ...) {
    if (!error) return;
    error->status = status;
    error->error_number = errnum;
    va_list args;
    va_start(args, format);
    vsnprintf(error->detail, sizeof error->detail, format, args);
    va_end(args);
}

static bool all_digits(const char *s) {
    if (!*s) return false;
    for (; *s; s++) if (!isdigit((unsigned char)*s)) return false;
    return true;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void describe_chip(chrono_gpiod_error *error, const chrono_chip *chip) {
    if (!error) return;
    if (chip->label[0]) snprintf(error->chip, sizeof error->chip, "%s (%s)", chip->path, chip->label);
    else chrono_copy(error->chip, sizeof error->chip, chip->path);
}

static const char *file_kind(mode_t mode) {
    switch (mode & S_IFMT) {
    case S_IFREG: return "a regular file";
    case S_IFDIR: return "a directory";
    case S_IFIFO: return "a FIFO (named pipe)";
    case S_IFSOCK: return "a socket";
    case S_IFBLK: return "a block device";
    default: return "not a character device";
    }
}

/// Whether `path` is a GPIO character device, from stat(2) and sysfs alone: nothing is opened. libgpiod
/// 1.x opens a path read-write before it checks it, so a board file's `chip: /dev/watchdog` would arm
/// the hardware watchdog and `chip: /dev/zero` would be opened for writing. The device's class is the
/// subsystem sysfs links its major:minor to (`gpio`, as libgpiod 2.x checks); symbolic links in /dev
/// are followed, as the kernel's own names for a chip may be links. On failure fills `error`.
static bool is_gpiochip(const char *path, chrono_gpiod_error *error) {
    struct stat status;
    if (stat(path, &status) != 0) {
        int errnum = errno;
        if (error) chrono_copy(error->chip, sizeof error->chip, path);
        if (errnum == EACCES || errnum == EPERM)
            chrono_fail(error, CHRONO_GPIOD_PERMISSION_DENIED, errnum, "cannot look at %s: %s", path, strerror(errnum));
        else if (errnum == ENOENT || errnum == ENOTDIR)
            chrono_fail(error, CHRONO_GPIOD_NO_SUCH_CHIP, errnum, "%s does not exist, so it is not a gpiochip", path);
        else
            chrono_fail(error, CHRONO_GPIOD_SYSTEM_ERROR, errnum, "cannot look at %s: %s", path, strerror(errnum));
        return false;
    }
    if (!S_ISCHR(status.st_mode)) {
        if (error) chrono_copy(error->chip, sizeof error->chip, path);
        chrono_fail(error, CHRONO_GPIOD_NO_SUCH_CHIP, ENOTTY, "%s is not a gpiochip: it is %s, and was not opened",
                    path, file_kind(status.st_mode));
        return false;
    }
    unsigned int major_number = major(status.st_rdev), minor_number = minor(status.st_rdev);
    char link[64], target[256];
    snprintf(link, sizeof link, "/sys/dev/char/%u:%u/subsystem", major_number, minor_number);
    ssize_t length = readlink(link, target, sizeof target - 1);
    if (length < 0) {
        if (error) chrono_copy(error->chip, sizeof error->chip, path);
        chrono_fail(error, CHRONO_GPIOD_NO_SUCH_CHIP, ENOTTY,
                    "%s is not a gpiochip: character device %u:%u has no class in sysfs (%s), and was not opened",
                    path, major_number, minor_number, link);
        return false;
    }
    target[length] = '\0';
    const char *subsystem = strrchr(target, '/');
    subsystem = subsystem ? subsystem + 1 : target;
    if (strcmp(subsystem, "gpio") != 0) {
        if (error) chrono_copy(error->chip, sizeof error->chip, path);
        chrono_fail(error, CHRONO_GPIOD_NO_SUCH_CHIP, ENOTTY,
                    "%s is not a gpiochip: it is character device %u:%u of class \"%.40s\", and was not opened",
                    path, major_number, minor_number, subsystem);
        return false;
    }
    return true;
}

static bool open_by_path(const char *path, chrono_chip *chip, chrono_gpiod_error *error) {
    if (!is_gpiochip(path, error)) return false;
    if (chrono_chip_open_path(path, chip)) return true;
    int errnum = errno;
    if (error) chrono_copy(error->chip, sizeof error->chip, path);
    if (errnum == EACCES || errnum == EPERM)
        chrono_fail(error, CHRONO_GPIOD_PERMISSION_DENIED, errnum, "cannot open %s: %s", path, strerror(errnum));
    else if (errnum == ENOENT || errnum == ENODEV || errnum == ENOTTY || errnum == ENXIO)
        chrono_fail(error, CHRONO_GPIOD_NO_SUCH_CHIP, errnum, "%s is not a gpiochip: %s", path, strerror(errnum));
    else
        chrono_fail(error, CHRONO_GPIOD_SYSTEM_ERROR, errnum, "cannot open %s: %s", path, strerror(errnum));
    return false;
}

/// Labels are not unique names in /dev: open every gpiochip in order and compare. A chip that cannot
/// be opened for lack of permission is remembered, so that "no such chip" is not claimed when the
/// real problem is the udev rule.
static bool open_by_label(const char *label, chrono_chip *chip, chrono_gpiod_error *error) {
    DIR *dev = opendir("/dev");
    if (!dev) {
        chrono_fail(error, CHRONO_GPIOD_SYSTEM_ERROR, errno, "cannot list /dev: %s", strerror(errno));
        return false;
    }
    char *names[256];
    size_t count = 0;
    struct dirent *entry;
    while ((entry = readdir(dev)) && count < 256)
        if (strncmp(entry->d_name, "gpiochip", 8) == 0 && all_digits(entry->d_name + 8))
            names[count++] = strdup(entry->d_name);
    closedir(dev);
    qsort(names, count, sizeof names[0], compare_names);

    bool found = false, denied = false;
    char denied_path[64] = "";
    for (size_t i = 0; i < count; i++) {
        char path[64];
        snprintf(path, sizeof path, "/dev/%s", names[i]);
        if (!found && is_gpiochip(path, NULL)) {
            if (chrono_chip_open_path(path, chip)) {
                if (strcmp(chip->label, label) == 0) found = true;
                else chrono_chip_close(chip);
            } else if (errno == EACCES || errno == EPERM) {
                if (!denied) chrono_copy(denied_path, sizeof denied_path, path);
                denied = true;
            }
        }
        free(names[i]);
    }
    if (found) return true;
    if (error) chrono_copy(error->chip, sizeof error->chip, label);
    if (denied)
        chrono_fail(error, CHRONO_GPIOD_PERMISSION_DENIED, EACCES,
                    "no readable gpiochip has the label \"%s\" and %s could not be opened (permission denied)",
                    label, denied_path);
    else if (count == 0)
        chrono_fail(error, CHRONO_GPIOD_NO_SUCH_CHIP, ENOENT,
                    "no gpiochip has the label \"%s\": there are no gpiochips in /dev at all (no GPIO on this machine?)", label);
    else
        chrono_fail(error, CHRONO_GPIOD_NO_SUCH_CHIP, ENOENT,
                    "no gpiochip has the label \"%s\" (%zu chip%s in /dev)", label, count, count == 1 ? "" : "s");
    return false;
}

bool chrono_resolve(const chrono_gpiod_line_spec *spec, chrono_chip *chip, unsigned int *offset,
                    chrono_gpiod_resolved *resolved, chrono_gpiod_error *error) {
    if (error) memset(error, 0, sizeof *error);
    memset(chip, 0, sizeof *chip);
    const char *name = spec->chip ? spec->chip : "";
    char path[64];
    bool opened;
    if (name[0] == '/') {
        opened = open_by_path(name, chip, error);
    } else if (all_digits(name)) {
        snprintf(path, sizeof path, "/dev/gpiochip%s", name);
        opened = open_by_path(path, chip, error);
    } else if (strncmp(name, "gpiochip", 8) == 0 && all_digits(name + 8)) {
        snprintf(path, sizeof path, "/dev/%s", name);
        opened = open_by_path(path, chip, error);
    } else if (name[0]) {
        opened = open_by_label(name, chip, error);
    } else {
        chrono_fail(error, CHRONO_GPIOD_NO_SUCH_CHIP, 0, "no chip given");
        opened = false;
    }
    if (!opened) return false;
    describe_chip(error, chip);

    if (spec->line_name && spec->line_name[0]) {
        int found = chrono_chip_find_line(chip, spec->line_name);
        if (found < 0) {
            chrono_fail(error, CHRONO_GPIOD_NO_SUCH_LINE, ENOENT, "%s has no line named \"%s\"",
                        chip->path, spec->line_name);
            chrono_chip_close(chip);
            return false;
        }
        *offset = (unsigned int)found;
    } else {
        if (spec->line_offset >= chip->num_lines) {
            chrono_fail(error, CHRONO_GPIOD_NO_SUCH_LINE, EINVAL, "%s has %u lines (0-%u); there is no line %u",
                        chip->path, chip->num_lines, chip->num_lines ? chip->num_lines - 1 : 0, spec->line_offset);
            chrono_chip_close(chip);
            return false;
        }
        *offset = spec->line_offset;
    }
    if (resolved) {
        memset(resolved, 0, sizeof *resolved);
        chrono_copy(resolved->chip_path, sizeof resolved->chip_path, chip->path);
        chrono_copy(resolved->chip_label, sizeof resolved->chip_label, chip->label);
        chrono_chip_line_name(chip, *offset, resolved->line_name, sizeof resolved->line_name);
        resolved->line_offset = *offset;
    }
    return true;
}

void chrono_fail_request(chrono_chip *chip, unsigned int offset, int errnum, const char *what,
                         chrono_gpiod_error *error) {
    if (errnum == EBUSY) {
        char consumer[64] = "";
        chrono_chip_line_consumer(chip, offset, consumer, sizeof consumer);
        if (error) chrono_copy(error->consumer, sizeof error->consumer, consumer);
        chrono_fail(error, CHRONO_GPIOD_LINE_BUSY, errnum, "line %u of %s is in use%s%s%s", offset, chip->path,
                    consumer[0] ? " by \"" : "", consumer, consumer[0] ? "\"" : "");
    } else if (errnum == EACCES || errnum == EPERM) {
        chrono_fail(error, CHRONO_GPIOD_PERMISSION_DENIED, errnum, "%s line %u of %s: %s", what, offset, chip->path,
                    strerror(errnum));
    } else if (errnum == EOPNOTSUPP || errnum == ENOTSUP || errnum == 524 /* kernel ENOTSUPP */) {
        chrono_fail(error, CHRONO_GPIOD_UNSUPPORTED, errnum,
                    "%s line %u of %s: the chip refused a setting (bias or debounce): %s", what, offset,
                    chip->path, strerror(errnum));
    } else {
        chrono_fail(error, CHRONO_GPIOD_SYSTEM_ERROR, errnum, "%s line %u of %s: %s", what, offset, chip->path,
                    strerror(errnum));
    }
}

int chrono_edges_waiting(int fd, chrono_gpiod_error *error) {
    struct pollfd pfd = { .fd = fd, .events = POLLIN };
    int ready = poll(&pfd, 1, 0);
    if (ready < 0) {
        if (errno == EINTR) return 0;
        chrono_fail(error, CHRONO_GPIOD_SYSTEM_ERROR, errno, "poll on the button's event fd: %s", strerror(errno));
        return -1;
    }
    if (ready == 0) return 0;
    if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL)) {
        chrono_fail(error, CHRONO_GPIOD_SYSTEM_ERROR, ENODEV, "the button's line was lost (device gone)");
        return -1;
    }
    return 1;
}
