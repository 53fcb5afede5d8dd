#!/usr/bin/env python3
"""Home as a session ends (issue 35, defect 1), against `chronoception run` in test mode on the desktop
board, in headless Chromium at phone width: a store with one earlier (simulated) session; the defaults
set to Challenge 10s ×2; Home's button "Start Challenge 10s ×2 on the device" pressed, both attempts
run on the device's button (the daemon's stdin). Without a reload:

- the live card says "Session ended · Completed and saved." and the session's Time Acuity and typical
  error, the API's figures;
- "Last session" shows the new session (its id, its score), not the earlier one;
- Progress, when it is the page on show as a session ends, is drawn again with it.
Screenshots of Home after the session ends, phone width, light and dark. Run by Tests/web/run
(WEB_ONLY=session_end)."""
import os, shutil, tempfile, time

from browser import js_errors, screenshot, wait_for
from selenium.webdriver.common.by import By
from webparts import Checks, Daemon, arguments, make_driver, onboard, run, set_view

check = Checks("session_end")


def text_of(driver, selector):
    return driver.execute_script("const e = document.querySelector(arguments[0]); return e ? e.innerText : null", selector)


def run_attempts(daemon, count):
    """Each attempt started with a press and answered 10.2 s later with another (the desktop board's space)."""
    for _ in range(count):
        daemon.until_device(lambda d: d["state"] == "WaitingForStart", "waited for an attempt's start", timeout=15)
        daemon.press()
        daemon.until_device(lambda d: d["state"] == "AttemptRunning", "started the attempt", timeout=10)
        time.sleep(10.2)
        daemon.press()


def main():
    args = arguments()
    started = time.time()
    work = tempfile.mkdtemp(prefix="web-session-end-")
    data = os.path.join(work, "data")
    daemon = driver = None
    try:
        run(args.binary, "simulate", "--sessions", "1", "--seed", "7", "--quiet", "--data-dir", data)
        for key, value in (("default-mode", "challenge"), ("default-interval", "10s"), ("default-attempts", "2")):
            run(args.binary, "settings", "set", key, value, "--data-dir", data)
        daemon = Daemon(args.binary, data, os.path.join(work, "daemon.log"), feedback_ms=500)
        earlier = daemon.api("/device")["last_session"]["session_id"]

        driver = make_driver()
        set_view(driver, "phone", "light")
        onboard(driver, daemon.base)
        driver.get(daemon.base + "/#/home")
        wait_for(driver, "const c = document.getElementById('home-last'); return c && c.dataset.session && document.querySelector('[data-role=start-next]')")
        check("before: Last session is the earlier one", driver.execute_script("return document.getElementById('home-last').dataset.session") == earlier)
        driver.execute_script("window.__notReloaded = true")
        button = driver.find_element(By.CSS_SELECTOR, "[data-role=start-next]")
        check("before: the button names the defaults", button.text == "Start Challenge 10s ×2 on the device", button.text)
        button.click()
        run_attempts(daemon, 2)
        daemon.until_device(lambda d: d["state"] == "Idle", "came back to idle", timeout=20)
        last = daemon.api("/device")["last_session"]
        session = daemon.api(f"/sessions/{last['session_id']}")
        check("device: the new session is the last one", last["session_id"] != earlier and last["time_acuity_score"] is not None, last)

        wait_for(driver, "return document.querySelector('#live-card [data-role=end-result]')", timeout=10)
        card = text_of(driver, "#live-card")
        check("live card: ended, completed and saved", card.startswith("Session ended") and "Completed and saved." in card, card)
        result = text_of(driver, "#live-card [data-role=end-result]")
        typical = driver.execute_script("return seconds(arguments[0])", session["mean_abs_error_seconds"])
        check("live card: the session's Time Acuity and typical error (the API's)",
              result == f"{session['time_acuity_score']} Time Acuity · typical error {typical}", (result, session["time_acuity_score"], typical))
        wait_for(driver, "return document.getElementById('home-last').dataset.session === arguments[0]".replace("arguments[0]", repr(last["session_id"])), timeout=10)
        shown = text_of(driver, "#home-last")
        check("Last session: the new one at once, with its score", shown.startswith("Last session") and f"{last['time_acuity_score']} Time Acuity" in shown
              and "Challenge · 10s" in shown, shown)
        check("no reload", driver.execute_script("return window.__notReloaded === true"))
        for theme in ("light", "dark"):
            set_view(driver, "phone", theme)
            time.sleep(0.2)
            screenshot(driver, os.path.join(args.artifacts, f"session-end-home-phone-{theme}.png"))
        set_view(driver, "phone", "light")

        # Progress on show as a session ends: drawn again, the new session among the recent ones.
        driver.get(daemon.base + "/#/progress")
        wait_for(driver, "return document.querySelector('[data-role=find-sessions]')")
        before = driver.execute_script("return document.querySelectorAll('[aria-labelledby=r-title] li').length")
        daemon.api("/device/start", "POST", {"mode": "challenge", "interval": "10s", "count": 1})
        run_attempts(daemon, 1)
        daemon.until_device(lambda d: d["state"] == "Idle", "came back to idle", timeout=20)
        newest = daemon.api("/device")["last_session"]["session_id"]
        try:
            wait_for(driver, "return Array.from(document.querySelectorAll('[aria-labelledby=r-title] a')).some(a => a.getAttribute('href').includes(arguments[0]))"
                     .replace("arguments[0]", repr(newest)), timeout=10)
            check("progress: drawn again with the session that ended", True)
        except Exception as error:
            check("progress: drawn again with the session that ended", False, (before, error))
        errors = js_errors(driver)
        check("no script errors", not errors, errors[:3])
    except Exception as error:  # a crash is a failure with its reason, and the servers still stop
        check.crash(error.__class__.__name__, error)
    finally:
        if driver:
            driver.quit()
        if daemon:
            daemon.stop()
            if check.failed:
                print(open(daemon.log_path, errors="replace").read()[-3000:])
        shutil.rmtree(work, ignore_errors=True)
    print(f"web session_end: {check.passed} passed, {check.failed} failed ({time.time() - started:.0f} s)")
    check.finish(args.counts)


if __name__ == "__main__":
    main()
