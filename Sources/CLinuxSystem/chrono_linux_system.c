#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "chrono_linux_system.h"

int chrono_ppoll_without_timeout(struct pollfd *fds, nfds_t count) {
    return ppoll(fds, count, NULL, NULL);
}

int chrono_pipe2(int ends[2], int flags) {
    return pipe2(ends, flags);
}

struct unmap_result {
    long bytes;
    int failed;
};

// Whether the executable asks the loader to write into its read-only segments (DT_TEXTREL): their
// pages are then private copies, and dropping them would lose the relocations.
static int has_text_relocations(const struct dl_phdr_info *info) {
    for (int i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type != PT_DYNAMIC) continue;
        for (const ElfW(Dyn) *entry = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
             entry->d_tag != DT_NULL; entry++) {
            if (entry->d_tag == DT_TEXTREL) return 1;
            if (entry->d_tag == DT_FLAGS && (entry->d_un.d_val & DF_TEXTREL)) return 1;
        }
    }
    return 0;
}

static int unmap_main_program(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct unmap_result *result = data;
    // The first object is the executable itself; libraries are shared with other processes and small.
    if (has_text_relocations(info)) return 1;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_LOAD || (segment->p_flags & PF_W)) continue;
        // Whole pages inside the segment only: a page shared with a writable neighbour is left alone.
        uintptr_t start = (info->dlpi_addr + segment->p_vaddr + page - 1) & ~(page - 1);
        uintptr_t end = (info->dlpi_addr + segment->p_vaddr + segment->p_memsz) & ~(page - 1);
        if (end <= start) continue;
        if (madvise((void *)start, end - start, MADV_DONTNEED) != 0) {
            // EINVAL: the range is locked already (a second loop in the same process); nothing to do.
            if (errno != EINVAL) result->failed = 1;
            continue;
        }
        result->bytes += (long)(end - start);
    }
    return 1;  // only the first object
}

long chrono_unmap_executable_readonly_pages(void) {
    struct unmap_result result = { 0, 0 };
    dl_iterate_phdr(unmap_main_program, &result);
    return result.failed ? -1 : result.bytes;
}

int chrono_uevent_socket(void) {
    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT);
    if (fd < 0) return -1;
    struct sockaddr_nl address = { .nl_family = AF_NETLINK, .nl_pid = 0, .nl_groups = 1 };
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}
