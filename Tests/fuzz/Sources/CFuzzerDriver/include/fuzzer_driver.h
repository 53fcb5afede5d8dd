#ifndef CHRONO_FUZZER_DRIVER_H
#define CHRONO_FUZZER_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, linked by -sanitize=fuzzer): parses the fuzzer's flags and runs
/// `callback` on every input. The fuzz targets call it from their own main, because SwiftPM gives every
/// executable an entry point of its own and libFuzzer's main would never run.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
