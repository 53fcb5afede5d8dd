#!/usr/bin/env bash
# Cross-builds Debian's missing CONFIG_GPIO_SIM for the arm64 kernel fetched by fetch-kernel.sh, as
# Tests/hil/build-gpio-sim.sh does for amd64: gpio-sim.c plus irq_sim.c (not exported by the kernel) in
# one module, irq_sim's irq_to_desc() call replaced by the exported generic_handle_irq(). The compiler
# is Debian's gcc-aarch64-linux-gnu (gcc 12, as the kernel was built with); kbuild's host tools come
# from the amd64 linux-kbuild-6.1. Usage: build-gpio-sim.sh CACHE_DIR ABI OUT_DIR
set -euo pipefail
cache=$1 abi=$2 out=$3
module="$out/gpio-sim.ko"
[[ -f "$module" ]] && exit 0
build="$out/gpio-sim-build"
rm -rf "$build"; mkdir -p "$build"
cp "$cache/src/gpio-sim.c" "$build/gpio-sim-main.c"
cp "$cache/src/gpiolib.h" "$cache/src/irq_sim.c" "$build/"
sed -i 's/handle_simple_irq(irq_to_desc(irqnum))/generic_handle_irq(irqnum)/' "$build/irq_sim.c"
grep -q 'generic_handle_irq(irqnum)' "$build/irq_sim.c" || { echo "pi-vm: irq_sim.c changed upstream; patch no longer applies" >&2; exit 1; }
printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n' > "$build/Kbuild"
headers="$cache/kernel/root/usr/src/linux-headers-$abi"
# Debian's arch headers include the common half by its absolute /usr/src path: point it at the cache.
sed -i "s|^include .*/linux-headers-\(.*\)-common/Makefile|include $cache/kernel/root/usr/src/linux-headers-\1-common/Makefile|" "$headers/Makefile"
make -s -C "$headers" M="$build" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- modules >"$build/make.log" 2>&1 || {
  cat "$build/make.log" >&2; exit 1; }
cp "$build/gpio-sim.ko" "$module"
