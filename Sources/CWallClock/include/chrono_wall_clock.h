#ifndef CHRONO_WALL_CLOCK_H
#define CHRONO_WALL_CLOCK_H

/// Asks the kernel, through adjtimex(2) in read-only mode, whether the wall clock is synchronised.
/// Returns 1 when synchronised, 0 when not (STA_UNSYNC set or TIME_ERROR), -1 with errno set when the
/// call failed. sys/timex.h is not part of Swift's Glibc module, hence this one-function shim.
int chrono_wall_clock_synchronised(void);

#endif
