#!/bin/sh
# /init of the arm64 guest (Tests/pi-vm/run): the guest's root is a Debian 12 arm64 root unpacked from the
# initramfs. Before systemd takes over as PID 1 this loads the modules a Pi's kernel would have built in
# or loaded (configfs, the out-of-tree gpio-sim, snd-aloop, evdev, uinput) and creates the simulated
# gpiochip "chrono-sim" (line 0 "button", line 1 "motor", as Tests/hil's guest does), so that udev's
# coldplug sees it like a Pi's pin controller at boot. Then `exec /sbin/init` (systemd).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo "pi-vm-guest: booted $(uname -r) on $(uname -m)" > /dev/console
for module in configfs gpio-sim snd-aloop evdev uinput; do
  modprobe "$module" 2>/tmp/modprobe.err || echo "not ok - [guest] modprobe $module: $(cat /tmp/modprobe.err)" > /dev/console
done
mount -t configfs configfs /sys/kernel/config
chip=/sys/kernel/config/gpio-sim/chip0
mkdir "$chip" "$chip/bank0"
echo 8 > "$chip/bank0/num_lines"
echo chrono-sim > "$chip/bank0/label"
mkdir "$chip/bank0/line0" "$chip/bank0/line1"
echo button > "$chip/bank0/line0/name"
echo motor > "$chip/bank0/line1/name"
echo 1 > "$chip/live"
sim="/sys/devices/platform/$(cat "$chip/dev_name")/$(cat "$chip/bank0/chip_name")"
mkdir -p /etc/pi-vm
echo "$sim" > /etc/pi-vm/sim-path
echo "$(cat "$chip/bank0/chip_name")" > /etc/pi-vm/chip-name
if [ -d "$sim/sim_gpio0" ]; then echo "pi-vm-guest: gpio-sim chip $(cat "$chip/bank0/chip_name") live at $sim" > /dev/console
else echo "not ok - [guest] gpio-sim chip did not come up (no $sim/sim_gpio0)" > /dev/console; fi
exec /sbin/init
