// Umbrella for the system's libevdev headers; the include path (…/libevdev-1.0) comes from pkg-config.
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
