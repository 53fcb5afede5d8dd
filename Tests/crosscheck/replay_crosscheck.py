#!/usr/bin/env python3
"""Differential check of `chronoception replay` against an independent model of README's rules.

A second implementation, written from the documentation (README "Rules the engine applies") and
SPEC §3-§4 in plain Python, predicts each session's status, marks, summary and health-record dates.
Random edge files with bounces, extra taps, long presses, aborts, sound loss and early ends are fed to
both; any disagreement is printed and fails the run.

Usage: replay_crosscheck.py PATH_TO_CHRONOCEPTION [--cases N] [--seed S]
"""
import json
import math
import random
import subprocess
import sys
import tempfile

NS = 1_000_000_000


def recognise(edges, debounce, long_press):
    """README's debounce and tap/long-press rules: [(recognised_at, kind, pressed_at)]."""
    out = []
    stable = raw = False
    raw_at = 0
    lock = None
    pressed_at = None
    reported = False

    def accept(level, stamp, now):
        nonlocal stable, pressed_at, reported
        stable = level
        if level:
            pressed_at, reported = stamp, False
            return
        if pressed_at is not None and not reported:
            if stamp - pressed_at >= long_press:
                out.append((pressed_at + long_press, "long", pressed_at))
            else:
                out.append((now, "tap", pressed_at))
        pressed_at = None

    def advance(now):
        nonlocal lock, reported
        while True:
            due = []
            if stable and not reported and pressed_at is not None:
                due.append((pressed_at + long_press, 0))
            if lock is not None and raw != stable:
                due.append((lock, 1))
            if not due:
                return
            at, kind = min(due)
            if at > now:
                return
            if kind == 0:
                reported = True
                out.append((at, "long", pressed_at))
            else:
                follow = raw_at + debounce
                lock = follow if follow > at else None
                accept(raw, raw_at, at)

    for level, at in edges:
        advance(at)
        if level == raw:
            continue
        raw, raw_at = level, at
        if lock is not None and at < lock:
            continue
        lock = at + debounce
        accept(level, at, at)
    advance(1 << 62)
    return sorted(out, key=lambda g: g[0])


def model(case):
    """The session as README describes it."""
    o = case["options"]
    interval = o["interval"] * NS
    feedback, window = o["feedback_ms"] * 1_000_000, o["abort_ms"] * 1_000_000
    gestures = recognise(case["edges"], o["debounce_ms"] * 1_000_000, o["long_press_ms"] * 1_000_000)
    others = [(t, kind, None) for kind, t in case["others"]]
    end_at = next((t for kind, t in case["others"] if kind == "end"), None)
    stream = sorted(gestures + others, key=lambda e: e[0])
    if end_at is not None:
        stream = [e for e in stream if e[0] <= end_at and (e[1] != "end" or e[0] == end_at)]
        # Events at the end instant that come after the `end` line are not observed; gestures at that
        # instant are recognised before it only if they are deadline-driven, which a random ns never hits.
    audible = o["sound"]
    effective = audible if o["mode"] == "fear" else False
    sounds = 0
    if o["mode"] == "passive":
        n = o["count"]
        for at, kind, _ in stream:
            if kind in ("long", "end"):
                done = min(n, at // interval)
                if done == 0:
                    return dict(status="aborted", boundaries=0, end=at, sounds=0)
                if done == n:
                    break
                return dict(status="completed", boundaries=done, end=at, sounds=0)
        return dict(status="completed", boundaries=n, end=n * interval, sounds=0)

    phase, k, start, until, accept_from = "wait", 1, None, None, -1
    abort_until = None
    attempts = []

    def deadlines_until(t):
        nonlocal phase, k, start, until, accept_from, abort_until
        while True:
            due = []
            if phase == "flash":
                due.append((until, 0))
            if abort_until is not None:
                due.append((abort_until, 1))
            if not due or min(due)[0] > t:
                return
            at, which = min(due)
            if which == 0:
                k += 1
                if o["auto_start"]:
                    phase, start = "run", at
                else:
                    phase, accept_from = "wait", at
            else:
                abort_until = None

    for at, kind, pressed in stream:
        deadlines_until(at)
        if kind == "sound-lost":
            audible = False
            effective = False
        elif kind == "sound-restored":
            audible = True
        elif kind == "end":
            return dict(status="incomplete", attempts=attempts, sounds=sounds, effective=effective)
        elif kind == "long":
            if abort_until is not None and at < abort_until:
                return dict(status="aborted", attempts=attempts, sounds=sounds, effective=effective)
            abort_until = at + window
        elif kind == "tap":
            if abort_until is not None:
                abort_until = None
                continue
            if phase == "wait" and pressed >= accept_from:
                phase, start = "run", pressed
            elif phase == "run" and pressed >= start:
                attempts.append((start, pressed))
                ape = abs(pressed - start - interval) / interval
                if o["mode"] == "fear" and audible and ape >= o["threshold"]:
                    sounds += 1
                if len(attempts) == o["count"]:
                    return dict(status="completed", attempts=attempts, end=pressed, sounds=sounds, effective=effective)
                phase, until = "flash", at + feedback
    return dict(status="incomplete", attempts=attempts, sounds=sounds, effective=effective)


def iso(ns, offset):
    from datetime import datetime, timedelta, timezone
    tz = timezone(timedelta(seconds=offset))
    ms = ns // 1_000_000
    dt = datetime.fromtimestamp(ms // 1000, tz)
    sign = "-" if offset < 0 else "+"
    return dt.strftime("%Y-%m-%dT%H:%M:%S") + ".%03d" % (ms % 1000) + "%s%02d:%02d" % (sign, abs(offset) // 3600, abs(offset) // 60 % 60)


def expected_summary(case, m):
    o = case["options"]
    s = {"chronoception_version": 1, "chronoception_mode": o["mode"], "target_interval_seconds": o["interval"]}
    if o["mode"] == "passive":
        s["repetition_count"] = m["boundaries"]
        s["total_duration_seconds"] = math.floor(m["end"] / NS + 0.5)
        return s
    errors = [(tap - start) / NS - o["interval"] for start, tap in m["attempts"]]
    n = len(errors)
    s["attempt_count"] = n
    if n:
        mean = sum(errors) / n
        mape = sum(abs(e) / o["interval"] for e in errors) / n
        s.update(mean_abs_error_seconds=sum(abs(e) for e in errors) / n, mean_signed_error_seconds=mean,
                 std_dev_error_seconds=math.sqrt(sum((e - mean) ** 2 for e in errors) / (n - 1)) if n > 1 else 0.0,
                 mean_abs_percent_error=mape,
                 time_acuity_score=math.floor(100 * min(max(1 - mape / 0.5, 0), 1) + 0.5))
    if o["mode"] == "fear":
        s["fear_threshold_percent"] = o["threshold"]
        s["fear_sound_effective"] = m["effective"]
    return s


def generate(rng):
    mode = rng.choice(["challenge", "challenge", "fear", "passive"])
    o = dict(mode=mode, interval=rng.randint(10, 90), count=rng.randint(1, 4), threshold=rng.choice([0.05, 0.1, 0.2]),
             sound=rng.random() < 0.8, auto_start=rng.random() < 0.3, feedback_ms=rng.choice([500, 1500, 2500]),
             debounce_ms=rng.choice([10, 30, 50]), long_press_ms=rng.choice([800, 1500]), abort_ms=rng.choice([3000, 5000]))
    edges, others, t = [], [], rng.randint(0, 3 * NS)
    level = False

    def edge(value, at):
        nonlocal level
        edges.append((value, at))
        level = value

    def press(at, hold):
        edge(True, at)
        for _ in range(rng.choice([0, 0, 1, 2])):  # contact bounce inside the debounce window
            at += rng.randint(100_000, o["debounce_ms"] * 1_000_000 // 4)
            edge(False, at)
            at += rng.randint(100_000, o["debounce_ms"] * 1_000_000 // 4)
            edge(True, at)
        edge(False, max(at + 1, edges[-1][1] + 1) if hold is None else at + hold)

    for _ in range(rng.randint(1, 14)):
        action = rng.random()
        if action < 0.55:
            press(t, rng.randint(20, 400) * 1_000_000 + rng.randint(0, 999_999))
            t = edges[-1][1] + rng.randint(50, int(o["interval"] * 1.4 * 1000)) * 1_000_000 + rng.randint(0, 999_999)
        elif action < 0.75:
            press(t, o["long_press_ms"] * 1_000_000 + rng.randint(1, 1500) * 1_000_000)
            t = edges[-1][1] + rng.randint(100, 6000) * 1_000_000 + rng.randint(0, 999_999)
        elif action < 0.9:
            press(t, rng.randint(20, 200) * 1_000_000)  # an extra quick tap
            t = edges[-1][1] + rng.randint(100, 2000) * 1_000_000 + rng.randint(0, 999_999)
        elif action < 0.97:
            others.append(("sound-lost", t + 1))
        else:
            others.append(("sound-restored", t + 1))
    if mode == "passive" or rng.random() < 0.15:
        if rng.random() < 0.6:
            others.append(("end", rng.randint(1, max(2, o["interval"] * o["count"] * NS + 5 * NS))))
    return dict(options=o, edges=edges, others=others)


def edge_file(case):
    lines = [(at, "press" if v else "release") for v, at in case["edges"]] + [(at, k) for k, at in case["others"]]
    end = next((at for k, at in case["others"] if k == "end"), None)
    lines.sort(key=lambda x: (x[0], x[1] == "end"))
    if end is not None:
        lines = [l for l in lines if l[0] < end or l[1] == "end"]
    return "\n".join("%s %d" % (k, at) for at, k in lines) + "\n"


def cases(seed, count):
    """The cross-check's cases in order: (number, case, edge-file text, wall-clock start in Unix
    seconds, its UTC offset in seconds). The same seed gives the same cases (output_snapshot.py replays
    them too)."""
    rng = random.Random(seed)
    for number in range(1, count + 1):
        case = generate(rng)
        text = edge_file(case)
        end = next((at for k, at in case["others"] if k == "end"), None)
        if end is not None:
            case["edges"] = [e for e in case["edges"] if e[1] < end]
            case["others"] = [x for x in case["others"] if x[1] < end or x[0] == "end"]
        offset = rng.choice([0, 3600, -18000, 19800])
        wall = 1_795_417_200 + rng.randint(0, 10**7)
        yield number, case, text, wall, offset


def wall_clock_text(wall, offset):
    """`--wall-clock-start`'s text for a case's start: ISO 8601 with its offset."""
    from datetime import datetime, timedelta, timezone
    return datetime.fromtimestamp(wall, timezone(timedelta(seconds=offset))).isoformat()


def replay_command(binary, path, options, wall, offset):
    """`chronoception replay` for a case's edge file at `path`, with the case's options (without --compact)."""
    o = options
    command = [binary, "replay", path, "--mode", o["mode"], "--interval", str(o["interval"]),
               "--attempts" if o["mode"] != "passive" else "--repetitions", str(o["count"]),
               "--fear-threshold", str(o["threshold"]), "--wall-clock-start", wall_clock_text(wall, offset),
               "--feedback-ms", str(o["feedback_ms"]), "--debounce-ms", str(o["debounce_ms"]),
               "--long-press-ms", str(o["long_press_ms"]), "--abort-window-ms", str(o["abort_ms"])]
    if not o["sound"]:
        command.append("--no-sound-audible")
    if o["auto_start"]:
        command.append("--auto-start")
    return command


def main():
    binary = sys.argv[1]
    count = int(sys.argv[sys.argv.index("--cases") + 1]) if "--cases" in sys.argv else 300
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
    failures = 0
    for number, case, text, wall, offset in cases(seed, count):
        o = case["options"]
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
            handle.write(text)
            path = handle.name
        command = replay_command(binary, path, o, wall, offset) + ["--compact"]
        result = subprocess.run(command, capture_output=True, text=True)
        problems = []
        if result.returncode != 0:
            problems.append("exit %d: %s" % (result.returncode, result.stderr.strip()))
        else:
            got = json.loads(result.stdout)
            m = model(case)
            if got["status"] != m["status"]:
                problems.append("status %s, model %s" % (got["status"], m["status"]))
            elif o["mode"] != "passive":
                marks = [(a["start_mark_ns"], a["tap_mark_ns"]) for a in got["attempts"]]
                if marks != [tuple(x) for x in m["attempts"]]:
                    problems.append("marks %s, model %s" % (marks, m["attempts"]))
                sounds = sum(1 for e in got["timeline"] if e["effect"] == "aversive_sound")
                if sounds != m["sounds"]:
                    problems.append("aversive sounds %d, model %d" % (sounds, m["sounds"]))
            else:
                if len(got["boundaries"]) != m["boundaries"]:
                    problems.append("boundaries %d, model %d" % (len(got["boundaries"]), m["boundaries"]))
            if not problems:
                summary = expected_summary(case, m)
                for key, value in summary.items():
                    actual = got["summary"].get(key)
                    if type(value) is float:
                        ok = type(actual) is float and abs(actual - value) <= 1e-9 * max(1, abs(value))
                    else:
                        ok = actual == value and type(actual) is type(value)
                    if not ok:
                        problems.append("%s = %r, model %r" % (key, actual, value))
                record = got["health_record"]
                loggable = m["status"] == "completed" and (
                    o["mode"] != "passive" or m["boundaries"] == o["count"]
                    or m["end"] >= min(2 * o["interval"], 300) * NS)
                if (record is not None) != loggable:
                    problems.append("health record %s, model %s" % (record is not None, loggable))
                elif record is not None:
                    start_ns = m["attempts"][0][0] if o["mode"] != "passive" else 0
                    if record["startDate"] != iso(wall * NS + start_ns, offset):
                        problems.append("startDate %s, model %s" % (record["startDate"], iso(wall * NS + start_ns, offset)))
                    if record["endDate"] != iso(wall * NS + m["end"], offset):
                        problems.append("endDate %s, model %s" % (record["endDate"], iso(wall * NS + m["end"], offset)))
        if problems:
            failures += 1
            print("case %d (%s): %s" % (number, " ".join(command[2:]), "; ".join(problems)))
            print("  edges: " + text.replace("\n", " | "))
    print("crosscheck: %d passed, %d failed" % (count - failures, failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
