#!/usr/bin/env python3
"""The assigned study on the device and its companion (issue 24, "On the device"), end to end, in
headless Chromium:

- a real collector loads a one-day protocol (two Challenge 10s ×1 sessions, feedback withheld and never
  revealed on the device) and assigns it to a participant; the device enrols and receives the assignment with `sync now`; the
  collector is then stopped: the device runs the protocol from what its store keeps;
- `chronoception run` starts: GET /device's `study.line` is "Study web-2026 · day 1 · session 1 of 2 ·
  due now" and `next_session` is the planned session (`in_study`); Home shows the line word for word
  and its start button names the study's session, at phone and desktop width in both themes, without
  sideways scrolling;
- the session started from Home runs with feedback withheld: afterwards the line says session 2 of 2,
  Home's last session says its results are withheld (no score) and never shown on this device (the
  block's `reveal_at_block_end: false`, the session page too), the session page shows no error or
  zone, and `chronoception status` prints the same line and "results withheld"; Progress counts the
  session but shows none of its figures and says one session's results are withheld; no page shows an
  elapsed time.
Run by Tests/web/run (WEB_ONLY=study_device)."""
import os, re, shutil, subprocess, tempfile, time

import webparts
from browser import js_errors, screenshot, wait_for
from selenium.webdriver.common.by import By
from webparts import SIZES, Checks, arguments, make_driver, onboard, run, set_view, views

check = Checks("study_device")
CODE = re.compile(r"^  ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})$", re.M)
PROTOCOL = """{
  "name": "web-2026",
  "version": 1,
  "schedule": { "sessions_per_day": 2, "days": 1, "minimum_gap_minutes": 0 },
  "blocks": [
    { "name": "blind", "mode": "challenge", "sessions": 2, "interval": "10s", "attempts": 1, "feedback": "withheld",
      "reveal_at_block_end": false }
  ]
}
"""


NEVER = "Results withheld: this study block gives no feedback, and its results are never shown on this device."
REVEALED = "Results withheld: this study block gives no feedback; its results are shown here when the block ends."


def until(daemon, condition, what, timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        device = daemon.api("/device")
        if condition(device):
            return device
        time.sleep(0.05)
    raise RuntimeError(f"the device never {what}: {daemon.api('/device')}")


def open_home(driver, base):
    driver.get("about:blank")
    onboard(driver, base)
    driver.get(base + "/#/home")
    wait_for(driver, "return document.querySelector('[data-role=start-next]') && !Array.from(document.querySelectorAll('main p')).some(p => p.textContent === 'Loading…')")


def text_of(driver, selector):
    return driver.execute_script(f"const e = document.querySelector('{selector}'); return e ? e.textContent : null")


def no_elapsed_time(text):
    """The study's words never say how long ago anything was."""
    return not re.search(r"\bago\b|elapsed|since", text or "", re.I)


def main():
    args = arguments()
    started = time.time()
    work = tempfile.mkdtemp(prefix="web-study-device-")
    data = os.path.join(work, "data")
    os.makedirs(data)  # `sync add` opens a data directory, it does not make one
    state_file = os.path.join(work, "state.json")
    collector = daemon = driver = None
    try:
        # The collector assigns the protocol; the device receives it with its next exchange.
        collector = webparts.Collector(args.binary, work)
        protocol = os.path.join(work, "web-2026.json")
        with open(protocol, "w") as file:
            file.write(PROTOCOL)
        collector.cli("protocol", "load", protocol)
        code = CODE.search(collector.cli("enrol", "study-web", "--participant", "P-web", "--url", collector.url)).group(1)
        collector.cli("protocol", "assign", "web-2026", "--participant", "P-web")
        run(args.binary, "sync", "add", collector.url, "--code", code, "--board", "desktop", "--data-dir", data)
        pushed = run(args.binary, "sync", "now", "--data-dir", data)
        check("sync: the assignment arrives with the exchange", "study web-2026@1 assigned to P-web" in pushed, pushed)
        # No collector from here on: the device keeps running the protocol from its store.
        collector.stop()
        collector = None

        daemon = webparts.Daemon(args.binary, data, os.path.join(work, "daemon.log"), state_file=state_file)
        device = daemon.api("/device")["device"]
        line = "Study web-2026 · day 1 · session 1 of 2 · due now"
        study = device.get("study") or {}
        check("device: GET /device's study line", study.get("line") == line, study)
        check("device: the counts beside it", (study.get("day"), study.get("session"), study.get("sessions"), study.get("done"), study.get("due_now"))
              == (1, 1, 2, 0, True), study)
        check("device: next_session is the planned session",
              device.get("next_session") == {"mode": "challenge", "interval": "10s", "interval_seconds": 10, "count": 1, "in_study": True},
              device.get("next_session"))

        driver = make_driver()
        label = "Start the study's next session (Challenge 10s ×1) on the device"
        for size, theme in views(driver):
            open_home(driver, daemon.base)
            shown = text_of(driver, "[data-role=study-line]")
            check(f"home {size} {theme}: the study line, word for word", shown == line, shown)
            check(f"home {size} {theme}: the start button names the study's session", text_of(driver, "[data-role=start-next]") == label,
                  text_of(driver, "[data-role=start-next]"))
            width = driver.execute_script("return document.documentElement.scrollWidth")
            check(f"home {size} {theme}: no sideways scrolling", width <= SIZES[size][0], width)
            screenshot(driver, os.path.join(args.artifacts, f"study-device-home-{size}-{theme}.png"))

        # The session, started from Home, run on the device's button (feedback withheld).
        set_view(driver, "desktop", "light")
        open_home(driver, daemon.base)
        driver.find_element(By.CSS_SELECTOR, "[data-role=start-next]").click()
        running = until(daemon, lambda d: d["device"]["session_in_progress"], "started the planned session", timeout=10)["device"]
        check("session: the planned one runs", (running["mode"], running["interval"], running["attempt_count"]) == ("challenge", "10s", 1), running)
        until(daemon, lambda d: d["device"]["state"] == "WaitingForStart", "waited for the attempt's start", timeout=10)
        daemon.press()
        until(daemon, lambda d: d["device"]["state"] == "AttemptRunning", "started the attempt", timeout=10)
        time.sleep(10.2)
        daemon.press()
        idle = until(daemon, lambda d: d["device"]["state"] == "Idle", "came back to idle", timeout=30)
        check("session: no feedback was shown", idle["device"].get("last_feedback") is None, idle["device"])
        after = "Study web-2026 · day 1 · session 2 of 2 · due now"
        check("after: the line moved on", (idle["device"].get("study") or {}).get("line") == after, idle["device"].get("study"))
        last = idle.get("last_session") or {}
        check("after: GET /device's last session is withheld", last.get("results_withheld") is True and last.get("time_acuity_score") is None, last)
        check("after: and never revealed (reveal_at_block_end: false)", last.get("results_revealed_at_block_end") is False, last)
        detail = daemon.api(f"/sessions/{last.get('session_id')}")
        check("after: the session's attempts carry no error or zone",
              detail.get("results_withheld") is True and all(a["error_seconds"] is None and a["zone"] is None for a in detail["attempts"]), detail)

        status = subprocess.run([args.binary, "status", "--state-file", state_file], capture_output=True, text=True, timeout=10)
        check("status: prints the study line", after in status.stdout.splitlines(), status.stdout)
        check("status: says the results are withheld", "Last session: results withheld (a study block without feedback)" in status.stdout.splitlines(), status.stdout)
        check("status: no feedback line", "Last feedback" not in status.stdout, status.stdout)

        for size, theme in (("phone", "dark"), ("desktop", "light")):
            set_view(driver, size, theme)
            open_home(driver, daemon.base)
            wait_for(driver, "return document.querySelector('[data-role=results-withheld]')")
            check(f"after {size} {theme}: Home's line moved on", text_of(driver, "[data-role=study-line]") == after, text_of(driver, "[data-role=study-line]"))
            withheld = text_of(driver, "[data-role=results-withheld]")
            check(f"after {size} {theme}: Home's last session says its results are withheld, and never shown (reveal_at_block_end: false)",
                  withheld == NEVER, withheld)
            card = driver.find_element(By.CSS_SELECTOR, "[aria-labelledby=h-last]").text
            check(f"after {size} {theme}: no score on Home", "Time Acuity" not in card, card)
            check(f"after {size} {theme}: no elapsed time on Home", no_elapsed_time(driver.find_element(By.CSS_SELECTOR, "main").text),
                  driver.find_element(By.CSS_SELECTOR, "main").text)
            screenshot(driver, os.path.join(args.artifacts, f"study-device-after-{size}-{theme}.png"))
            driver.get(daemon.base + f"/#/session/{last.get('session_id')}")
            wait_for(driver, "return document.querySelector('[data-role=results-withheld]')")
            page = driver.find_element(By.CSS_SELECTOR, "main").text
            check(f"session page {size} {theme}: withheld, no attempts table, no zone",
                  "Results withheld" in page and not driver.find_elements(By.CSS_SELECTOR, "main table") and "Zone" not in page, page)
            check(f"session page {size} {theme}: the block's rule in words (never shown)", text_of(driver, "[data-role=results-withheld]") == NEVER + " 1 attempt recorded.",
                  text_of(driver, "[data-role=results-withheld]"))
            screenshot(driver, os.path.join(args.artifacts, f"study-device-session-{size}-{theme}.png"))
            # Progress: the session counts, its results are in no figure, and the page says so.
            driver.get(daemon.base + "/#/progress")
            wait_for(driver, "return document.querySelector('[data-role=results-withheld]')")
            notes = [n.text for n in driver.find_elements(By.CSS_SELECTOR, "[data-role=results-withheld]")]
            words = "Results withheld for 1 session (a study block without feedback): counted, not in these figures."
            check(f"progress {size} {theme}: says one session's results are withheld (page and the 10s card)", notes == [words, words], notes)
            card = driver.find_element(By.CSS_SELECTOR, "[aria-label='Interval 10s']").text
            check(f"progress {size} {theme}: the 10s card counts it and shows no figure",
                  "1 session" in card and "Time Acuity: —" in card and "Last " not in card, card)
            screenshot(driver, os.path.join(args.artifacts, f"study-device-progress-{size}-{theme}.png"))
        report = daemon.api("/progress")
        figures = next((i for i in report["intervals"] if i["target_interval_seconds"] == 10), {})
        check("GET /progress: counted, withheld, no figure",
              report.get("results_withheld_sessions") == 1 and figures.get("results_withheld_sessions") == 1
              and figures.get("attempts_last_7_days") == 0 and figures.get("time_acuity_score") is None, report)
        # A block that reveals at its end (the protocol's default) is worded so: the page's one sentence.
        revealed = driver.execute_script("return withheldWords({ results_withheld: true, results_revealed_at_block_end: true })")
        check("a block revealed at its end: said so", revealed == REVEALED, revealed)
        errors = js_errors(driver)
        check("no script errors", not errors, errors)
    except Exception as error:  # a crash is a failure with its reason, and the servers still stop
        check.crash(f"{error.__class__.__name__}", error)
    finally:
        if driver:
            driver.quit()
        if daemon:
            daemon.stop()
        if collector:
            collector.stop()
        shutil.rmtree(work, ignore_errors=True)
    print(f"web study_device: {check.passed} passed, {check.failed} failed ({time.time() - started:.0f} s)")
    check.finish(args.counts)


if __name__ == "__main__":
    main()
