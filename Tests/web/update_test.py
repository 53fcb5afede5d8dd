#!/usr/bin/env python3
"""An update of the card on Home (issue 36), against `chronoception run` in test mode whose data
directory holds the update record (`chronoception-update.json`, as `chronoception update install`
writes it), in headless Chromium:

- while the update installs, GET /device's `update` gives its phase, progress and line, Home shows
  "Update: Installing 0.2.0: 40 %; …" and no start button, and POST /device/start answers 409 updating;
- the record rewritten as the new version's first boot and then its confirmation reaches the page
  without a reload: "Update: Updated to 0.2.0. (version …)", and the start button is back.
Run by Tests/web/run (WEB_ONLY=update)."""
import json, os, shutil, tempfile, time, urllib.error

import webparts
from browser import js_errors, screenshot, wait_for
from webparts import Checks, arguments, make_driver, onboard, set_view

check = Checks("update")
INSTALLING = "Installing 0.2.0: 40 %; no session starts until it is done."
REASON = "an update to 0.2.0 is installing; the device restarts when it is done."


def write_record(data, phase, **members):
    """The record as SlotUpdate writes it: the whole file replaced by a rename."""
    record = {"format": 1, "phase": phase, "from_version": "0.1.0", "to_version": "0.2.0", "from_slot": "A", "to_slot": "B",
              "started": "2026-12-04T10:00:00.000+00:00", **members}
    path = os.path.join(data, "chronoception-update.json")
    with open(path + ".new", "w") as file:
        file.write(json.dumps(record, indent=2) + "\n")
    os.replace(path + ".new", path)


def update_line(driver):
    return driver.execute_script("const p = document.querySelector('[data-role=update-line]'); return p && !p.hidden ? p.textContent : null;")


def start_shown(driver):
    return driver.execute_script("const b = document.querySelector('[data-role=start-next]'); return b ? !b.hidden : null;")


def main():
    args = arguments()
    started = time.time()
    work = tempfile.mkdtemp(prefix="web-update-")
    data = os.path.join(work, "data")
    daemon = driver = None
    try:
        os.makedirs(data)
        write_record(data, "installing", progress=40)
        daemon = webparts.Daemon(args.binary, data, os.path.join(work, "daemon.log"))
        device = daemon.api("/device")["device"]
        check("api: the update while it installs", device.get("update") == {
            "running_version": "0.1.0", "slot": None, "phase": "installing", "to_version": "0.2.0", "progress": 40, "line": INSTALLING},
            device.get("update"))
        try:
            daemon.api("/device/start", "POST", {})
            check("api: a start while the update installs is refused", False, "it started")
        except urllib.error.HTTPError as error:
            body = error.read().decode()
            check("api: a start while the update installs is 409 updating with the reason",
                  error.code == 409 and '"updating"' in body and REASON in body, (error.code, body))

        driver = make_driver()
        set_view(driver, "phone", "dark")
        driver.get("about:blank")
        onboard(driver, daemon.base)
        driver.get(daemon.base + "/#/home")
        wait_for(driver, "return document.querySelector('[data-role=update-line]')")
        check("home: the update line", update_line(driver) == f"Update: {INSTALLING} (version 0.1.0)", update_line(driver))
        check("home: no start button while the update installs", start_shown(driver) is False, start_shown(driver))
        state = driver.execute_script("return document.querySelector('[data-role=device-state]').textContent")
        check("home: idle, but not ready for a session", state == "Idle: no session starts now.", state)
        screenshot(driver, os.path.join(args.artifacts, "update-home-installing-phone-dark.png"))

        write_record(data, "trying")
        daemon.until_device(lambda d: (d.get("update") or {}).get("phase") == "trying", "read the trial boot's record")
        write_record(data, "confirmed", finished="2026-12-04T10:03:00.000+00:00")
        daemon.until_device(lambda d: (d.get("update") or {}).get("phase") == "confirmed", "read the confirmation")
        wait_for(driver, "return document.querySelector('[data-role=update-line]').textContent.includes('Updated')")
        # (The version is the running binary's, 0.1.0, whatever this made-up record says; no slot off a card.)
        check("home: the confirmation without a reload", update_line(driver) == "Update: Updated to 0.2.0. (version 0.1.0)", update_line(driver))
        wait_for(driver, "return !document.querySelector('[data-role=start-next]').hidden")
        check("home: the start button once the update has confirmed", start_shown(driver) is True, start_shown(driver))
        state = driver.execute_script("return document.querySelector('[data-role=device-state]').textContent")
        check("home: ready for a session again", state == "Idle: ready for a session.", state)
        reply = daemon.api("/device/start", "POST", {})
        check("api: a start once the update has confirmed", bool((reply.get("device") or {}).get("session_id")), reply)
        check("no script errors", not js_errors(driver), js_errors(driver))
    except Exception as error:  # a crash is a failure with its reason, and the servers still stop
        check.crash(f"{error.__class__.__name__}", error)
    finally:
        if driver:
            driver.quit()
        if daemon:
            daemon.stop()
        shutil.rmtree(work, ignore_errors=True)
    print(f"web update: {check.passed} passed, {check.failed} failed ({time.time() - started:.0f} s)")
    check.finish(args.counts)


if __name__ == "__main__":
    main()
