#!/usr/bin/env python3
"""SPEC §1's display rule for errors, the same on the page as on the command line (issue 35, defects 6
and 7), in headless Chromium against `chronoception companion` over a store of three sessions with
known errors, imported from fallback files (`chronoception import`), all ended today:

- Challenge 10s ×3, errors −0.4, 0.49 and 0.3 s (typical error 0.4 s, bias 0.13 s);
- Challenge 30s ×2, errors 1.2 and −1.4 s (typical error 1.3 s: the chart of the issue);
- Challenge 1m 0s ×4, errors 0.5, 1.5, 59.5 and 60.4 s.

Checked: each attempt's error on the session page is the core's feedback (the API's `feedback`, "Late by
0s · green") as a sign and a size; each session's typical error and bias read as the core rounds them
(`0s`, `no bias`, never `<1s`); Progress's typical error per interval is `chronoception progress`'s word
for word; the typical-error chart's axis has distinct whole-second ticks (0s / 1s for the 10s interval,
0s / 1s / 2s for 30s). Screenshots of the chart at phone width. Run by Tests/web/run (WEB_ONLY=display_rule)."""
import json, os, re, shutil, tempfile, time, uuid

from browser import js_errors, screenshot, wait_for
from webparts import Checks, Companion, arguments, make_driver, onboard, open_page, run, set_view

check = Checks("display_rule")
SESSIONS = [("10s", 10, [-400, 490, 300]), ("30s", 30, [1200, -1400]), ("1m 0s", 60, [500, 1500, 59500, 60400])]
# The core's rule (DurationText, SessionSummaryText) for these sessions: typical error and bias words.
SUMMARIES = {"10s": "typical error 0s · no bias", "30s": "typical error 1s · no bias", "1m 0s": "typical error 30s · bias late by 30s"}


def fallback(interval_s, errors_ms, ended_unix_ns):
    """A fallback file (ChronoStore's UnsavedSessionFile) of a completed Challenge session whose
    attempts miss by `errors_ms`, ending at `ended_unix_ns`."""
    second = 1_000_000_000
    started = 1_000 * second
    attempts, at = [], started + second
    for index, error in enumerate(errors_ms, start=1):
        tap = at + interval_s * second + error * 1_000_000
        attempts.append([index, at, tap])
        at = tap + 5 * second
    ended = at
    return {
        "chronoception_unsaved_session": 1, "session_id": str(uuid.uuid4()), "board": "desktop",
        "anchor": {"unix_ns": ended_unix_ns - (ended - started), "monotonic_ns": started, "utc_offset_seconds": 0},
        "configuration": {"mode": "challenge", "interval_ms": interval_s * 1000, "planned_count": len(errors_ms), "fear_threshold": 0.15,
                          "pattern": "L", "feedback_ms": 1500, "abort_window_ms": 3000, "auto_start": False, "debounce_ms": 30,
                          "long_press_ms": 1500},
        "status": "completed", "started_ns": started, "ended_ns": ended, "attempts": attempts, "boundaries": [],
        "boundaries_fired_ns": [], "fear_sound_effective": False, "reason": None, "sound_audible_at_start": None,
    }


def from_feedback(text):
    """The core's feedback line as the page's sign and size: "Late by 1m 0s · red" → "+1m 0s"."""
    if text.startswith("On time"):
        return "0s"
    match = re.match(r"(Early|Late) by (.+?) · ", text)
    return ("−" if match.group(1) == "Early" else "+") + match.group(2)


def cli_typical_errors(binary, data):
    """`chronoception progress`'s "Typical error: X last 7 days" per interval."""
    text = run(binary, "progress", "--data-dir", data)
    found, interval = {}, None
    for line in text.splitlines():
        title = re.match(r"^(\d+s|\d+m \d+s)(  H\(I\) .*)? · \d+ completed session", line)
        if title:
            interval = title.group(1)
        typical = re.match(r"^  Typical error: (.+?) last 7 days", line)
        if typical and interval:
            found[interval] = typical.group(1)
    return found


def axis_ticks(driver):
    """The typical-error chart's axis labels, bottom to top."""
    return driver.execute_script("""
      const charts = document.querySelectorAll('[data-role=charts] svg.chart');
      const chart = charts[charts.length - 1];
      return chart ? Array.from(chart.querySelectorAll('text.label[text-anchor=end]')).map(t => t.textContent) : null;""")


def main():
    args = arguments()
    started = time.time()
    work = tempfile.mkdtemp(prefix="web-display-rule-")
    data = os.path.join(work, "data")
    companion = driver = None
    try:
        now = time.time_ns()
        ids = {}
        for offset, (name, interval_s, errors) in enumerate(SESSIONS):
            session = fallback(interval_s, errors, now - (30 - offset * 5) * 60 * 1_000_000_000)
            path = os.path.join(work, f"unsaved-{session['session_id']}.json")
            with open(path, "w") as file:
                json.dump(session, file)
            run(args.binary, "import", path, "--data-dir", data)
            ids[name] = session["session_id"]
        cli = cli_typical_errors(args.binary, data)
        check("cli: progress gives a typical error for each interval", set(cli) == set(ids), cli)

        companion = Companion(args.binary, data, os.path.join(work, "companion.log"))
        driver = make_driver()
        onboard(driver, companion.base)
        set_view(driver, "phone", "light")
        for name, _, errors in SESSIONS:
            detail = companion.api(f"/sessions/{ids[name]}")
            open_page(driver, companion.base, f"#/session/{ids[name]}")
            cells = driver.execute_script("return Array.from(document.querySelectorAll('tbody tr')).map(tr => tr.children[2].innerText)")
            expected = [from_feedback(a["feedback"]) for a in detail["attempts"]]
            check(f"session {name}: each error is the core's feedback as a sign and a size", cells == expected, (cells, expected, [a["feedback"] for a in detail["attempts"]]))
            check(f"session {name}: no error reads <1s", all("<" not in cell for cell in cells), cells)
            summary = driver.execute_script("return document.querySelector('main section.card').innerText")
            check(f"session {name}: typical error and bias as the core rounds them ({SUMMARIES[name]})", SUMMARIES[name] in summary, summary)
            check(f"session {name}: the typical error is `progress`'s", f"typical error {cli.get(name)} ·" in summary, (cli.get(name), summary))
        # The three sessions are in the 10s, 30s and 1m sub-second, small and large: their figures in the list.
        open_page(driver, companion.base, "#/sessions")
        listed = driver.execute_script("return document.querySelector('main').innerText")
        check("sessions: typical errors 0s, 1s and 30s, none <1s",
              all(f"typical error {cli.get(name)}" in listed for name in ids) and "<1s" not in listed, listed[:600])

        open_page(driver, companion.base, "#/progress")
        cards = driver.execute_script("""return Object.fromEntries(Array.from(document.querySelectorAll('section[aria-label^="Interval "]'))
            .map(c => [c.getAttribute('aria-label').slice(9), c.querySelector('.big').textContent]))""")
        check("progress: each interval's typical error is `chronoception progress`'s, word for word", cards == cli, (cards, cli))
        for name, wanted in (("10s", ["0s", "1s"]), ("30s", ["0s", "1s", "2s"])):
            # The interval chip's choice, made directly (a filtered page offers only its own interval's chip).
            driver.execute_script("progressInterval = arguments[0]; pageProgress()", name)
            wait_for(driver, "const c = document.querySelectorAll('[data-role=charts] svg.chart'); return c.length === 2")
            ticks = axis_ticks(driver)
            check(f"chart {name}: whole-second ticks, distinct and in order ({' / '.join(wanted)})", ticks == wanted, ticks)
            time.sleep(0.2)
            screenshot(driver, os.path.join(args.artifacts, f"display-rule-chart-{name.replace(' ', '')}-phone-light.png"))
        driver.execute_script("progressInterval = ''; pageProgress()")
        wait_for(driver, "const c = document.querySelectorAll('[data-role=charts] svg.chart'); return c.length === 2")
        ticks = axis_ticks(driver)
        check("chart, all intervals: ticks distinct and each a whole-second reading", ticks and len(set(ticks)) == len(ticks)
              and all(re.fullmatch(r"\d+s|\d+m \d+s", t) for t in ticks), ticks)
        errors = js_errors(driver)
        check("no script errors", not errors, errors[:3])
    except Exception as error:  # a crash is a failure with its reason, and the servers still stop
        check.crash(error.__class__.__name__, error)
    finally:
        if driver:
            driver.quit()
        if companion:
            companion.stop()
        shutil.rmtree(work, ignore_errors=True)
    print(f"web display_rule: {check.passed} passed, {check.failed} failed ({time.time() - started:.0f} s)")
    check.finish(args.counts)


if __name__ == "__main__":
    main()
