#include "chrono_wall_clock.h"
#include <string.h>
#include <sys/timex.h>

int chrono_wall_clock_synchronised(void) {
    struct timex state;
    memset(&state, 0, sizeof state); /* modes = 0: read only, changes nothing */
    int result = adjtimex(&state);
    if (result < 0) return -1;
    return (result != TIME_ERROR && (state.status & STA_UNSYNC) == 0) ? 1 : 0;
}
