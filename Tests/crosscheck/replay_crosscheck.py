#!/usr/bin/env python3
"""Differential check of `chronoception replay` against an independent model of the rules in docs/REPLAY.md.

A second implementation, written from the documentation (docs/REPLAY.md "Rules the engine applies") and
SPEC §3-§4 in plain Python, predicts each session's status, marks, summary and health-record dates.
Random edge files with bounces, extra taps, long presses, aborts, sound loss and early ends are fed to
both; any disagreement is printed and fails the run.

Reproduction (docs/REPRODUCTION.md) has its own model and its own generated sessions, checked after
the others: presented marks at absolute deadlines (queued behind a cue still playing), presses during a
presentation ignored and counted, the two presses of each reproduction, ratios, the summary with
`mean_ratio` and the health record from the session start; half of them with feedback withheld.

Usage: replay_crosscheck.py PATH_TO_CHRONOCEPTION [--cases N] [--seed S] [--reproduction-cases N]
"""
import json
import math
import random
import subprocess
import sys
import tempfile

NS = 1_000_000_000


def recognise(edges, debounce, long_press):
    """docs/REPLAY.md's debounce and tap/long-press rules: [(recognised_at, kind, pressed_at)]."""
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
    """The session as docs/REPLAY.md describes it."""
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


MS = 1_000_000
PRESENTATION_DELAY = 2 * NS   # from an attempt's start to its first presented mark
SEPARATION = 150 * MS         # the pause the engine keeps between two vibrations


def cue_ms(kind):
    """How long a cue plays, from the haptic table (tick 40 ms, 60 ms apart; buzz 600 ms; mark 100 ms;
    150 ms after a buzz)."""
    fixed = {"ready": 240, "start": 140, "recorded": 340, "abort-confirm": 890, "discarded": 2100,
             "session-done": 1350, "mark": 100}
    if kind in fixed:
        return fixed[kind]
    zone, direction = kind  # feedback: ticks say the zone, the buzz the direction
    ticks = {"green": 1, "yellow": 2, "red": 3}[zone]
    length = ticks * 40 + (ticks - 1) * 60
    return length + (750 if direction == "late" else 660 if direction == "early" else 0)


def model_reproduction(case):
    """A Reproduction session as docs/REPLAY.md and docs/REPRODUCTION.md describe it."""
    o = case["options"]
    interval = o["interval"] * NS
    feedback, window = o["feedback_ms"] * MS, o["abort_ms"] * MS
    shown = o["feedback"] == "shown"
    gestures = recognise(case["edges"], o["debounce_ms"] * MS, o["long_press_ms"] * MS)
    end_at = next((t for kind, t in case["others"] if kind == "end"), None)
    stream = sorted(gestures + [(t, kind, None) for kind, t in case["others"]], key=lambda e: e[0])
    if end_at is not None:
        stream = [e for e in stream if e[0] <= end_at and (e[1] != "end" or e[0] == end_at)]
    motor_free = 0
    cues = []

    def vibrate(kind, at):
        nonlocal motor_free
        begin = max(at, motor_free)
        motor_free = begin + cue_ms(kind) * MS + SEPARATION
        cues.append((kind, begin))
        return begin

    vibrate("ready", 0)
    st = dict(phase="present", k=1, due=[PRESENTATION_DELAY, PRESENTATION_DELAY + interval], marks=[],
              start=None, until=None, accept=None, abort=None, ignored=0)
    attempts, presented = [], []

    def result(status, **extra):
        return dict(status=status, attempts=attempts, presented=presented, ignored=st["ignored"], cues=cues, **extra)

    def deadlines_until(t):
        while True:
            due = []
            if st["phase"] == "present":
                due.append((st["due"][len(st["marks"])], 0))
            if st["phase"] == "flash":
                due.append((st["until"], 1))
            if st["abort"] is not None:
                due.append((st["abort"], 2))
            if not due or min(due)[0] > t:
                return
            at, which = min(due)
            if which == 0:
                st["marks"].append(vibrate("mark", at))
                if len(st["marks"]) == 2:
                    st["phase"], st["accept"] = "wait", st["marks"][1]
            elif which == 1:
                st["k"] += 1
                begin = at + PRESENTATION_DELAY
                st.update(phase="present", due=[begin, begin + interval], marks=[])
            else:
                st["abort"] = None

    for at, kind, pressed in stream:
        deadlines_until(at)
        if kind == "end":
            return result("incomplete")
        if kind == "long":
            if st["abort"] is not None and at < st["abort"]:
                vibrate("discarded", at)
                return result("aborted")
            st["abort"] = at + window
            vibrate("abort-confirm", at)
        elif kind == "tap":
            if st["abort"] is not None:
                st["abort"] = None
                continue
            if st["phase"] == "present" or (st["phase"] == "wait" and pressed < st["accept"]):
                st["ignored"] += 1
            elif st["phase"] == "wait":
                st["phase"], st["start"] = "run", pressed
                vibrate("start" if shown else "recorded", at)
            elif st["phase"] == "run" and pressed >= st["start"]:
                attempts.append((st["start"], pressed))
                presented.append(tuple(st["marks"]))
                error = pressed - st["start"] - interval
                ape = abs(error) / interval
                zone = "green" if ape < 0.05 else "yellow" if ape < 0.15 else "red"
                direction = "late" if error > 0 else "early" if error < 0 else "on_time"
                vibrate((zone, direction) if shown else "recorded", at)
                if len(attempts) == o["count"]:
                    vibrate("session-done", at)
                    return result("completed", end=pressed)
                st["phase"], st["until"] = "flash", at + feedback
    deadlines_until(1 << 62)
    return result("incomplete")


def generate_reproduction(rng):
    """A Reproduction session's edges: a person who mostly waits for the end mark, sometimes presses
    during a presentation (or just before its end), holds to discard, or is cut off."""
    o = dict(mode="reproduction", interval=rng.randint(10, 40), count=rng.randint(1, 4), threshold=0.1, sound=True,
             auto_start=rng.random() < 0.3, feedback_ms=rng.choice([500, 1500, 2500]), debounce_ms=rng.choice([10, 30, 50]),
             long_press_ms=rng.choice([800, 1500]), abort_ms=rng.choice([3000, 5000]),
             feedback=rng.choice(["shown", "withheld"]))
    edges, others = [], []
    interval = o["interval"] * NS

    def press(at, hold):
        edges.append((True, at))
        for _ in range(rng.choice([0, 0, 1, 2])):
            at += rng.randint(100_000, o["debounce_ms"] * MS // 4)
            edges.append((False, at))
            at += rng.randint(100_000, o["debounce_ms"] * MS // 4)
            edges.append((True, at))
        edges.append((False, at + hold))
        return at + hold

    attempt_start = 0
    for _ in range(o["count"] + rng.choice([0, 0, 0, 1])):
        end_mark = attempt_start + PRESENTATION_DELAY + interval
        if rng.random() < 0.3:  # impatient: a press during the presentation
            press(rng.randint(attempt_start + 200 * MS, end_mark - 500 * MS), rng.randint(40, 200) * MS)
        if rng.random() < 0.1:  # a long press: a discard request, sometimes confirmed
            release = press(rng.randint(attempt_start + 200 * MS, end_mark - 4 * NS), o["long_press_ms"] * MS + rng.randint(1, 900) * MS)
            if rng.random() < 0.5:
                press(release + rng.randint(200, 1500) * MS, o["long_press_ms"] * MS + rng.randint(1, 900) * MS)
        # The start of the reproduction, now and then a hair before the end mark.
        start = end_mark + rng.randint(-150, 1500) * MS + rng.randint(0, MS - 1)
        release = press(start, rng.randint(40, 400) * MS)
        tap = max(release + 50 * MS, start + int(interval * rng.gauss(1.0, 0.12)))
        release = press(tap, rng.randint(40, 400) * MS)
        attempt_start = release + o["feedback_ms"] * MS
    if rng.random() < 0.1:
        others.append(("end", rng.randint(1, attempt_start + 5 * NS)))
    return dict(options=o, edges=sorted(edges, key=lambda e: e[1]), others=others)


def reproduction_cases(seed, count):
    """Reproduction's cases, numbered after the others' (like `cases`)."""
    rng = random.Random(seed * 7919 + 24)
    for number in range(1, count + 1):
        case = generate_reproduction(rng)
        text = edge_file(case)
        end = next((at for k, at in case["others"] if k == "end"), None)
        if end is not None:
            case["edges"] = [e for e in case["edges"] if e[1] < end]
        offset = rng.choice([0, 3600, -18000, 19800])
        wall = 1_795_417_200 + rng.randint(0, 10**7)
        yield number, case, text, wall, offset


def check_reproduction(case, got, wall, offset):
    """What replay printed for a Reproduction case against the model; the problems found."""
    o, m, problems = case["options"], model_reproduction(case), []
    if got["status"] != m["status"]:
        return ["status %s, model %s" % (got["status"], m["status"])]
    marks = [(a["start_mark_ns"], a["tap_mark_ns"]) for a in got["attempts"]]
    if marks != m["attempts"]:
        problems.append("marks %s, model %s" % (marks, m["attempts"]))
    shown = [(a["presented_start_ns"], a["presented_end_ns"]) for a in got["attempts"]]
    if shown != m["presented"]:
        problems.append("presented %s, model %s" % (shown, m["presented"]))
    for a in got["attempts"]:
        ratio = (a["tap_mark_ns"] - a["start_mark_ns"]) / (o["interval"] * NS)
        if a["ratio"] != ratio:
            problems.append("attempt %d ratio %r, model %r" % (a["index"], a["ratio"], ratio))
    if got["presses_ignored_during_presentation"] != m["ignored"]:
        problems.append("presses ignored during presentations %d, model %d" % (got["presses_ignored_during_presentation"], m["ignored"]))
    motors = [(e["cue"], e["at_ns"]) for e in got["timeline"] if e["effect"] == "motor_on"]
    firsts = []
    for kind, begin in m["cues"]:
        name = {"mark": None, "ready": "ready", "start": "start", "recorded": "recorded", "abort-confirm": "abort-confirm",
                "discarded": "discarded", "session-done": "session-done"}.get(kind, "feedback")
        firsts.append((name, begin))
    onsets, seen = [], set()
    for cue, at in motors:  # each vibration's first pulse only
        key = (cue, at)
        if cue.startswith("presented-"):
            cue = None
        elif cue.startswith("feedback-"):
            cue = "feedback"
        onsets.append((cue, at, key))
    starts = [(c, at) for c, at, _ in onsets]
    if not all(item in starts for item in firsts):
        problems.append("vibrations %s, model %s" % (starts, firsts))
    kinds = [e["effect"] for e in got["timeline"]]
    if o["feedback"] == "withheld" and ("feedback" in kinds or kinds.count("recorded") != len(m["attempts"])):
        problems.append("feedback withheld, but the timeline has %d feedback and %d recorded entries" % (kinds.count("feedback"), kinds.count("recorded")))
    if problems:
        return problems
    errors = [(tap - start) / NS - o["interval"] for start, tap in m["attempts"]]
    n = len(errors)
    summary = {"chronoception_version": 2, "chronoception_mode": "reproduction", "target_interval_seconds": o["interval"], "attempt_count": n}
    if n:
        mean = sum(errors) / n
        mape = sum(abs(e) / o["interval"] for e in errors) / n
        summary.update(mean_abs_error_seconds=sum(abs(e) for e in errors) / n, mean_signed_error_seconds=mean,
                       std_dev_error_seconds=math.sqrt(sum((e - mean) ** 2 for e in errors) / (n - 1)) if n > 1 else 0.0,
                       mean_abs_percent_error=mape, time_acuity_score=math.floor(100 * min(max(1 - mape / 0.5, 0), 1) + 0.5),
                       mean_ratio=sum((tap - start) / (o["interval"] * NS) for start, tap in m["attempts"]) / n)
    for key, value in summary.items():
        actual = got["summary"].get(key)
        ok = (type(actual) is float and abs(actual - value) <= 1e-9 * max(1, abs(value))) if type(value) is float \
            else (actual == value and type(actual) is type(value))
        if not ok:
            problems.append("%s = %r, model %r" % (key, actual, value))
    record = got["health_record"]
    if (record is not None) != (m["status"] == "completed"):
        problems.append("health record %s, model %s" % (record is not None, m["status"] == "completed"))
    elif record is not None:
        if record["startDate"] != iso(wall * NS, offset):
            problems.append("startDate %s, model %s (the session start)" % (record["startDate"], iso(wall * NS, offset)))
        if record["endDate"] != iso(wall * NS + m["end"], offset):
            problems.append("endDate %s, model %s" % (record["endDate"], iso(wall * NS + m["end"], offset)))
    return problems


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
    if o.get("feedback", "shown") != "shown":
        command += ["--feedback", o["feedback"]]
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
    reproduction = int(sys.argv[sys.argv.index("--reproduction-cases") + 1]) if "--reproduction-cases" in sys.argv else 200
    reproduction_failures = 0
    for number, case, text, wall, offset in reproduction_cases(seed, reproduction):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
            handle.write(text)
            path = handle.name
        command = replay_command(binary, path, case["options"], wall, offset) + ["--compact"]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            problems = ["exit %d: %s" % (result.returncode, result.stderr.strip())]
        else:
            problems = check_reproduction(case, json.loads(result.stdout), wall, offset)
        if problems:
            reproduction_failures += 1
            print("reproduction case %d (%s): %s" % (number, " ".join(command[2:]), "; ".join(problems)))
            print("  edges: " + text.replace("\n", " | "))
    print("crosscheck: %d passed, %d failed" % (count - failures, failures))
    print("crosscheck reproduction: %d passed, %d failed" % (reproduction - reproduction_failures, reproduction_failures))
    sys.exit(1 if failures or reproduction_failures else 0)


if __name__ == "__main__":
    main()
