#!/usr/bin/env python3
"""Snapshots what `replay` and `simulate` print, for a refactor that must not change them.

Writes, into DIR, `replay`'s output (JSON and text, with standard error and exit status) for each of the
cross-check's 500 cases (seed 1, the same edge files and options as replay_crosscheck.py) and
`simulate --sessions 200` for seeds 1, 2 and 7. Run it with the binary before and after a change and
compare: `diff -rq BEFORE AFTER` must print nothing (issue 23 did exactly this).

Usage: output_snapshot.py PATH_TO_CHRONOCEPTION DIR
"""
import sys, os, subprocess, random, tempfile, importlib.util
from datetime import datetime, timedelta, timezone
spec = importlib.util.spec_from_file_location("cc", os.path.join(os.path.dirname(os.path.abspath(__file__)), "replay_crosscheck.py"))
cc = importlib.util.module_from_spec(spec); spec.loader.exec_module(cc)
binary, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
rng = random.Random(1)
for number in range(1, 501):
    case = cc.generate(rng)
    text = cc.edge_file(case)
    end = next((at for k, at in case["others"] if k == "end"), None)
    if end is not None:
        case["edges"] = [e for e in case["edges"] if e[1] < end]
        case["others"] = [x for x in case["others"] if x[1] < end or x[0] == "end"]
    o = case["options"]
    offset = rng.choice([0, 3600, -18000, 19800])
    wall = 1_795_417_200 + rng.randint(0, 10**7)
    wall_text = datetime.fromtimestamp(wall, timezone(timedelta(seconds=offset))).isoformat()
    path = os.path.join(out, "case%03d.edges" % number)
    open(path, "w").write(text)
    command = [binary, "replay", path, "--mode", o["mode"], "--interval", str(o["interval"]),
               "--attempts" if o["mode"] != "passive" else "--repetitions", str(o["count"]),
               "--fear-threshold", str(o["threshold"]), "--wall-clock-start", wall_text,
               "--feedback-ms", str(o["feedback_ms"]), "--debounce-ms", str(o["debounce_ms"]),
               "--long-press-ms", str(o["long_press_ms"]), "--abort-window-ms", str(o["abort_ms"])]
    if not o["sound"]: command.append("--no-sound-audible")
    if o["auto_start"]: command.append("--auto-start")
    for variant, extra in (("compact", ["--compact"]), ("text", [])):
        r = subprocess.run(command + extra, capture_output=True)
        open(os.path.join(out, "case%03d.%s" % (number, variant)), "wb").write(r.stdout + b"\n--stderr--\n" + r.stderr + b"\n--exit %d\n" % r.returncode)
for seed in (1, 2, 7):
    r = subprocess.run([binary, "simulate", "--sessions", "200", "--seed", str(seed)], capture_output=True)
    open(os.path.join(out, "simulate%d" % seed), "wb").write(r.stdout + b"\n--stderr--\n" + r.stderr + b"\n--exit %d\n" % r.returncode)
