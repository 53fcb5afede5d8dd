// Linux system calls that Swift's Glibc module does not export: epoll, timerfd and eventfd (their
// headers are not in the module), and ppoll and pipe2 (declared only under _GNU_SOURCE, which the
// module is built without). The runtime's loop and the terminal button wait on these.
#ifndef CHRONO_LINUX_SYSTEM_H
#define CHRONO_LINUX_SYSTEM_H

#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>

/// ppoll(2) with no timeout and no signal mask change: waits until a descriptor is ready or a signal
/// interrupts (-1 with errno EINTR).
int chrono_ppoll_without_timeout(struct pollfd *fds, nfds_t count);

/// pipe2(2): a pipe whose ends get `flags` (O_NONBLOCK, O_CLOEXEC) atomically.
int chrono_pipe2(int ends[2], int flags);

#endif
