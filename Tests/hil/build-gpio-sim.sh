#!/usr/bin/env bash
# Builds Debian's missing CONFIG_GPIO_SIM as an out-of-tree module for the kernel fetched by
# fetch-packages.sh: gpio-sim.c plus irq_sim.c (which the module needs and the kernel does not
# export) linked into one gpio-sim.ko. Usage: build-gpio-sim.sh CACHE_DIR ABI OUT_DIR
set -euo pipefail
cache=$1 abi=$2 out=$3
module="$out/gpio-sim.ko"
[[ -f "$module" ]] && exit 0
build="$out/gpio-sim-build"
rm -rf "$build"; mkdir -p "$build"
cp "$cache/src/gpio-sim.c" "$build/gpio-sim-main.c"
cp "$cache/src/gpiolib.h" "$cache/src/irq_sim.c" "$build/"
# irq_to_desc() is not exported to modules; generic_handle_irq() does the same lookup and is.
sed -i 's/handle_simple_irq(irq_to_desc(irqnum))/generic_handle_irq(irqnum)/' "$build/irq_sim.c"
grep -q 'generic_handle_irq(irqnum)' "$build/irq_sim.c" || { echo "hil: irq_sim.c changed upstream; patch no longer applies" >&2; exit 1; }
cat > "$build/Kbuild" <<'KBUILD'
obj-m := gpio-sim.o
gpio-sim-y := gpio-sim-main.o irq_sim.o
KBUILD
headers="$cache/kernel/root/usr/src/linux-headers-$abi"
# Debian's arch headers include the common half by its absolute /usr/src path: point it at the cache.
sed -i "s|^include .*/linux-headers-\(.*\)-common/Makefile|include $cache/kernel/root/usr/src/linux-headers-\1-common/Makefile|" "$headers/Makefile"
make -s -C "$headers" M="$build" modules >"$build/make.log" 2>&1 || {
  cat "$build/make.log" >&2; exit 1; }
cp "$build/gpio-sim.ko" "$module"
