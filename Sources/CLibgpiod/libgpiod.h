// Umbrella for the system's libgpiod header; the include path comes from pkg-config.
#include <gpiod.h>
