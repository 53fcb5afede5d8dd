#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <unistd.h>

#include "chrono_linux_system.h"

int chrono_ppoll_without_timeout(struct pollfd *fds, nfds_t count) {
    return ppoll(fds, count, NULL, NULL);
}

int chrono_pipe2(int ends[2], int flags) {
    return pipe2(ends, flags);
}
