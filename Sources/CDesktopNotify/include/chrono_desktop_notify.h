// Desktop notifications through the freedesktop notification service
// (org.freedesktop.Notifications) on the user's D-Bus session bus, with sd-bus from libsystemd.so.0
// loaded at run time (dlopen): nothing is linked at build time, so the arm64 cross build needs no
// library, and a machine without libsystemd or without a session bus only has notifications off.
//
// Not thread-safe: one thread owns a notifier (the Swift side serves it off the loop thread).
#ifndef CHRONO_DESKTOP_NOTIFY_H
#define CHRONO_DESKTOP_NOTIFY_H

#include <stddef.h>
#include <stdint.h>

typedef struct chrono_notifier chrono_notifier;

/// Loads libsystemd.so.0, opens the user's session bus (`address` NULL: sd_bus_open_user's, from
/// DBUS_SESSION_BUS_ADDRESS or $XDG_RUNTIME_DIR/bus; else that bus address) and listens for
/// ActionInvoked. NULL when either is missing, with the reason in `error`.
chrono_notifier *chrono_notifier_open(const char *address, char *error, size_t error_size);

/// Notify(app_name, 0, "", summary, body, ["default", action_label], {}, -1): the notification's id
/// (above 0), or 0 with the service's reason in `error`.
uint32_t chrono_notifier_notify(chrono_notifier *notifier, const char *app_name, const char *summary, const char *body,
                                const char *action_label, char *error, size_t error_size);

/// Handles what the bus has and waits up to `timeout_ms` for more: the id of a notification whose
/// default action was invoked (a click), 0 when none was, -1 when the bus failed (`error` says why).
int64_t chrono_notifier_poll(chrono_notifier *notifier, int timeout_ms, char *error, size_t error_size);

void chrono_notifier_close(chrono_notifier *notifier);

#endif
