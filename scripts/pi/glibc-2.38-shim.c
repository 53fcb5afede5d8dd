// Links the Swift 6.2.3 runtime from Debian sid (built against glibc 2.43) into a binary that runs on
// Debian 12 / Raspberry Pi OS Bookworm (glibc 2.36). The runtime's static archives call six functions
// that glibc only gained in 2.38: C23's strto*/sscanf entry points (which also accept "0b" binary
// prefixes, a form the runtime never parses) and the BSD strlcpy/strlcat. Defining them here, inside the
// executable, satisfies the link against the old glibc; on a newer glibc the executable's own
// definitions simply win. Compiled by scripts/package-pi for the target architecture.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long __isoc23_strtol(const char *text, char **end, int base) { return strtol(text, end, base); }

long long __isoc23_strtoll(const char *text, char **end, int base) { return strtoll(text, end, base); }

unsigned long __isoc23_strtoul(const char *text, char **end, int base) { return strtoul(text, end, base); }

int __isoc23_sscanf(const char *text, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int count = vsscanf(text, format, arguments);
    va_end(arguments);
    return count;
}

size_t strlcpy(char *destination, const char *source, size_t size) {
    size_t length = strlen(source);
    if (size > 0) {
        size_t copied = length < size - 1 ? length : size - 1;
        memcpy(destination, source, copied);
        destination[copied] = '\0';
    }
    return length;
}

size_t strlcat(char *destination, const char *source, size_t size) {
    size_t existing = strnlen(destination, size);
    if (existing == size) return size + strlen(source);
    return existing + strlcpy(destination + existing, source, size - existing);
}
