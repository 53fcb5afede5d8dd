#!/bin/bash
# The arm64 guest's checks (Tests/pi-vm/run), run by pi-vm-checks.service once systemd has reached
# multi-user.target. First Tests/hil's driver probe, cross-built for arm64. Then the packaged binary as
# a Pi runs it: `dpkg -i` under a running systemd (the postinst creates the user and starts the unit),
# `board check` as the service user on the gpio-sim board (motor line driven, a press read through
# libgpiod, sound through snd-aloop, captured at the loop's other end), then chronoception.service on
# that board: its user, its socket, a press that starts a session, `systemctl stop`. One `ok - …` / `not ok - …` line per check on the console.
set -u
export PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8
sim=$(cat /etc/pi-vm/sim-path) chip=$(cat /etc/pi-vm/chip-name)
button=$sim/sim_gpio0 motor=$sim/sim_gpio1
board=/etc/chronoception/gpio-sim.yaml
socket=/run/chronoception/api.sock
out=/tmp/pi-vm; mkdir -p "$out"
mkfifo "$out/never"; exec 9<>"$out/never"
nap() { read -r -t "$1" -u 9 _ || true; }   # a sleep without a fork (the poller below runs often)
note() { echo "# $*"; }
check() { # NAME COMMAND...: ok when the command succeeds; its last output lines otherwise
  local name=$1; shift
  if "$@" > "$out/check.out" 2>&1; then echo "ok - $name"
  else echo "not ok - $name"; tail -n 15 "$out/check.out" | sed 's/^/#   /'; fi
}
uptime_s() { cut -d' ' -f1 /proc/uptime; }
press() { # one tap: the line pulled low (active low: pressed) for 250 ms
  echo pull-down > "$button/pull"; nap 0.25; echo pull-up > "$button/pull"
}
watch_motor() { # FILE: records the first moment the motor line reads 1, polled every 5 ms
  # (its output goes nowhere: a background job holding the $(…) pipe open would never let it return)
  ( while :; do read -r v < "$motor/value"; [ "$v" = 1 ] && { uptime_s > "$1"; exit 0; }; nap 0.005; done ) > /dev/null 2>&1 &
  echo $!
}
device_state() { curl -s --max-time 10 --unix-socket "$socket" http://localhost/api/v1/device | sed -n 's/.*"state" *: *"\([A-Za-z]*\)".*/\1/p'; }
state_is() { [ "$(device_state)" = "$1" ]; }
wait_for() { # SECONDS COMMAND...: true once the command succeeds
  local deadline=$(( $(date +%s) + $1 )); shift
  until "$@"; do [ "$(date +%s)" -ge "$deadline" ] && return 1; nap 0.5; done
}
# Where the boot's time went (systemd-analyze refuses while this unit keeps the boot unfinished).
units=$(systemctl list-units --type=service --state=active,exited --no-legend --plain | awk '{ print $1 }')
note "slowest units to start: $(systemctl show -p Id -p InactiveExitTimestampMonotonic -p ActiveEnterTimestampMonotonic $units |
  awk 'BEGIN { RS = ""; FS = "\n" } { id = ""; a = 0; b = 0; for (i = 1; i <= NF; i++) { split($i, kv, "=")
         if (kv[1] == "Id") id = kv[2]; else if (kv[1] == "InactiveExitTimestampMonotonic") a = kv[2]; else b = kv[2] }
       if (a > 0 && b > a) printf "%.1f %s\n", (b - a) / 1e6, id }' |
  sort -rn | head -n 6 | awk '{ printf "%s %s s; ", $2, $1 }')"
note "systemd $(systemctl --version | head -n1 | cut -d' ' -f2) is PID 1 ($(tr -d '\0' < /proc/1/cmdline)); system state $(systemctl is-system-running); $(uptime_s) s since boot"

# --- the x86 tier's driver checks, on arm64 (Tests/hil/run's probe, cross-built; libgpiod v2 linked in) ---
probe=/usr/local/lib/pi-vm/chronoception-hil-probe
started=$(uptime_s)
# A probe that dies part-way prints fewer lines; its exit status is a check of its own.
probe_run() { "$probe" "$@" || echo "not ok - [probe] $1 exited with status $?"; }
probe_run gpio chrono-sim "$sim" libgpiod-v2 2
probe_run sound hw:Loopback,0,0 hw:Loopback,1,0 alsa
probe_run evdev evdev            # a uinput keyboard; drops root at its end, in its own process
probe_run permission chrono-sim libgpiod-v2    # drops root: /dev/$chip is still root's alone here
note "the probe's checks took $(awk "BEGIN { print $(uptime_s) - $started }") s"

# --- install under a running systemd -------------------------------------------------------------------
started=$(uptime_s)
check "dpkg -i chronoception_arm64.deb under systemd" dpkg -i /root/chronoception.deb
note "dpkg -i took $(awk "BEGIN { print $(uptime_s) - $started }") s"
check "postinst: the system user chronoception, in groups chronoception and audio" sh -c 'id -nG chronoception | grep -qw chronoception && id -nG chronoception | grep -qw audio'
check "postinst: chronoception.service enabled" sh -c 'systemctl is-enabled chronoception | grep -qx enabled'
check "postinst: the unit was started (systemd has a start job on record)" sh -c 'systemctl show -p InvocationID --value chronoception | grep -q .'
note "the unit after install, on the board the device tree chose: $(systemctl is-active chronoception); $(journalctl -b -u chronoception -o cat --no-pager 2>/dev/null | tail -n 2 | tr '\n' ' ')"
check "udev rule: /dev/$chip (chrono-sim) is group chronoception, mode 0660" sh -c "stat -c '%a %G' /dev/$chip | tee /dev/stderr | grep -qx '660 chronoception'"
check "udev: /dev/snd/pcmC*D0p belong to group audio" sh -c "stat -c '%G' /dev/snd/pcmC*D0p | sort -u | tee /dev/stderr | grep -qx audio"
systemctl stop chronoception

# --- board check as the service user --------------------------------------------------------------------
cp "$board" /tmp/gpio-sim.yaml
arecord -q -D hw:Loopback,1,0 -f S16_LE -r 48000 -c 2 -t raw -d 40 "$out/capture.raw" 2>"$out/arecord.err" &
recorder=$!
nap 1
watcher=$(watch_motor "$out/motor-board-check")
started=$(uptime_s)
timeout 600 runuser -u chronoception -- chronoception board check "$board" --press-timeout 120 --sound-warning 0 > "$out/board-check.txt" 2>&1 &
checker=$!
# Tap every 3 s until board check is done (it waits for a press once the motor cue has played).
while kill -0 "$checker" 2>/dev/null; do nap 3; kill -0 "$checker" 2>/dev/null && press; done
wait "$checker"; status=$?
note "board check took $(awk "BEGIN { print $(uptime_s) - $started }") s"
kill "$watcher" "$recorder" 2>/dev/null; wait "$recorder" 2>/dev/null
sed 's/^/#   /' "$out/board-check.txt"
check "board check gpio-sim as user chronoception: exit status 0" test "$status" -eq 0
check "board check: motor line requested through libgpiod API v2" grep -Eq "^\[ok\] +motor: .*chrono-sim.*active-high" "$out/board-check.txt"
check "board check: played the start cue on the motor line" grep -Eq '^\[ok\] +motor: played the start cue' "$out/board-check.txt"
check "the kernel saw the motor line driven high (gpio-sim value)" test -s "$out/motor-board-check"
check "board check: read a press with its kernel timestamp" grep -Eq '^\[ok\] +button: press at [0-9.]+ s \(kernel timestamp, CLOCK_MONOTONIC\)' "$out/board-check.txt"
check "board check: played the aversive sound on plughw:CARD=Loopback" grep -Eq '^\[ok\] +sound: played the aversive sound' "$out/board-check.txt"
nonzero=$(tr -d '\000' < "$out/capture.raw" | wc -c)
note "captured $(stat -c %s "$out/capture.raw") bytes at hw:Loopback,1,0, $nonzero of them non-zero; arecord: $(head -c 200 "$out/arecord.err")"
check "the sound came out of the loopback card's capture side (non-silent)" test "$nonzero" -gt 48000

# --- chronoception.service on the gpio-sim board --------------------------------------------------------
sed -i "s|^CHRONOCEPTION_BOARD=.*|CHRONOCEPTION_BOARD=$board|" /etc/default/chronoception
echo pull-up > "$button/pull"
started=$(uptime_s)
systemctl start chronoception
check "chronoception.service is active on the gpio-sim board" sh -c 'systemctl is-active chronoception | grep -qx active'
check "the API socket $socket appears" wait_for 120 test -S "$socket"
check "the daemon reaches its waiting state (Idle, through the API)" wait_for 180 state_is Idle
note "start to Idle: $(awk "BEGIN { print $(uptime_s) - $started }") s; GET /device: $(curl -s --max-time 10 --unix-socket "$socket" http://localhost/api/v1/device | head -c 400)"
pid=$(systemctl show -p MainPID --value chronoception)
check "the daemon runs as user chronoception (uid $(id -u chronoception)), not root" sh -c "awk '/^Uid:/ { print \$2 }' /proc/$pid/status | grep -qx $(id -u chronoception)"
check "its groups: chronoception and audio" sh -c "awk '/^Gid:/ { print \$2 } /^Groups:/' /proc/$pid/status | grep -qw $(getent group audio | cut -d: -f3)"
check "socket mode 0660, group chronoception" sh -c "stat -c '%a %G %F' $socket | tee /dev/stderr | grep -qx '660 chronoception socket'"
check "GET /device names the board gpio-sim" sh -c "curl -s --unix-socket $socket http://localhost/api/v1/device | grep -q '\"board\" *: *\"gpio-sim\"'"
check "memory locked as LimitMEMLOCK=infinity allows (VmLck > 0)" sh -c "awk '/^VmLck:/ { exit !(\$2 > 0) }' /proc/$pid/status"
# Resident and locked from smaps_rollup (page tables walked; VmRSS lags behind with many threads).
memory() { awk '$1 == "Rss:" { r = $2 } $1 == "Locked:" { l = $2 } END { printf "resident %.1f MiB, locked %.1f MiB", r / 1024, l / 1024 }' /proc/$pid/smaps_rollup; }
note "arm64 daemon memory, idle: $(memory)"
watcher=$(watch_motor "$out/motor-session")
press
check "a press on the gpio-sim line starts a session (state WaitingForStart)" wait_for 60 state_is WaitingForStart
press
check "the start tap starts the attempt (state AttemptRunning)" wait_for 60 state_is AttemptRunning
check "the session's cues drove the motor line" wait_for 10 test -s "$out/motor-session"
note "arm64 daemon memory, during the attempt: $(memory)"
note "arm64 daemon memory locked, by mapping: $(awk -v exe=/usr/bin/chronoception -f /usr/local/lib/pi-vm/locked-by-mapping.awk /proc/$pid/smaps)"
kill "$watcher" 2>/dev/null
# The session loop's thread runs SCHED_FIFO (policy 1, field 41 of /proc/PID/task/TID/stat), as
# LimitRTPRIO=80 allows without root.
check "a thread of the daemon runs SCHED_FIFO" sh -c "for t in /proc/$pid/task/*/stat; do sed 's/.*) //' \$t | awk '{ print \$39 }'; done | grep -qx 1"
started=$(uptime_s)
systemctl stop chronoception
note "systemctl stop took $(awk "BEGIN { print $(uptime_s) - $started }") s"
check "systemctl stop: the unit stopped cleanly (Result=success, inactive)" sh -c 'test "$(systemctl show -p Result --value chronoception)" = success && systemctl is-active chronoception | grep -qx inactive'
check "the motor line is off after the stop" sh -c "test \"\$(cat $motor/value)\" = 0"
check "the runtime directory (socket, state file) is gone after the stop" test ! -e /run/chronoception
check "the daemon ended the attempt on SIGTERM (journal: Session interrupted)" sh -c "journalctl -b -u chronoception -o cat --no-pager | grep -q 'Session interrupted (stopped by SIGTERM)'"
note "journal of chronoception.service:"; journalctl -b -u chronoception -o cat --no-pager | tail -n 25 | sed 's/^/#   /'
# --- the battery: test_power's simulated battery, drained while the service runs -----------------------
# The kernel's test_power module (cross-built out of tree) is a power supply whose capacity and status
# are its module parameters; setting one sends the class's uevent, which the daemon's battery thread
# answers at once. The critical level's power-off goes through the card's own path unit; its service is
# given a stand-in ExecStart, so the guest stays up to report (the real one queues `systemctl poweroff`).
power=/sys/module/test_power/parameters
check "modprobe test_power (the simulated battery test_battery)" modprobe test_power
echo discharging > "$power/battery_status"; echo 50 > "$power/battery_capacity"
check "test_battery in the power-supply class reads 50 %, Discharging" sh -c 'test "$(cat /sys/class/power_supply/test_battery/capacity) $(cat /sys/class/power_supply/test_battery/status)" = "50 Discharging"'
battery_board=/etc/chronoception/gpio-sim-battery.yaml
sed 's/^name: gpio-sim$/name: gpio-sim-battery/' "$board" > "$battery_board"
printf '\nbattery:\n  driver: power_supply\n  name: test_battery\n' >> "$battery_board"
mkdir -p /etc/systemd/system/chronoception-power-off.service.d
printf '[Service]\nExecStart=\nExecStart=/bin/sh -c "cut -d\\" \\" -f1 /proc/uptime > %s/power-off-ran"\n' "$out" \
  > /etc/systemd/system/chronoception-power-off.service.d/pi-vm-stand-in.conf
systemctl daemon-reload
sed -i "s|^CHRONOCEPTION_BOARD=.*|CHRONOCEPTION_BOARD=$battery_board|" /etc/default/chronoception
journal_has() { journalctl -b -u chronoception -o cat --no-pager | grep -qF "$1"; }
battery() { curl -s --max-time 10 --unix-socket "$socket" http://localhost/api/v1/device | tr -d ' \n' | grep -o '"battery":{[^}]*}'; }
battery_is() { battery | grep -qF "$1"; }
api_post() { # PATH BODY: prints the HTTP status; the body goes to $out/api.json
  curl -s --max-time 20 -o "$out/api.json" -w '%{http_code}' --unix-socket "$socket" -X POST -H 'Content-Type: application/json' -d "$2" "http://localhost/api/v1$1"
}
set_capacity() { echo "$1" > "$power/battery_capacity"; note "battery set to $1 % at $(uptime_s) s"; }
battery_started=$(uptime_s)
systemctl start chronoception
check "chronoception.service starts on the board with the battery" wait_for 180 state_is Idle
note "start to Idle: $(awk "BEGIN { print $(uptime_s) - $battery_started }") s; battery: $(battery)"
check "the root-owned chronoception-power-off.path is active beside the service" sh -c 'systemctl is-active chronoception-power-off.path | grep -qx active'
check "GET /device: the battery at 50 %, discharging, level normal" wait_for 60 battery_is '"percent":50,"charge":"discharging","level":"normal"'
first_reading=$(uptime_s)   # the daemon's first reading came before this moment
watcher=$(watch_motor "$out/motor-low")
set_capacity 15
check "at 15 %: the low-battery cue, once (journal: Battery low)" wait_for 60 journal_has "Battery low: 15 %, discharging."
check "at 15 %: the low-battery cue drove the motor line" wait_for 10 test -s "$out/motor-low"
kill "$watcher" 2>/dev/null
check "GET /device: 15 %, level low" wait_for 30 battery_is '"percent":15,"charge":"discharging","level":"low"'
code=$(api_post /device/start '{"mode":"passive","interval":"1m","count":60}')
check "at 15 % a Passive session (1m × 60) still starts (202)" test "$code" = 202
check "the Passive session runs (state PassiveRunning)" wait_for 60 state_is PassiveRunning
set_capacity 10
# The daemon estimates the drain only from readings that span 5 minutes (BatteryDischarge: a shorter
# span is a gauge's rounding or a voltage sag under load, not a trend), so 5 % comes 5 minutes after
# its first reading (50 %): about 0.15 % a second, the 2 % to the critical level in ~14 s, far less
# than the session's remaining ~55 minutes. The 5 minutes count from that first reading, which comes once
# the service is up, not from before its start: counted from there, 5 % once came 296 s after the first
# reading (the service took 9.5 s to start), too short a span, and the early end waited for the next poll.
until awk "BEGIN { exit !($(uptime_s) >= $first_reading + 305) }"; do nap 5; done
set_capacity 5
check "at 5 %: the Passive session the battery cannot finish is ended early (journal)" wait_for 60 journal_has "Ended early: the battery (5 %) lasts about"
saved_early() { # the newest session, once the record worker has saved it: completed, with the reason
  # (the list names it; its reason is in the detail, GET /sessions/{id})
  local id
  id=$(curl -s --max-time 10 --unix-socket "$socket" 'http://localhost/api/v1/sessions?limit=1' | tr -d '\n' | sed -n 's/.*"session_id" *: *"\([0-9a-fA-F-]*\)".*/\1/p')
  [ -n "$id" ] || { echo "no session listed" >&2; return 1; }
  curl -s --max-time 10 --unix-socket "$socket" "http://localhost/api/v1/sessions/$id" | tr -d '\n' > "$out/last-session.json"
  grep -q '"status" *: *"completed"' "$out/last-session.json" && grep -qF 'Ended early: the battery (5 %)' "$out/last-session.json" \
    || { head -c 600 "$out/last-session.json" >&2; return 1; }
}
check "the session was saved as completed, with the reason (GET /sessions/{id})" wait_for 30 saved_early
check "GET /device: 5 %, level stop, with the reason" wait_for 30 battery_is '"level":"stop","reason":"Thebatteryisat5%:nonewsessionstartsatorbelow5%(battery-stop).Chargeitfirst."'
check "the device is back to Idle after the early end" wait_for 60 state_is Idle
code=$(api_post /device/start '{}')
check "at 5 %: POST /device/start is refused, 409 battery_low" sh -c "test '$code' = 409 && grep -q battery_low $out/api.json"
set_capacity 3
check "at 3 %: the daemon says it powers off (journal)" wait_for 60 journal_has "Powering off: the battery is at the critical level."
check "the request reached chronoception-power-off.service through the path unit (as root)" wait_for 60 test -s "$out/power-off-ran"
check "the request was taken (/run/chronoception/power-off is gone)" test ! -e /run/chronoception/power-off
note "power-off requested at $(cat "$out/power-off-ran" 2>/dev/null) s; journal of chronoception-power-off.service: $(journalctl -b -u chronoception-power-off.service -o cat --no-pager | tail -n 3 | tr '\n' ' ')"
echo charging > "$power/battery_status"
check "charging clears the states: level normal, no reason" wait_for 60 battery_is '"charge":"charging","level":"normal","reason":null'
note "journal of the battery run:"; journalctl -b -u chronoception -o cat --no-pager | grep -E 'Battery|battery|Ended early|Powering|Charging|Power-off' | tail -n 12 | sed 's/^/#   /'
systemctl stop chronoception
echo "pi-vm-guest: done"
