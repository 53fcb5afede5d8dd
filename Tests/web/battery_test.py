#!/usr/bin/env python3
"""The battery on Home (issue 37), against `chronoception run` in test mode on a copy of the desktop
board with a `battery:` section read from a temporary sysfs tree, in headless Chromium:

- at 50 % discharging GET /device's `battery` says so and Home shows "Battery: 50 % (discharging)";
- at 5 % the reading reaches the page without a reload: Home's line gives the stop level's reason, and
  POST /device/start answers 409 battery_low with the same words.
Run by Tests/web/run (WEB_ONLY=battery)."""
import os, shutil, tempfile, time, urllib.error

import webparts
from browser import js_errors, screenshot, wait_for
from webparts import Checks, arguments, make_driver, onboard, set_view

check = Checks("battery")
REASON = "The battery is at 5 %: no new session starts at or below 5 % (battery-stop). Charge it first."


def battery_line(driver):
    return driver.execute_script("const p = document.querySelector('[data-role=battery-line]'); return p ? p.textContent : null;")


def main():
    args = arguments()
    started = time.time()
    work = tempfile.mkdtemp(prefix="web-battery-")
    data = os.path.join(work, "data")
    supply = os.path.join(work, "sys", "class", "power_supply", "test_battery")
    daemon = driver = None
    try:
        os.makedirs(data)
        os.makedirs(supply)
        board = os.path.join(work, "desk-battery.yaml")
        with open("boards/desktop.yaml") as source, open(board, "w") as target:
            target.write(source.read().replace("name: desktop", "name: desk-battery")
                         + "\nbattery:\n  driver: power_supply\n  name: test_battery\n")
        def set_level(percent, status="Discharging"):
            for name, value in (("capacity", percent), ("status", status)):
                with open(os.path.join(supply, name), "w") as file:
                    file.write(f"{value}\n")
        set_level(50)
        daemon = webparts.Daemon(args.binary, data, os.path.join(work, "daemon.log"), "--board", board,
                                 "--battery-sysfs", os.path.join(work, "sys"), "--battery-poll-ms", "100",
                                 "--power-off-command", "/bin/true")
        device = daemon.until_device(lambda d: d.get("battery"), "read the battery")
        check("api: the battery's level", device["battery"] == {"percent": 50, "charge": "discharging", "level": "normal", "reason": None}, device)

        driver = make_driver()
        set_view(driver, "phone", "dark")
        driver.get("about:blank")
        onboard(driver, daemon.base)
        driver.get(daemon.base + "/#/home")
        wait_for(driver, "return document.querySelector('[data-role=battery-line]')")
        check("home: the battery line", battery_line(driver) == "Battery: 50 % (discharging)", battery_line(driver))
        shown = driver.execute_script("return !document.querySelector('[data-role=start-next]').hidden")
        check("home: the start button above the stop level", shown is True, shown)

        set_level(5)
        daemon.until_device(lambda d: d["battery"]["percent"] == 5, "read 5 %")
        wait_for(driver, "return document.querySelector('[data-role=battery-line]').textContent.includes('stop')")
        check("home: at the stop level the reason, without a reload",
              battery_line(driver) == f"Battery: 5 % (discharging, stop) {REASON}", battery_line(driver))
        hidden = driver.execute_script("return document.querySelector('[data-role=start-next]').hidden")
        check("home: no start button at the stop level", hidden is True, hidden)
        screenshot(driver, os.path.join(args.artifacts, "battery-home-stop-phone-dark.png"))
        try:
            daemon.api("/device/start", "POST", {})
            check("api: a start at the stop level is refused", False, "it started")
        except urllib.error.HTTPError as error:
            body = error.read().decode()
            check("api: a start at the stop level is 409 battery_low with the reason",
                  error.code == 409 and '"battery_low"' in body and REASON in body, (error.code, body))
        check("no script errors", not js_errors(driver), js_errors(driver))
    except Exception as error:  # a crash is a failure with its reason, and the servers still stop
        check.crash(f"{error.__class__.__name__}", error)
    finally:
        if driver:
            driver.quit()
        if daemon:
            daemon.stop()
        shutil.rmtree(work, ignore_errors=True)
    print(f"web battery: {check.passed} passed, {check.failed} failed ({time.time() - started:.0f} s)")
    check.finish(args.counts)


if __name__ == "__main__":
    main()
