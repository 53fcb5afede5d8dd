// See include/chrono_desktop_notify.h. sd-bus's few functions are looked up with dlsym; their
// prototypes are declared here, as libsystemd's headers are not needed (nor present on the builder).
#include "chrono_desktop_notify.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sd_bus sd_bus;
typedef struct sd_bus_message sd_bus_message;
typedef struct sd_bus_slot sd_bus_slot;
typedef struct {
    const char *name;
    const char *message;
    int _need_free;
} sd_bus_error;
typedef int (*sd_bus_message_handler_t)(sd_bus_message *m, void *userdata, sd_bus_error *ret_error);

struct chrono_notifier {
    void *library;
    sd_bus *bus;
    sd_bus_slot *slot;
    // Ids whose default action was invoked since the last poll (a few at most: one per click).
    int64_t invoked[16];
    int invoked_count;
    int (*call_method)(sd_bus *, const char *, const char *, const char *, const char *, sd_bus_error *, sd_bus_message **, const char *, ...);
    int (*message_read)(sd_bus_message *, const char *, ...);
    sd_bus_message *(*message_unref)(sd_bus_message *);
    void (*error_free)(sd_bus_error *);
    int (*process)(sd_bus *, sd_bus_message **);
    int (*wait)(sd_bus *, uint64_t);
    sd_bus *(*flush_close_unref)(sd_bus *);
    sd_bus_slot *(*slot_unref)(sd_bus_slot *);
};

static void say(char *error, size_t size, const char *text, int code) {
    if (!error || size == 0) return;
    if (code < 0) snprintf(error, size, "%s: %s", text, strerror(-code));
    else snprintf(error, size, "%s", text);
}

static int on_action_invoked(sd_bus_message *m, void *userdata, sd_bus_error *ret_error) {
    (void)ret_error;
    struct chrono_notifier *notifier = userdata;
    uint32_t id = 0;
    const char *key = NULL;
    if (notifier->message_read(m, "us", &id, &key) < 0 || !key) return 0;
    if (strcmp(key, "default") == 0 && notifier->invoked_count < 16) notifier->invoked[notifier->invoked_count++] = id;
    return 0;
}

chrono_notifier *chrono_notifier_open(const char *address, char *error, size_t error_size) {
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        say(error, error_size, "libsystemd.so.0 is not installed (sd-bus speaks to the session bus)", 0);
        return NULL;
    }
    struct chrono_notifier *notifier = calloc(1, sizeof *notifier);
    if (!notifier) { dlclose(library); say(error, error_size, "out of memory", 0); return NULL; }
    notifier->library = library;
    int (*open_user)(sd_bus **) = (int (*)(sd_bus **))dlsym(library, "sd_bus_open_user");
    int (*bus_new)(sd_bus **) = (int (*)(sd_bus **))dlsym(library, "sd_bus_new");
    int (*set_address)(sd_bus *, const char *) = (int (*)(sd_bus *, const char *))dlsym(library, "sd_bus_set_address");
    int (*set_bus_client)(sd_bus *, int) = (int (*)(sd_bus *, int))dlsym(library, "sd_bus_set_bus_client");
    int (*bus_start)(sd_bus *) = (int (*)(sd_bus *))dlsym(library, "sd_bus_start");
    int (*add_match)(sd_bus *, sd_bus_slot **, const char *, sd_bus_message_handler_t, void *) =
        (int (*)(sd_bus *, sd_bus_slot **, const char *, sd_bus_message_handler_t, void *))dlsym(library, "sd_bus_add_match");
    notifier->call_method = dlsym(library, "sd_bus_call_method");
    notifier->message_read = dlsym(library, "sd_bus_message_read");
    notifier->message_unref = dlsym(library, "sd_bus_message_unref");
    notifier->error_free = dlsym(library, "sd_bus_error_free");
    notifier->process = dlsym(library, "sd_bus_process");
    notifier->wait = dlsym(library, "sd_bus_wait");
    notifier->flush_close_unref = dlsym(library, "sd_bus_flush_close_unref");
    notifier->slot_unref = dlsym(library, "sd_bus_slot_unref");
    if (!open_user || !bus_new || !set_address || !set_bus_client || !bus_start || !add_match || !notifier->call_method || !notifier->message_read || !notifier->message_unref || !notifier->error_free
        || !notifier->process || !notifier->wait || !notifier->flush_close_unref || !notifier->slot_unref) {
        say(error, error_size, "libsystemd.so.0 lacks the sd-bus functions it needs (too old)", 0);
        chrono_notifier_close(notifier);
        return NULL;
    }
    int r;
    if (address) {
        r = bus_new(&notifier->bus);
        if (r >= 0) r = set_address(notifier->bus, address);
        if (r >= 0) r = set_bus_client(notifier->bus, 1);
        if (r >= 0) r = bus_start(notifier->bus);
        if (r < 0 && notifier->bus) { notifier->flush_close_unref(notifier->bus); notifier->bus = NULL; }
    } else {
        r = open_user(&notifier->bus);
    }
    if (r < 0) {
        notifier->bus = NULL;
        say(error, error_size, address ? "the session bus at the address given cannot be reached" : "no session bus to reach (sd_bus_open_user)", r);
        chrono_notifier_close(notifier);
        return NULL;
    }
    r = add_match(notifier->bus, &notifier->slot,
                  "type='signal',interface='org.freedesktop.Notifications',member='ActionInvoked'", on_action_invoked, notifier);
    if (r < 0) {
        notifier->slot = NULL;
        say(error, error_size, "the session bus refused the ActionInvoked match", r);
        chrono_notifier_close(notifier);
        return NULL;
    }
    return notifier;
}

uint32_t chrono_notifier_notify(chrono_notifier *notifier, const char *app_name, const char *summary, const char *body,
                                const char *action_label, char *error, size_t error_size) {
    sd_bus_error bus_error = {NULL, NULL, 0};
    sd_bus_message *reply = NULL;
    int r = notifier->call_method(notifier->bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                  "org.freedesktop.Notifications", "Notify", &bus_error, &reply, "susssasa{sv}i",
                                  app_name, (uint32_t)0, "", summary, body, 2, "default", action_label, 0, (int32_t)-1);
    if (r < 0) {
        if (bus_error.message) say(error, error_size, bus_error.message, 0);
        else say(error, error_size, "Notify failed", r);
        notifier->error_free(&bus_error);
        return 0;
    }
    uint32_t id = 0;
    r = notifier->message_read(reply, "u", &id);
    notifier->message_unref(reply);
    notifier->error_free(&bus_error);
    if (r < 0 || id == 0) {
        say(error, error_size, "the notification service answered Notify without an id", r);
        return 0;
    }
    return id;
}

int64_t chrono_notifier_poll(chrono_notifier *notifier, int timeout_ms, char *error, size_t error_size) {
    for (;;) {
        if (notifier->invoked_count > 0) {
            int64_t id = notifier->invoked[0];
            memmove(notifier->invoked, notifier->invoked + 1, (size_t)(notifier->invoked_count - 1) * sizeof notifier->invoked[0]);
            notifier->invoked_count--;
            return id;
        }
        int r = notifier->process(notifier->bus, NULL);
        if (r < 0) { say(error, error_size, "the session bus failed", r); return -1; }
        if (r > 0) continue;  // more may be queued
        if (notifier->invoked_count > 0) continue;
        if (timeout_ms <= 0) return 0;
        r = notifier->wait(notifier->bus, (uint64_t)timeout_ms * 1000);
        if (r < 0 && r != -EINTR) { say(error, error_size, "the session bus failed", r); return -1; }
        timeout_ms = 0;  // one wait, then what it brought
    }
}

void chrono_notifier_close(chrono_notifier *notifier) {
    if (!notifier) return;
    if (notifier->slot && notifier->slot_unref) notifier->slot_unref(notifier->slot);
    if (notifier->bus && notifier->flush_close_unref) notifier->flush_close_unref(notifier->bus);
    if (notifier->library) dlclose(notifier->library);
    free(notifier);
}
