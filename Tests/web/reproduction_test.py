#!/usr/bin/env python3
"""Reproduction on the companion's live card, in headless Chromium against a real `chronoception run
--mode reproduction` (desktop board, test mode, a 1.5 s test interval): the idle tap starts it; the
card says the interval is being presented (state Presenting), then asks for the reproduction's first
press, then says it is reproducing — never a clock, nothing ticking; each attempt's feedback arrives;
the session page shows the presented interval and the ratio in words; no route, JSON or backtick, no
script error. Screenshots at phone and desktop width, light and dark. Run by Tests/web/run
(WEB_ONLY=reproduction)."""
import os, re, shutil, tempfile, time

from browser import js_errors, wait_for
from webparts import Checks, Daemon, api, arguments, loaded, make_driver, onboard, parser, set_view

CLOCK = re.compile(r"\b\d+:\d\d\b|\b\d+(\.\d+)?\s?s\b(?! ·)")
CODE_WORDS = re.compile(r"`|/api/|\b(GET|POST|PATCH|PUT|DELETE) /|\{\"")

check = Checks("reproduction")


def card_state(driver):
    return driver.execute_script("const c = document.getElementById('live-card'); return c ? c.dataset.state : null")


def card_text(driver):
    return driver.execute_script("""const c = document.getElementById('live-card'); if (!c) return null;
      const copy = c.cloneNode(true); copy.querySelectorAll('[data-role=target], [data-role=feedback]').forEach(e => e.remove());
      return copy.textContent;""")


def test_live(binary, artifacts):
    work = tempfile.mkdtemp(prefix="web-reproduction-")
    data = os.path.join(work, "data")
    driver = make_driver()
    try:
        for size, theme in (("phone", "light"), ("desktop", "dark"), ("phone", "dark"), ("desktop", "light")):
            daemon = Daemon(binary, data, os.path.join(work, f"{size}-{theme}.log"),
                            "--mode", "reproduction", "--attempts", "2", "--test-interval-ms", "1500", feedback_ms=500)
            label = f"{size} {theme}"
            try:
                set_view(driver, size, theme)
                onboard(driver, daemon.base)
                driver.get(daemon.base + "/#/home")
                loaded(driver)
                wait_for(driver, "return document.querySelector('[data-role=device-state]') && document.querySelector('[data-role=device-state]').textContent.startsWith('Idle')")
                daemon.press()  # the idle tap starts the session: attempt 1's presentation begins
                wait_for(driver, "const c = document.getElementById('live-card'); return c && c.dataset.state === 'Presenting'")
                text = card_text(driver)
                check(f"{label}: the mode on the card", "Reproduction" in text, text)
                check(f"{label}: presenting, in words", "Attempt 1 of 2 — feel the interval between the two marks." in text, text)
                check(f"{label}: no clock while presenting", not CLOCK.search(text), text)
                status = driver.find_element("css selector", "[data-role=device-state]").text
                check(f"{label}: Home's device line says the interval is presented", status == "Presenting the interval: two marks.", status)
                driver.save_screenshot(os.path.join(artifacts, f"reproduction-presenting-{size}-{theme}.png"))
                for k in (1, 2):
                    wait_for(driver, f"const c = document.getElementById('live-card'); return c && c.dataset.state === 'WaitingForStart' && c.textContent.includes('Attempt {k} of 2')", timeout=10)
                    text = card_text(driver)
                    check(f"{label} attempt {k}: asks for the reproduction's first press", "press the button on the device to start your reproduction." in text, text)
                    daemon.press()  # the reproduction starts
                    wait_for(driver, f"const c = document.getElementById('live-card'); return c && c.dataset.state === 'AttemptRunning' && c.textContent.includes('Attempt {k} of 2')")
                    samples = []
                    for _ in range(12):
                        samples.append(card_text(driver))
                        time.sleep(0.05)
                    check(f"{label} attempt {k}: reproducing, in words", "reproducing; press the button when the same time has passed." in samples[0], samples[0])
                    check(f"{label} attempt {k}: no clock and nothing ticks while reproducing", len(set(samples)) == 1 and not CLOCK.search(samples[0]), set(samples))
                    if k == 1:
                        driver.save_screenshot(os.path.join(artifacts, f"reproduction-reproducing-{size}-{theme}.png"))
                    time.sleep(0.9)
                    daemon.press()  # the reproduction ends
                    wait_for(driver, f"return document.querySelectorAll('#live-card [data-role=feedback] li').length === {k}")
                wait_for(driver, "return document.querySelector('#live-card [data-role=end]')", timeout=15)
                driver.save_screenshot(os.path.join(artifacts, f"reproduction-ended-{size}-{theme}.png"))
                sid = driver.execute_script("return document.querySelector('#live-card a[href^=\"#/session/\"]').getAttribute('href')").split("/")[-1]
                saved = api(daemon.base, f"/sessions/{sid}")
                check(f"{label}: saved as reproduction with its presented interval and ratio", saved["mode"] == "reproduction"
                      and len(saved["attempts"]) == 2 and all(abs(a["presented_seconds"] - 1.5) < 0.06 and a["ratio"] > 0 for a in saved["attempts"]),
                      saved.get("attempts"))
                body = driver.execute_script("return document.body.innerText")
                check(f"{label}: no route, JSON or backtick on the page", not CODE_WORDS.search(body), CODE_WORDS.search(body))
                check(f"{label}: no script errors", not js_errors(driver), js_errors(driver))
            finally:
                daemon.stop()
    finally:
        driver.quit()
        shutil.rmtree(work, ignore_errors=True)


def main():
    args = arguments(parser(only=True))
    started = time.time()
    if not args.only or args.only in "reproduction":
        check.attempt("reproduction", lambda: test_live(args.binary, args.artifacts))
    print(f"screenshots in {args.artifacts}; {time.time() - started:.0f} s")
    print(f"web reproduction: {check.passed} passed, {check.failed} failed")
    check.finish(args.counts)


main()
