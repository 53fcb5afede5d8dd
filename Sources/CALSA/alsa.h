// Umbrella for alsa-lib's header; the include path comes from pkg-config.
#include <alsa/asoundlib.h>
