#!/bin/busybox sh
# /init of the HIL guest: mounts the kernel's filesystems, loads configfs, gpio-sim, snd-aloop, evdev and uinput,
# creates a simulated gpiochip and runs the probe binaries built against libgpiod v1 and v2.
# Everything it prints goes to the serial console, which Tests/hil/run reads.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
echo "hil-guest: booted $(uname -r)"

for module in configfs gpio-sim soundcore snd snd-timer snd-pcm snd-aloop evdev uinput; do
  insmod "/modules/$module.ko" 2>/tmp/insmod.err || echo "not ok - [guest] insmod $module: $(cat /tmp/insmod.err)"
done
mount -t configfs configfs /sys/kernel/config

# gpio-sim chip "chrono-sim": line 0 "button", 1 "motor", 2 and 3 unnamed (see GpioChecks.swift).
chip=/sys/kernel/config/gpio-sim/chip0
mkdir "$chip" "$chip/bank0"
echo 8 > "$chip/bank0/num_lines"
echo chrono-sim > "$chip/bank0/label"
mkdir "$chip/bank0/line0" "$chip/bank0/line1"
echo button > "$chip/bank0/line0/name"
echo motor > "$chip/bank0/line1/name"
echo 1 > "$chip/live"
sim="/sys/devices/platform/$(cat "$chip/dev_name")/$(cat "$chip/bank0/chip_name")"
if [ -d "$sim/sim_gpio0" ]; then echo "hil-guest: gpio-sim chip $(cat "$chip/bank0/chip_name") live at $sim"
else echo "not ok - [guest] gpio-sim chip did not come up (no $sim/sim_gpio0)"; fi

for api in 1 2; do
  start=$(cut -d' ' -f1 /proc/uptime)
  "/probe-v$api" gpio chrono-sim "$sim" "libgpiod-v$api" "$api"
  echo "hil-guest: libgpiod v$api gpio checks took $(awk "BEGIN { print $(cut -d' ' -f1 /proc/uptime) - $start }") s"
done
if [ -e /proc/asound/Loopback ]; then
  /probe-v1 sound hw:Loopback,0,0 hw:Loopback,1,0 alsa
else
  echo "not ok - [alsa] snd-aloop card missing"
fi
# The evdev button against a uinput keyboard (drops root at its end, in its own process).
if [ -e /dev/uinput ]; then
  start=$(cut -d' ' -f1 /proc/uptime)
  /probe-v1 evdev evdev
  echo "hil-guest: evdev checks took $(awk "BEGIN { print $(cut -d' ' -f1 /proc/uptime) - $start }") s"
else
  echo "not ok - [evdev] /dev/uinput missing"
fi
# Last: these drop root for good.
/probe-v1 permission chrono-sim libgpiod-v1
/probe-v2 permission chrono-sim libgpiod-v2
echo "hil-guest: done"
poweroff -f
