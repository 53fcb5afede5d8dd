#!/usr/bin/env python3
"""What the device will start, and the moment after a session ends (issue 22, defects 1, 2 and 3),
against `chronoception run` in test mode on the desktop board, in headless Chromium:

- after a Passive 10s session the defaults change to Challenge 15s ×2 through the API: Home's start
  button names what the device will start ("Start Challenge 15s ×2 on the device"), not the last
  session, at phone and desktop width in both themes; a default changed while Home is open renames
  it from the device's state event;
- the daemon restarts on the same data: the button still names the new defaults (the change
  survives a restart), and pressing it starts exactly that on the device;
- in the summary window after a session ends (ended with POST /device/end; the summary is made 3 s
  long with --feedback-ms) discard answers 409 nothing_running saying the session is already saved,
  `chronoception discard` prints the same words after `error:`, start answers 409 busy without
  claiming a session runs, and the session stays completed;
- the page's answers to start and discard are its own words, never the API's message with a
  session's id: Home's button says "Started Challenge 15s ×2 on the device.", the live card's Discard
  "Discarded before it began: nothing saved." (phone dark, desktop light; no row is kept), a start refused in the
  summary window keeps the device's sentence without the id, and no status line ever shows an id.
Run by Tests/web/run (WEB_ONLY=nextsession)."""
import json, os, re, shutil, subprocess, tempfile, time, urllib.error

import webparts
from browser import js_errors, screenshot, wait_for
from selenium.webdriver.common.by import By
from webparts import SIZES, Checks, arguments, make_driver, onboard, set_view, views

check = Checks("nextsession")


class Daemon(webparts.Daemon):
    """`chronoception run` (webparts' Daemon) serving the API on a free loopback port and on a Unix
    socket (for the control verbs), its summary after a session made 3 s long."""

    def __init__(self, binary, data, work, name):
        super().__init__(binary, data, os.path.join(work, name + ".log"), socket_path=os.path.join(work, "api.sock"), feedback_ms=3000)
        self.socket = self.socket_path

    def refused(self, path, body=None):
        """(status, code, message) of a refused POST."""
        try:
            answer = self.api(path, "POST", {} if body is None else body)
            return (202, None, answer.get("message"))
        except urllib.error.HTTPError as error:
            problem = json.load(error)["error"]
            return (error.code, problem["code"], problem["message"])

    def until(self, condition, what, timeout=30):
        end = time.time() + timeout
        while time.time() < end:
            device = self.api("/device")
            if condition(device):
                return device
            time.sleep(0.05)
        raise RuntimeError(f"the device never {what}: {self.api('/device')}")


def open_home(driver, base):
    driver.get("about:blank")
    onboard(driver, base)
    driver.get(base + "/#/home")
    wait_for(driver, "return document.querySelector('[data-role=start-next]') && !Array.from(document.querySelectorAll('main p')).some(p => p.textContent === 'Loading…')")


def start_button(driver):
    return driver.execute_script("const b = document.querySelector('[data-role=start-next]'); return b ? b.textContent : null")


def summary_window(daemon):
    """A Passive 10s session ended after its first boundary, then start, discard and the CLI's
    discard while its summary shows (3 s)."""
    started = daemon.api("/device/start", "POST", {"mode": "passive", "interval": "10s", "count": 2})
    check("summary: the Passive 10s session starts", started["device"]["mode"] == "passive", started)
    daemon.until(lambda d: (d["device"].get("repetitions_done") or 0) >= 1, "reached its first boundary", timeout=20)
    ended = daemon.api("/device/end", "POST", {})
    session_id = ended["device"]["session_id"]
    check("summary: ended, the device shows its summary", ended["device"]["state"] == "SessionSummary", ended["device"])
    status, code, message = daemon.refused("/device/discard")
    check("summary: discard is refused 409 nothing_running", (status, code) == (409, "nothing_running"), (status, code, message))
    check("summary: discard says the session is already saved, not discarded",
          message == f"Nothing to discard: the session that just ended ({session_id}) is already saved as completed.", message)
    status, code, message = daemon.refused("/device/start")
    check("summary: start is refused 409 busy", (status, code) == (409, "busy"), (status, code, message))
    check("summary: start says to wait, not that a session runs",
          message == f"The session that just ended ({session_id}) is saved and the device is showing its summary; start again in a moment."
          and "already running" not in message, message)
    cli = subprocess.run([daemon.binary, "discard", "--socket", daemon.socket], capture_output=True, text=True, timeout=10)
    check("summary: `chronoception discard` says the same words and exits 1",
          cli.returncode == 1 and cli.stderr.strip() == f"error: Nothing to discard: the session that just ended ({session_id}) is already saved as completed.",
          (cli.returncode, cli.stdout, cli.stderr))
    idle = daemon.until(lambda d: d["device"]["state"] == "Idle", "came back to idle", timeout=10)
    stored = daemon.api(f"/sessions/{session_id}")
    check("summary: the session stays completed", stored.get("status") == "completed", stored.get("status"))
    check("summary: it is the last session", (idle.get("last_session") or {}).get("session_id") == session_id, idle.get("last_session"))
    check("summary: the device would start it again (nothing changed since)",
          idle["device"].get("next_session") == {"mode": "passive", "interval": "10s", "interval_seconds": 10, "count": 2, "in_study": False},
          idle["device"].get("next_session"))


UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)


def watch_messages(driver):
    """Every text a status line (Home's answer, the live card's) shows from now on, kept in
    window.__shown across the card's rebuilds (a MutationObserver), so a message shown for a moment
    and replaced still counts."""
    driver.execute_script("""
      window.__shown = window.__shown || [];
      const seen = () => document.querySelectorAll('[role=status]').forEach((n) => {
        const t = n.textContent; if (t && window.__shown[window.__shown.length - 1] !== t) window.__shown.push(t); });
      new MutationObserver(seen).observe(document.body, { subtree: true, childList: true, characterData: true });""")


def home_message(driver):
    return driver.execute_script("const m = document.querySelector('#primary-action + p'); return m ? m.textContent : null")


def session_words(driver, daemon, artifacts, size, theme, first=False):
    """Home's start button was pressed: Home says what started in its own words, then the live card's
    Discard says what it did, both without the session's id (which the API's message carries)."""
    try:
        wait_for(driver, "const m = document.querySelector('#primary-action + p'); return m && m.textContent.startsWith('Started')")
    except Exception:
        pass
    check(f"words {size} {theme}: Home says what started, in its own words",
          home_message(driver) == "Started Challenge 15s ×2 on the device.", home_message(driver))
    wait_for(driver, "return document.querySelector('#live-card [data-live-action=discard]')")
    screenshot(driver, os.path.join(artifacts, f"nextsession-started-{size}-{theme}.png"))
    driver.execute_script("window.confirm = () => true")
    driver.find_element(By.CSS_SELECTOR, "#live-card [data-live-action=discard]").click()
    try:
        wait_for(driver, "return typeof live !== 'undefined' && live && live.message && live.message !== 'Sending…' && document.querySelector('#live-card [data-role=end]')")
    except Exception:
        pass
    said = driver.execute_script("return live ? live.message : null")
    # Discarded before its first press, the session was never started: it leaves no row (issue 33).
    check(f"words {size} {theme}: Discard answers in the page's words", said == "Discarded before it began: nothing saved.", said)
    try:
        wait_for(driver, "const e = document.querySelector('#live-card [data-role=end]'); return e && e.textContent.startsWith('Discarded')")
    except Exception:
        pass
    end = driver.execute_script("const e = document.querySelector('#live-card [data-role=end]'); return e ? e.textContent : null")
    check(f"words {size} {theme}: the ended card says the same", end == "Discarded before it began: nothing saved.", end)
    check(f"words {size} {theme}: with the start button back, Home's answer about the start is gone",
          home_message(driver) == "", home_message(driver))
    finished = driver.execute_script("return live && live.finished ? live.finished : null") or {}
    listed = [s["session_id"] for s in daemon.api("/sessions?limit=50")["sessions"]]
    check(f"words {size} {theme}: the device kept no row of a session discarded before its first press",
          finished.get("recorded") is False and finished.get("session_id") not in listed, (finished, listed[:3]))
    screenshot(driver, os.path.join(artifacts, f"nextsession-discarded-{size}-{theme}.png"))
    if first:
        # What the API itself says (for its clients) names the session: the page's words replace it.
        started = daemon.api("/device/start", "POST", {})
        discarded = daemon.api("/device/discard", "POST", {})
        check("words: the API's own messages carry the session's id (the page must not show them)",
              UUID.search(started["message"]) and UUID.search(discarded["message"]), (started["message"], discarded["message"]))
    daemon.until(lambda d: d["device"]["state"] == "Idle", "came back to idle", timeout=10)


def summary_refusal_words(driver, daemon, artifacts):
    """A Passive 10s ×1 session completes on its own (its summary then shows for 3 s): Home's start
    button, back as soon as the session finished, is refused busy; the page keeps the device's
    sentence without the session's id in it."""
    wait_for(driver, "return document.querySelector('[data-role=start-next]')")
    session_id = daemon.api("/device/start", "POST", {"mode": "passive", "interval": "10s", "count": 1})["device"]["session_id"]
    wait_for(driver, "const b = document.querySelector('[data-role=start-next]'); const e = document.querySelector('#live-card [data-role=end]');"
                     " return e && e.textContent === 'Completed and saved.' && b && !b.closest('[hidden]')", timeout=20)
    driver.find_element(By.CSS_SELECTOR, "[data-role=start-next]").click()
    try:
        wait_for(driver, "const m = document.querySelector('#primary-action + p'); return m && m.textContent.startsWith('The session')")
    except Exception:
        pass
    check("words: start refused in the summary window keeps the device's sentence without the id",
          home_message(driver) == "The session that just ended is saved and the device is showing its summary; start again in a moment.",
          home_message(driver))
    check("words: the session that just ended stays completed", daemon.api(f"/sessions/{session_id}")["status"] == "completed")
    screenshot(driver, os.path.join(artifacts, "nextsession-refused-phone-dark.png"))
    daemon.until(lambda d: d["device"]["state"] == "Idle", "came back to idle", timeout=10)


def main():
    args = arguments()
    started = time.time()
    work = tempfile.mkdtemp(prefix="web-nextsession-")
    data = os.path.join(work, "data")
    daemon = driver = None
    try:
        daemon = Daemon(args.binary, data, work, "first")
        summary_window(daemon)

        # The defaults change after that session, through the API.
        settings = daemon.api("/settings")
        daemon.api("/settings", "PATCH", {"version": settings["version"],
                                          "values": {"default-mode": "challenge", "default-interval": "15s", "default-attempts": "2"}})
        want = {"mode": "challenge", "interval": "15s", "interval_seconds": 15, "count": 2, "in_study": False}
        seen = daemon.until(lambda d: d["device"].get("next_session") == want, "named the new defaults as its next session", timeout=10)
        check("defaults: GET /device's next_session names them", seen["device"]["next_session"] == want, seen["device"])

        driver = make_driver()
        for size, theme in views(driver):
            open_home(driver, daemon.base)
            check(f"home {size} {theme}: the button names what the device will start",
                  start_button(driver) == "Start Challenge 15s ×2 on the device", start_button(driver))
            last = driver.find_element(By.CSS_SELECTOR, "[aria-labelledby=h-last]").text
            check(f"home {size} {theme}: the last session is still shown as the Passive one", "Passive · 10s" in last, last)
            width = driver.execute_script("return document.documentElement.scrollWidth")
            check(f"home {size} {theme}: no sideways scrolling", width <= SIZES[size][0], width)
            screenshot(driver, os.path.join(args.artifacts, f"nextsession-home-{size}-{theme}.png"))

        # With Home open, a default changed elsewhere renames the button from the device's state event.
        def change_attempts(count):
            version = daemon.api("/settings")["version"]
            daemon.api("/settings", "PATCH", {"version": version, "values": {"default-attempts": str(count)}})
        change_attempts(3)
        try:
            wait_for(driver, "const b = document.querySelector('[data-role=start-next]'); return b && b.textContent.includes('×3')")
        except Exception:
            pass
        check("live: a default changed while Home is open renames the button without a reload",
              start_button(driver) == "Start Challenge 15s ×3 on the device", start_button(driver))
        change_attempts(2)
        daemon.until(lambda d: d["device"].get("next_session") == want, "named ×2 again", timeout=10)

        # A restart on the same data: the change survives it.
        daemon.stop()
        daemon = Daemon(args.binary, data, work, "restarted")
        check("restart: next_session still names the new defaults", daemon.api("/device")["device"].get("next_session") == want,
              daemon.api("/device")["device"].get("next_session"))
        set_view(driver, "desktop", "light")
        open_home(driver, daemon.base)
        check("restart: the button still names them", start_button(driver) == "Start Challenge 15s ×2 on the device", start_button(driver))
        watch_messages(driver)
        driver.find_element(By.CSS_SELECTOR, "[data-role=start-next]").click()
        running = daemon.until(lambda d: d["device"]["session_in_progress"], "started the session the button named", timeout=10)
        device = running["device"]
        check("restart: pressing it starts exactly that on the device",
              (device["mode"], device["interval"], device["attempt_count"]) == ("challenge", "15s", 2), device)
        session_words(driver, daemon, args.artifacts, "desktop", "light", first=True)
        set_view(driver, "phone", "dark")
        open_home(driver, daemon.base)
        watch_messages(driver)
        driver.find_element(By.CSS_SELECTOR, "[data-role=start-next]").click()
        session_words(driver, daemon, args.artifacts, "phone", "dark")
        summary_refusal_words(driver, daemon, args.artifacts)
        shown = driver.execute_script("return window.__shown")
        check("words: no message shown on the page carries a session id", shown and not any(UUID.search(text) for text in shown),
              [text for text in shown if UUID.search(text)] or shown)
        # A refused request is logged by Chromium as a failed load (409): not a script error.
        errors = [e for e in js_errors(driver) if "status of 409" not in e.get("message", "")]
        check("no script errors", not errors, errors)
    except Exception as error:  # a crash is a failure with its reason, and the servers still stop
        check.crash(f"{error.__class__.__name__}", error)
    finally:
        if driver:
            driver.quit()
        if daemon:
            daemon.stop()
        shutil.rmtree(work, ignore_errors=True)
    print(f"web nextsession: {check.passed} passed, {check.failed} failed ({time.time() - started:.0f} s)")
    check.finish(args.counts)


if __name__ == "__main__":
    main()
