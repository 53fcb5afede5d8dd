#!/usr/bin/env python3
"""Reminders and the daily goal on Home (issue 35 item 2), against `chronoception run` in test mode on
the desktop board, in headless Chromium:

- with `daily-goal 2` and `daily-reminder` set to a minute already past today, the daemon gives the
  daily reminder as soon as it is idle: GET /device's `reminder` and `today` say so, and Home shows
  "Time to train: 0 of 2 sessions today." and "Today: 0 of 2 sessions" (phone dark, desktop light);
- a session completed while Home is open (Passive 10s, ended after its first boundary) updates both
  lines from the device's state event, without a reload: "Today: 1 of 2 sessions".
Run by Tests/web/run (WEB_ONLY=reminders)."""
import os, shutil, subprocess, tempfile, time

import webparts
from browser import js_errors, screenshot, wait_for
from webparts import Checks, arguments, make_driver, onboard, set_view

check = Checks("reminders")


def lines(driver):
    return driver.execute_script("""
        const text = role => { const p = document.querySelector(`[data-role=${role}]`); return p && !p.hidden ? p.textContent : null; };
        return [text('today-line'), text('reminder-line')];""")


def main():
    args = arguments()
    started = time.time()
    work = tempfile.mkdtemp(prefix="web-reminders-")
    data = os.path.join(work, "data")
    daemon = driver = None
    try:
        os.makedirs(data)
        # A minute already past today (local time): the reminder is due as soon as the daemon is idle.
        past = time.localtime(max(time.time() - 60, time.mktime(time.localtime()[:3] + (0, 0, 0, 0, 0, -1))))
        for key, value in (("daily-goal", "2"), ("daily-reminder", time.strftime("%H:%M", past))):
            subprocess.run([args.binary, "settings", "set", key, value, "--data-dir", data], check=True, capture_output=True)
        daemon = webparts.Daemon(args.binary, data, os.path.join(work, "daemon.log"))
        device = daemon.until_device(lambda d: d.get("reminder"), "gave the daily reminder")
        check("api: the reminder in the device's words", device["reminder"] == "Time to train: 0 of 2 sessions today.", device)
        check("api: today against the goal", device["today"] == {"sessions": 0, "goal": 2, "goal_met": False, "line": "Today: 0 of 2 sessions"}, device)

        driver = make_driver()
        for size, theme in (("phone", "dark"), ("desktop", "light")):
            set_view(driver, size, theme)
            driver.get("about:blank")
            onboard(driver, daemon.base)
            driver.get(daemon.base + "/#/home")
            wait_for(driver, "return document.querySelector('[data-role=today-line]')")
            check(f"home {size}: the reminder and today's count", lines(driver) == ["Today: 0 of 2 sessions", "Time to train: 0 of 2 sessions today."], lines(driver))
            screenshot(driver, os.path.join(args.artifacts, f"reminders-home-{size}-{theme}.png"))

        daemon.api("/device/start", "POST", {"mode": "passive", "interval": "10s", "count": 2})
        daemon.until_device(lambda d: (d.get("repetitions_done") or 0) >= 1, "reached its first boundary", timeout=20)
        daemon.api("/device/end", "POST", {})
        daemon.until_device(lambda d: d["state"] == "Idle" and d["today"]["sessions"] == 1, "counted the session today")
        wait_for(driver, "return document.querySelector('[data-role=today-line]').textContent === 'Today: 1 of 2 sessions'")
        check("home: a completed session updates today's count and the reminder without a reload",
              lines(driver) == ["Today: 1 of 2 sessions", "Time to train: 1 of 2 sessions today."], lines(driver))
        screenshot(driver, os.path.join(args.artifacts, "reminders-home-after-session-desktop-light.png"))
        check("no script errors", not js_errors(driver), js_errors(driver))
    except Exception as error:  # a crash is a failure with its reason, and the servers still stop
        check.crash(f"{error.__class__.__name__}", error)
    finally:
        if driver:
            driver.quit()
        if daemon:
            daemon.stop()
        shutil.rmtree(work, ignore_errors=True)
    print(f"web reminders: {check.passed} passed, {check.failed} failed ({time.time() - started:.0f} s)")
    check.finish(args.counts)


if __name__ == "__main__":
    main()
