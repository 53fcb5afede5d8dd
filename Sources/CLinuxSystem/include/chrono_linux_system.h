// Linux system calls that Swift's Glibc module does not export: epoll, timerfd and eventfd (their
// headers are not in the module), and ppoll and pipe2 (declared only under _GNU_SOURCE, which the
// module is built without). The runtime's loop and the terminal button wait on these. Also the one
// memory call the lock needs before it is taken (dl_iterate_phdr and madvise).
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

/// A netlink socket (NETLINK_KOBJECT_UEVENT) joined to the kernel's uevent group, non-blocking and
/// close-on-exec: the battery thread wakes on power_supply change events instead of waiting a whole
/// poll interval. Returns the descriptor, or -1 with errno set.
int chrono_uevent_socket(void);

/// Unmaps from this process's page tables (madvise MADV_DONTNEED) the pages of its own executable's
/// read-only segments (code and read-only data), which stay in the page cache: the next touch is a
/// minor fault that maps the same page again. Called just before locking memory with MCL_ONFAULT, so
/// what stays locked is what the program touches from then on, not the code it ran only to start.
/// Returns the bytes unmapped; 0 when there is nothing safe to drop (an executable with text
/// relocations, whose code pages were written, or memory already locked); -1 on an error.
long chrono_unmap_executable_readonly_pages(void);

#endif
