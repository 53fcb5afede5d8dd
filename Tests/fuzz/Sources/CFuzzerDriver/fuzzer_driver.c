// Only the header matters: it declares libFuzzer's driver for Swift.
#include "fuzzer_driver.h"
