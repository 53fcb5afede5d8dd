#!/usr/bin/env bash
# Cross-builds the two modules the arm64 guest needs and Debian's arm64 kernel lacks, out of tree,
# against the kbuild tree fetched by fetch-kernel.sh:
#   gpio-sim.ko    CONFIG_GPIO_SIM, as Tests/hil/build-gpio-sim.sh does for amd64: gpio-sim.c plus
#                  irq_sim.c (not exported by the kernel) in one module, irq_sim's irq_to_desc() call
#                  replaced by the exported generic_handle_irq();
#   test_power.ko  CONFIG_TEST_POWER: a simulated battery (test_battery, test_ac, test_usb in
#                  /sys/class/power_supply) whose capacity and status are its module parameters, so the
#                  checks can drain it while the daemon runs.
# The compiler is Debian's gcc-aarch64-linux-gnu (gcc 12, as the kernel was built with); kbuild's host
# tools come from the amd64 linux-kbuild-6.1. Usage: build-modules.sh CACHE_DIR ABI OUT_DIR
set -euo pipefail
cache=$1 abi=$2 out=$3
headers="$cache/kernel/root/usr/src/linux-headers-$abi"
# Debian's arch headers include the common half by its absolute /usr/src path: point it at the cache.
sed -i "s|^include .*/linux-headers-\(.*\)-common/Makefile|include $cache/kernel/root/usr/src/linux-headers-\1-common/Makefile|" "$headers/Makefile"

kbuild() { # MODULE BUILD_DIR: make the module in BUILD_DIR (its sources and Kbuild there) and copy it out
  make -s -C "$headers" M="$2" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- modules >"$2/make.log" 2>&1 || {
    cat "$2/make.log" >&2; exit 1; }
  cp "$2/$1.ko" "$out/$1.ko"
}

if [[ ! -f "$out/gpio-sim.ko" ]]; then
  build="$out/gpio-sim-build"
  rm -rf "$build"; mkdir -p "$build"
  cp "$cache/src/gpio-sim.c" "$build/gpio-sim-main.c"
  cp "$cache/src/gpiolib.h" "$cache/src/irq_sim.c" "$build/"
  sed -i 's/handle_simple_irq(irq_to_desc(irqnum))/generic_handle_irq(irqnum)/' "$build/irq_sim.c"
  grep -q 'generic_handle_irq(irqnum)' "$build/irq_sim.c" || { echo "pi-vm: irq_sim.c changed upstream; patch no longer applies" >&2; exit 1; }
  printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n' > "$build/Kbuild"
  kbuild gpio-sim "$build"
fi

if [[ ! -f "$out/test_power.ko" ]]; then
  build="$out/test-power-build"
  rm -rf "$build"; mkdir -p "$build"
  cp "$cache/src/test_power.c" "$build/"
  printf 'obj-m := test_power.o\n' > "$build/Kbuild"
  kbuild test_power "$build"
fi
