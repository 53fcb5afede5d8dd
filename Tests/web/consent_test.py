#!/usr/bin/env python3
"""Consent before a study (issue 35 item 1, docs/STUDIES.md "Consent"), end to end, in headless
Chromium:

- a real collector loads a protocol with a description and a consent text (written with markup, which
  the page must show as text) and assigns it; the device receives it with `sync now`;
- `chronoception run` starts: GET /device's study says consent is needed and nothing is due; `status`
  prints the line that says to open the page; `POST /device/start {}` is refused with consent_needed;
- Home shows the protocol's name, description and consent text as text (no element made from the
  collector's markup) with Accept and Decline, at phone and desktop width in both themes, without
  sideways scrolling; Accept is pressed: Home's line says the session is due and its start button
  names the study's session; GET /study/consent says accepted;
- Settings shows the study as accepted with a Withdraw control;
- the daemon stops, `sync now` takes the decision to the collector: `collector devices` and its
  GET /api/v1/devices show it accepted, and the tidy export's rows would carry it.
Run by Tests/web/run (WEB_ONLY=consent)."""
import json, os, re, shutil, subprocess, tempfile, time, urllib.error

import webparts
from browser import js_errors, screenshot, wait_for
from selenium.webdriver.common.by import By
from webparts import SIZES, Checks, arguments, make_driver, onboard, run, set_view, views

check = Checks("consent")
CODE = re.compile(r"^  ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})$", re.M)
CONSENT = "I agree to take part. <b>Not bold</b> & <img src=x onerror=alert(1)> stay text."
DESCRIPTION = "Two Challenge sessions in one day, to see how timing settles."
PROTOCOL = json.dumps({
    "name": "consent-2026", "version": 1, "description": DESCRIPTION, "consent": CONSENT,
    "schedule": {"sessions_per_day": 2, "days": 1, "minimum_gap_minutes": 0},
    "blocks": [{"name": "train", "mode": "challenge", "sessions": 2, "interval": "10s", "attempts": 1}],
}, indent=2)
NEEDED = "Study consent-2026 · consent needed: open the device's page to read it and accept or decline"
DUE = "Study consent-2026 · day 1 · session 1 of 2 · due now"


def text_of(driver, selector):
    return driver.execute_script(f"const e = document.querySelector('{selector}'); return e ? e.textContent : null")


def open_home(driver, base, ready):
    driver.get("about:blank")
    onboard(driver, base)
    driver.get(base + "/#/home")
    wait_for(driver, f"return document.querySelector('{ready}') && !Array.from(document.querySelectorAll('main p')).some(p => p.textContent === 'Loading…')")


def main():
    args = arguments()
    started = time.time()
    work = tempfile.mkdtemp(prefix="web-consent-")
    data = os.path.join(work, "data")
    os.makedirs(data)
    state_file = os.path.join(work, "state.json")
    collector = daemon = driver = None
    try:
        collector = webparts.Collector(args.binary, work)
        protocol = os.path.join(work, "consent-2026.json")
        with open(protocol, "w") as file:
            file.write(PROTOCOL)
        collector.cli("protocol", "load", protocol)
        code = CODE.search(collector.cli("enrol", "consent-web", "--participant", "P-consent", "--url", collector.url)).group(1)
        collector.cli("protocol", "assign", "consent-2026", "--participant", "P-consent")
        run(args.binary, "sync", "add", collector.url, "--code", code, "--board", "desktop", "--data-dir", data)
        pushed = run(args.binary, "sync", "now", "--data-dir", data)
        check("sync: the assignment arrives", "study consent-2026@1 assigned to P-consent" in pushed, pushed)

        daemon = webparts.Daemon(args.binary, data, os.path.join(work, "daemon.log"), state_file=state_file)
        device = daemon.api("/device")["device"]
        study = device.get("study") or {}
        check("device: consent needed, nothing due, the line says to open the page",
              (study.get("consent"), study.get("due_now"), study.get("line")) == ("needed", False, NEEDED), study)
        check("device: the tap starts the person's own session, not the study's", (device.get("next_session") or {}).get("in_study") is False,
              device.get("next_session"))
        status = subprocess.run([args.binary, "status", "--state-file", state_file], capture_output=True, text=True, timeout=10)
        check("status: says consent is needed and to open the page", NEEDED in status.stdout.splitlines(), status.stdout)
        status_json = subprocess.run([args.binary, "status", "--json", "--state-file", state_file], capture_output=True, text=True, timeout=10)
        try:
            shown = (json.loads(status_json.stdout).get("study") or {}).get("consent")
        except ValueError:
            shown = status_json.stdout[:300]
        check("status --json: study.consent is needed", shown == "needed", shown)
        try:
            daemon.api("/device/start", "POST", {})
            refused = None
        except urllib.error.HTTPError as error:  # a 4xx: the API's error body
            refused = f"{error.code} {error.read().decode(errors='replace')}"
        check("POST /device/start {}: refused, consent_needed", refused is not None and refused.startswith("409") and "consent_needed" in refused, refused)
        pending = daemon.api("/study/consent").get("study") or {}
        check("GET /study/consent: the protocol's words",
              (pending.get("protocol"), pending.get("description"), pending.get("consent_text"), pending.get("consent"))
              == ("consent-2026", DESCRIPTION, CONSENT, "needed"), pending)

        driver = make_driver()
        for size, theme in views(driver):
            open_home(driver, daemon.base, "[data-role=consent-accept]")
            check(f"home {size} {theme}: the consent text, as text", text_of(driver, "[data-role=consent-text]") == CONSENT,
                  text_of(driver, "[data-role=consent-text]"))
            made = driver.execute_script("return document.querySelectorAll('[data-role=consent] b, [data-role=consent] img').length")
            check(f"home {size} {theme}: no element made from the collector's markup", made == 0, made)
            check(f"home {size} {theme}: the protocol's name and description",
                  (text_of(driver, "[data-role=consent-protocol]"), text_of(driver, "[data-role=consent-description]")) == ("consent-2026", DESCRIPTION))
            check(f"home {size} {theme}: Accept and Decline", text_of(driver, "[data-role=consent-decline]") == "Decline")
            width = driver.execute_script("return document.documentElement.scrollWidth")
            check(f"home {size} {theme}: no sideways scrolling", width <= SIZES[size][0], width)
            screenshot(driver, os.path.join(args.artifacts, f"consent-home-{size}-{theme}.png"))

        set_view(driver, "desktop", "light")
        open_home(driver, daemon.base, "[data-role=consent-accept]")
        driver.find_element(By.CSS_SELECTOR, "[data-role=consent-accept]").click()
        wait_for(driver, f"return !document.querySelector('[data-role=consent]') && document.querySelector('[data-role=study-line]') && document.querySelector('[data-role=study-line]').textContent === {json.dumps(DUE)}",
                 timeout=30)  # the accept's answer, then the daemon's next state event: slow beside the arm64 builds
        check("accepted: Home's line says the study's session is due", text_of(driver, "[data-role=study-line]") == DUE, text_of(driver, "[data-role=study-line]"))
        label = "Start the study's next session (Challenge 10s ×1) on the device"
        wait_for(driver, f"return document.querySelector('[data-role=start-next]') && document.querySelector('[data-role=start-next]').textContent === {json.dumps(label)}")
        check("accepted: the start button names the study's session", text_of(driver, "[data-role=start-next]") == label, text_of(driver, "[data-role=start-next]"))
        screenshot(driver, os.path.join(args.artifacts, "consent-accepted-desktop-light.png"))
        answered = daemon.api("/study/consent").get("study") or {}
        check("GET /study/consent: accepted, on version 1", answered.get("consent") == "accepted" and (answered.get("decision") or {}).get("version") == 1, answered)

        driver.get(daemon.base + "/#/settings")
        wait_for(driver, "return document.querySelector('[data-role=consent-withdraw]')")
        check("settings: the study's consent, accepted, with Withdraw",
              (text_of(driver, "[data-role=consent-standing]") or "").startswith("You accepted."), text_of(driver, "[data-role=consent-standing]"))
        driver.execute_script("document.querySelector('[data-role=consent-settings]').scrollIntoView()")
        screenshot(driver, os.path.join(args.artifacts, "consent-settings-desktop-light.png"))
        errors = js_errors(driver)
        check("no script errors", not errors, errors)

        # The decision reaches the collector with the next exchange.
        daemon.stop()
        daemon = None
        run(args.binary, "sync", "now", "--data-dir", data)
        table = collector.cli("devices")
        check("collector devices: the consent column says accepted", "accepted consent-2026@1" in table, table)
        listed = collector.api("/devices")
        devices = listed.get("devices", listed) if isinstance(listed, dict) else listed
        consent = (devices[0].get("consent") if devices else None) or {}
        check("collector GET /api/v1/devices: the decision, the study not stopped",
              (consent.get("decision"), consent.get("protocol"), consent.get("protocol_version"), consent.get("study_stopped"))
              == ("accepted", "consent-2026", 1, False), consent)
    except Exception as error:
        check.crash(f"{error.__class__.__name__}", error)
    finally:
        if driver:
            driver.quit()
        if daemon:
            daemon.stop()
        if collector:
            collector.stop()
        shutil.rmtree(work, ignore_errors=True)
    print(f"web consent: {check.passed} passed, {check.failed} failed ({time.time() - started:.0f} s)")
    check.finish(args.counts)


if __name__ == "__main__":
    main()
