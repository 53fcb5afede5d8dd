#!/usr/bin/env bash
# Downloads (once) Debian 12's arm64 kernel for the arm64 real-kernel tier into the cache folder given
# as $1 and unpacks what the tier uses:
#   kernel/root/boot/vmlinuz-ABI          the kernel qemu-system-aarch64 boots
#   kernel/root/lib/modules/ABI/…         the modules the guest loads (configfs, sound, evdev, uinput)
#   kernel/root/usr/src/linux-headers-ABI the kbuild tree gpio-sim is cross-built against (with the
#                                         amd64 linux-kbuild's host tools, so nothing runs emulated)
#   src/                                  gpio-sim.c, gpiolib.h, irq_sim.c and test_power.c from
#                                         linux-source-6.1 (the modules build-modules.sh makes)
# The packages come through a private apt state (Bookworm and its security suite, arm64 and amd64), so
# the host's apt configuration is not changed. Prints the kernel ABI (e.g. 6.1.0-56-arm64) last.
set -euo pipefail
cache=${1:?usage: fetch-kernel.sh CACHE_DIR}
mkdir -p "$cache/debs"
cache=$(cd "$cache" && pwd)
log() { printf 'pi-vm-fetch: %s\n' "$*" >&2; }

apt_dir="$cache/apt"
apt_private=(-o APT::Sandbox::User=root -o "Dir::Etc::SourceList=$apt_dir/empty.list" -o "Dir::Etc::SourceParts=$apt_dir/sources"
             -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -o Dir::State::status=/dev/null
             -o "Dir::Etc::Preferences=$apt_dir/empty.list" -o "Dir::Etc::PreferencesParts=$apt_dir/sources"
             -o APT::Architectures::=amd64 -o APT::Architectures::=arm64 -o APT::Get::List-Cleanup=0)
if [[ ! -f "$apt_dir/.updated" ]]; then
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/sources"
  : > "$apt_dir/empty.list"
  printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\nArchitectures: amd64 arm64\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n\nTypes: deb\nURIs: http://deb.debian.org/debian-security\nSuites: bookworm-security\nComponents: main\nArchitectures: amd64 arm64\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    > "$apt_dir/sources/debian.sources"
  log "reading Bookworm's package lists (amd64, arm64) into a private apt state"
  apt-get "${apt_private[@]}" update -qq
  touch "$apt_dir/.updated"
fi

# The ABI behind linux-image-arm64 when first run; kept so later runs reuse the same downloads.
if [[ -f "$cache/kernel-abi" ]]; then
  abi=$(cat "$cache/kernel-abi")
else
  abi=$(apt-cache "${apt_private[@]}" depends linux-image-arm64:arm64 | sed -n 's/.*Depends: linux-image-\([^:]*\).*$/\1/p' | head -n1)
  [[ $abi == *-arm64 ]] || { log "cannot resolve the kernel behind linux-image-arm64 (got '$abi')"; exit 1; }
  echo "$abi" > "$cache/kernel-abi"
fi
log "kernel ABI $abi"

download() { # PACKAGE[:ARCH]... into debs/ unless already there
  local spec name
  for spec in "$@"; do
    name=${spec%%:*}
    if ! compgen -G "$cache/debs/${name}_*.deb" >/dev/null; then
      log "downloading $spec"
      (cd "$cache/debs" && apt-get "${apt_private[@]}" download -qq "$spec")
    fi
  done
}
deb_of() { compgen -G "$cache/debs/${1}_*.deb" | head -n1; }
common=${abi%-arm64}-common
download "linux-image-$abi:arm64" "linux-headers-$abi:arm64" "linux-headers-$common:all" linux-kbuild-6.1:amd64 linux-source-6.1:all

if [[ ! -f "$cache/kernel/.done-$abi" ]]; then
  rm -rf "$cache/kernel"; mkdir -p "$cache/kernel/root"
  log "unpacking vmlinuz, the modules the guest loads, and the kbuild tree"
  dpkg-deb --fsys-tarfile "$(deb_of "linux-image-$abi")" | tar -x -C "$cache/kernel/root" --wildcards \
    "./boot/vmlinuz-$abi" "./boot/config-$abi" \
    "./lib/modules/$abi/modules.*" \
    "./lib/modules/$abi/kernel/fs/configfs/*" \
    "./lib/modules/$abi/kernel/sound/soundcore.ko" \
    "./lib/modules/$abi/kernel/sound/core/*" \
    "./lib/modules/$abi/kernel/sound/drivers/snd-aloop.ko" \
    "./lib/modules/$abi/kernel/drivers/input/evdev.ko" \
    "./lib/modules/$abi/kernel/drivers/input/misc/uinput.ko" 2>/dev/null || true
  [[ -f "$cache/kernel/root/boot/vmlinuz-$abi" ]] || { log "linux-image-$abi has no vmlinuz"; exit 1; }
  for pkg in "linux-headers-$abi" "linux-headers-$common" linux-kbuild-6.1; do
    dpkg-deb -x "$(deb_of "$pkg")" "$cache/kernel/root"
  done
  touch "$cache/kernel/.done-$abi"
fi

sources=(drivers/gpio/gpio-sim.c drivers/gpio/gpiolib.h kernel/irq/irq_sim.c drivers/power/supply/test_power.c)
missing=0
for source in "${sources[@]}"; do [[ -f "$cache/src/$(basename "$source")" ]] || missing=1; done
if [[ $missing -eq 1 ]]; then
  rm -rf "$cache/src"; mkdir -p "$cache/src/tmp"
  log "extracting the out-of-tree modules' sources from linux-source-6.1 (decompresses the whole tarball once)"
  dpkg-deb --fsys-tarfile "$(deb_of linux-source-6.1)" | tar -x -C "$cache/src/tmp" --wildcards './usr/src/linux-source-6.1.tar.xz'
  tar -xJf "$cache/src/tmp/usr/src/linux-source-6.1.tar.xz" -C "$cache/src/tmp" "${sources[@]/#/linux-source-6.1/}"
  for source in "${sources[@]}"; do cp "$cache/src/tmp/linux-source-6.1/$source" "$cache/src/"; done
  rm -rf "$cache/src/tmp"
fi
echo "$abi"
