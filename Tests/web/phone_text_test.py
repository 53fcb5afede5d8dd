#!/usr/bin/env python3
"""The companion at phone width (390x844) as a first hour on the Raspberry Pi image shows it, in
headless Chromium against its own `chronoception run` (desktop board, test mode) whose board file
lies under a long path and whose wall clock is not synchronised:

- no view is wider than the phone: the document's scrollWidth stays within 390 px on Welcome (the
  board file's long path wraps) and on every other view;
- no view shows a backtick (the state file's health text names a command: Home says it in words and
  links to Settings' health log card);
- a Challenge attempt whose error is under half a second shows `+0s` beside its percentage on the
  session page, as the command line's "Late by 0s" (SPEC §1's display rule, the same on every surface).
Screenshots of every view at phone width, light and dark. Run by Tests/web/run (WEB_ONLY=phone_text)."""
import os, re, shutil, tempfile, time

from browser import js_errors, screenshot, wait_for
from webparts import SIZES, Checks, Daemon, arguments, loaded, make_driver, onboard, open_page, set_view

check = Checks("phone_text")
PHONE_WIDTH = SIZES["phone"][0]
# The state file's held-back form (HealthNotes.stateText), for a host whose kernel reports the wall
# clock synchronised: then no record is held, and the page is given the daemon's words to map.
HELD_BACK = "on (1 held back: the wall clock is not synchronised; `chronoception settings set wall-clock-check off` trusts it)"


def challenge_near_zero(daemon):
    """A Challenge 10s ×1 pressed about 0.3 s late: its error rounds to 0 s, its percentage does not."""
    daemon.api("/device/start", "POST", {"mode": "challenge", "interval": "10s", "count": 1})
    time.sleep(0.3)
    daemon.press()
    time.sleep(10.3)
    daemon.press()
    deadline = time.time() + 20
    while time.time() < deadline:
        if daemon.api("/device")["device"]["state"] == "Idle":
            break
        time.sleep(0.2)
    return daemon.api("/sessions?limit=1")["sessions"][0]["session_id"]


def width(driver):
    return driver.execute_script("return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")


def wider_than_phone(driver):
    """The elements whose right edge passes the viewport: what to fix when the page is too wide."""
    return driver.execute_script("""
      return Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > 390.5
        && !e.closest('.table-wrap')).slice(0, 3).map(e => e.tagName + ': ' + e.textContent.slice(0, 60));""")


def visible_text(driver):
    return driver.execute_script("return document.body.innerText + '\\n' + document.title")


def main():
    args = arguments()
    work = tempfile.mkdtemp(prefix="phone-text-")
    boards = os.path.join(work, "a-board-directory-name-that-is-far-too-long-for-a-phone-" + "x" * 60)
    shutil.copytree("boards", boards)
    daemon = Daemon(args.binary, os.path.join(work, "data"), os.path.join(work, "daemon.log"),
                    "--board", os.path.join(boards, "desktop.yaml"))
    driver = None
    try:
        session_id = challenge_near_zero(daemon)
        health = daemon.api("/device")["device"]["health"]
        print(f"  health after the session: {health}")
        # A synchronised host holds nothing back: the page then gets the held-back text to show.
        scripts = () if "held back" in health else ("""
          const original = window.fetch;
          window.fetch = async (...a) => { const r = await original(...a);
            if (!String(a[0]).endsWith('/device')) return r;
            const body = await r.json(); body.device.health = %r;
            return new Response(JSON.stringify(body), { status: r.status, headers: r.headers }); };""" % HELD_BACK,)
        driver = make_driver(scripts=scripts)
        base = daemon.base

        def view(name, hash_, theme):
            set_view(driver, "phone", theme)
            open_page(driver, base, hash_)
            if name == "welcome":
                wait_for(driver, "return document.querySelector('[data-role=setup]')")
            if name == "home":
                wait_for(driver, "return document.querySelector('[data-role=device-state]')")
            time.sleep(0.2)
            screenshot(driver, os.path.join(args.artifacts, f"phone-text-{name}-phone-{theme}.png"))

        day = time.strftime("%Y-%m-%d")
        pages = [("welcome", "#/welcome"), ("home", "#/home"), ("progress", "#/progress"), ("learn", "#/learn"),
                 ("settings", "#/settings"), ("sessions", "#/sessions"), ("day", f"#/day/{day}"),
                 ("session", f"#/session/{session_id}")]
        driver.get(base + "/")
        driver.execute_script("localStorage.clear()")
        for theme in ("light", "dark"):
            for name, hash_ in pages:
                if name == "home":
                    onboard(driver, base)
                view(name, hash_, theme)
                check(f"{name} ({theme}): no wider than the phone", width(driver) <= PHONE_WIDTH, (width(driver), wider_than_phone(driver)))
                text = visible_text(driver)
                check(f"{name} ({theme}): no backtick shown", "`" not in text,
                      [line for line in text.splitlines() if "`" in line][:3])
                if name == "welcome":
                    check("welcome: the board's long path is shown whole", os.path.join(boards, "desktop.yaml") in text.replace("\n", ""))
                if name == "home":
                    line = driver.execute_script("const e = document.querySelector('[data-role=health-line]'); return e ? e.innerText : Array.from(document.querySelectorAll('main p')).map(p => p.innerText).find(t => t.startsWith('Health log')) || ''")
                    check(f"home ({theme}): the held-back health line in words", line.startswith("Health log: on. 1 record waits until the device's clock has been set")
                          and "chronoception" not in line and "wall-clock-check" not in line, line)
                    check(f"home ({theme}): the health line links to Settings",
                          driver.execute_script("const a = document.querySelector('[data-role=health-line] a'); return a && a.getAttribute('href')") == "#/settings")
                if name == "session":
                    cells = driver.execute_script("return Array.from(document.querySelectorAll('tbody tr:first-child td')).map(td => td.innerText)")
                    check(f"session ({theme}): a sub-second error reads +0s beside its percentage",
                          len(cells) == 5 and cells[2] == "+0s" and re.fullmatch(r"[1-4]\.\d%", cells[3]) is not None, cells)
                    summary = driver.execute_script("return document.querySelector('main section.card').innerText")
                    check(f"session ({theme}): its typical error and bias as the command line's summary says them", "typical error 0s · no bias" in summary, summary)
        errors = js_errors(driver)
        check("no script errors", not errors, errors[:3])
    finally:
        if driver:
            driver.quit()
        daemon.stop()
        shutil.rmtree(work, ignore_errors=True)
    print(f"phone_text: {check.passed} passed, {check.failed} failed")
    check.finish(args.counts)


if __name__ == "__main__":
    main()
