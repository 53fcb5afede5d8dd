#!/bin/busybox sh
# /init of Tests/hil/run-cli-evdev's guest: the chronoception binary itself on an evdev board whose
# device is a scripted uinput keyboard. Slow steps under TCG (a start-up takes seconds) are waited out
# generously; the host script checks the console for the lines that matter.
/bin/busybox --install -s /bin
export PATH=/bin HOME=/tmp CHRONOCEPTION_BOARDS_DIR=/boards
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev; mount -t tmpfs tmpfs /tmp
for module in evdev uinput; do insmod "/modules/$module.ko"; done
cli=/chronoception

echo "=== board check, device not plugged in"
$cli board check uinput-pedal --no-sound --press-timeout 2 2>&1
echo "=== board show and board check, one press of 250 ms"
/uinput-keyboard chrono-pedal c s20000 p s250 r s3000 u &
sleep 2
$cli board show uinput-pedal 2>&1
$cli board check uinput-pedal --no-sound --press-timeout 30 2>&1
wait
echo "=== challenge, unplugged once the attempt has started"
/uinput-keyboard chrono-pedal c s20000 p s100 r s3000 u &
sleep 1
$cli challenge --board uinput-pedal --data-dir /tmp/one --no-state-file --no-realtime --interval 10s --attempts 1 2>&1
echo "challenge exit status $?"
wait
echo "=== daemon started before the device; tap; unplug; replug; tap twice; unplug"
$cli run --board uinput-pedal --data-dir /tmp/daemon --no-state-file --no-realtime --interval 10s 2>&1 &
daemon=$!
/uinput-keyboard chrono-pedal s20000 c s5000 p s100 r s3000 u s5000 c s5000 p s100 r s3000 p s100 r s3000 u s3000
kill -TERM $daemon; wait $daemon
echo "=== stored sessions"
$cli sessions --data-dir /tmp/one 2>&1 | head -3
$cli sessions --data-dir /tmp/daemon 2>&1 | head -4
echo "=== done"
poweroff -f
