#!/usr/bin/env python3
"""Snapshots what `replay` and `simulate` print, for a refactor that must not change them.

Writes, into DIR, `replay`'s output (JSON and text, with standard error and exit status) for each of the
cross-check's 500 cases (seed 1: replay_crosscheck.py's own cases and commands) and
`simulate --sessions 200` for seeds 1, 2 and 7. Run it with the binary before and after a change and
compare: `diff -rq BEFORE AFTER` must print nothing (issue 23 did exactly this).

Usage: output_snapshot.py PATH_TO_CHRONOCEPTION DIR
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from replay_crosscheck import cases, replay_command  # noqa: E402


def save(path, result):
    with open(path, "wb") as handle:
        handle.write(result.stdout + b"\n--stderr--\n" + result.stderr + b"\n--exit %d\n" % result.returncode)


def main():
    binary, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for number, case, text, wall, offset in cases(seed=1, count=500):
        path = os.path.join(out, "case%03d.edges" % number)
        with open(path, "w") as handle:
            handle.write(text)
        command = replay_command(binary, path, case["options"], wall, offset)
        for variant, extra in (("compact", ["--compact"]), ("text", [])):
            save(os.path.join(out, "case%03d.%s" % (number, variant)), subprocess.run(command + extra, capture_output=True))
    for seed in (1, 2, 7):
        save(os.path.join(out, "simulate%d" % seed),
             subprocess.run([binary, "simulate", "--sessions", "200", "--seed", str(seed)], capture_output=True))


if __name__ == "__main__":
    main()
