#!/usr/bin/env bash
# Downloads (once) the Debian packages the hardware-in-the-loop tier needs and unpacks the few files
# it uses into the cache folder given as $1:
#   kernel/      vmlinuz, the modules the guest loads (configfs, sound, evdev, uinput), the matching kbuild headers
#   src/         gpio-sim.c, gpiolib.h, irq_sim.c from linux-source-6.1
#   busybox      the static busybox for the guest
#   gpiod-v2/    libgpiod 2.x (API v2) from bookworm-backports, unpacked into a private prefix
# Everything comes through apt from the archive this machine is already configured for; the
# backports suite is added in a private apt state folder so the system's apt setup is not changed.
# Prints the kernel ABI name (for example 6.1.0-56-amd64) on its last line.
set -euo pipefail

cache=${1:?usage: fetch-packages.sh CACHE_DIR}
mkdir -p "$cache/debs"
cache=$(cd "$cache" && pwd)   # apt resolves relative Dir:: options against /etc/apt
# Downloads land in a folder that apt's unprivileged _apt user may not enter; say so up front
# instead of letting every download warn about it.
apt_quiet=(-o APT::Sandbox::User=root)
log() { printf 'hil-fetch: %s\n' "$*" >&2; }

# apt needs package lists; a fresh machine may have none yet.
if ! apt-cache show linux-image-amd64 >/dev/null 2>&1; then
  log "apt has no package lists yet: running apt-get update"
  "$(dirname "${BASH_SOURCE[0]}")/../../scripts/apt-install" --lists   # one apt at a time with the other scripts
fi

# The kernel ABI that Debian's meta package points at right now, e.g. 6.1.0-56-amd64. A cached
# choice is kept so that later runs reuse the same downloads even after the archive moves on.
if [[ -f "$cache/kernel-abi" ]]; then
  abi=$(cat "$cache/kernel-abi")
else
  abi=$(apt-cache depends linux-image-amd64 | sed -n 's/.*Depends: linux-image-\(.*\)$/\1/p' | head -n1)
  [[ -n "$abi" ]] || { log "cannot resolve the kernel behind linux-image-amd64"; exit 1; }
  echo "$abi" > "$cache/kernel-abi"
fi
log "kernel ABI $abi"

download() { # download PACKAGE... into debs/ unless already there
  local pkg
  for pkg in "$@"; do
    if ! compgen -G "$cache/debs/${pkg}_*.deb" >/dev/null; then
      log "downloading $pkg"
      (cd "$cache/debs" && apt-get "${apt_quiet[@]}" download -qq "$pkg")
    fi
  done
}
deb_of() { compgen -G "$cache/debs/${1}_*.deb" | head -n1; }

# linux-headers-<abi> is the small arch part; it points at -common and at linux-kbuild-6.1.
headers_common=${abi%-amd64}-common
download "linux-image-$abi" "linux-headers-$abi" "linux-headers-$headers_common" \
         linux-kbuild-6.1 linux-source-6.1 busybox-static

# --- kernel, modules and kbuild tree ------------------------------------------------------------
if [[ ! -f "$cache/kernel/.done-$abi" ]]; then
  rm -rf "$cache/kernel"; mkdir -p "$cache/kernel/root"
  log "unpacking vmlinuz and modules"
  dpkg-deb --fsys-tarfile "$(deb_of "linux-image-$abi")" | tar -x -C "$cache/kernel/root" --wildcards \
    "./boot/vmlinuz-$abi" \
    "./lib/modules/$abi/kernel/fs/configfs/configfs.ko" \
    "./lib/modules/$abi/kernel/sound/soundcore.ko" \
    "./lib/modules/$abi/kernel/sound/core/*.ko" \
    "./lib/modules/$abi/kernel/sound/drivers/snd-aloop.ko" \
    "./lib/modules/$abi/kernel/sound/drivers/snd-dummy.ko" \
    "./lib/modules/$abi/kernel/drivers/input/evdev.ko" \
    "./lib/modules/$abi/kernel/drivers/input/misc/uinput.ko"
  for pkg in "linux-headers-$abi" "linux-headers-$headers_common" linux-kbuild-6.1; do
    dpkg-deb -x "$(deb_of "$pkg")" "$cache/kernel/root"
  done
  touch "$cache/kernel/.done-$abi"
fi

# evdev and uinput (the evdev button's checks) were added later: a cache made before then gets them
# here, from the image package already downloaded.
if [[ ! -f "$cache/kernel/root/lib/modules/$abi/kernel/drivers/input/misc/uinput.ko" ]]; then
  log "unpacking evdev.ko and uinput.ko"
  dpkg-deb --fsys-tarfile "$(deb_of "linux-image-$abi")" | tar -x -C "$cache/kernel/root" \
    "./lib/modules/$abi/kernel/drivers/input/evdev.ko" "./lib/modules/$abi/kernel/drivers/input/misc/uinput.ko"
fi

# --- the three source files gpio-sim needs --------------------------------------------------------
if [[ ! -f "$cache/src/irq_sim.c" ]]; then
  rm -rf "$cache/src"; mkdir -p "$cache/src/tmp"
  log "extracting gpio-sim sources from linux-source-6.1 (decompresses the whole tarball once)"
  dpkg-deb --fsys-tarfile "$(deb_of linux-source-6.1)" | tar -x -C "$cache/src/tmp" --wildcards './usr/src/linux-source-6.1.tar.xz'
  tar -xJf "$cache/src/tmp/usr/src/linux-source-6.1.tar.xz" -C "$cache/src/tmp" \
    linux-source-6.1/drivers/gpio/gpio-sim.c linux-source-6.1/drivers/gpio/gpiolib.h linux-source-6.1/kernel/irq/irq_sim.c
  cp "$cache/src/tmp/linux-source-6.1/drivers/gpio/gpio-sim.c" "$cache/src/tmp/linux-source-6.1/drivers/gpio/gpiolib.h" \
     "$cache/src/tmp/linux-source-6.1/kernel/irq/irq_sim.c" "$cache/src/"
  rm -rf "$cache/src/tmp"
fi

# --- busybox --------------------------------------------------------------------------------------
if [[ ! -x "$cache/busybox" ]]; then
  tmp=$(mktemp -d); dpkg-deb -x "$(deb_of busybox-static)" "$tmp"; cp "$tmp/bin/busybox" "$cache/busybox"; rm -rf "$tmp"
fi

# --- libgpiod 2.x (API v2) from bookworm-backports into a private prefix ---------------------------
bash "$(dirname "${BASH_SOURCE[0]}")/../../scripts/libgpiod-v2-prefix" "$cache" >/dev/null

echo "$abi"
