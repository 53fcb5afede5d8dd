#!/usr/bin/env python3
"""Sync state and the glanceable-privacy switch in headless Chromium, against real processes on
loopback. Sync: a companion over a `simulate`-made store shows "not enrolled", then (after `collector
enrol` + `sync add`) the collector and the sessions pending, then after `sync now` none pending and a
last success; with the collector stopped, a failed `sync now` is shown in words (the words of `sync
status`, never JSON), and a failure older than a day puts one line on Home. Privacy: `chronoception
run` in test mode writing a state file; the switch on Settings changes the setting, the state file and
`status --format waybar` then show no score and no feedback, and switched off they show the score
again. Screenshots at phone and desktop width, light and dark. Run by Tests/web/run."""
import json, os, re, sqlite3, subprocess, tempfile, time

from browser import js_errors, screenshot, wait_for
from selenium.webdriver.common.by import By
from webparts import Checks, Collector, Companion, Daemon, arguments, make_driver, onboard, run, set_view, views


CODE = re.compile(r"^  ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})$", re.M)
DAY_NS = 86_400_000_000_000

check = Checks("sync")


def wait_until(what, condition, timeout=10):
    end = time.time() + timeout
    while time.time() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise RuntimeError(f"timed out waiting for {what}")


def open_settings(driver, base):
    """Settings, fresh from the server, once its Sync card has its answer."""
    driver.get(base + "/#/settings")
    driver.refresh()
    wait_for(driver, "const c = document.querySelector('[data-role=sync-card]'); return c && c.dataset.state")


def sync_card(driver):
    """The card's state, its badge and its lines (label → text) as shown."""
    return driver.execute_script("""
        const card = document.querySelector('[data-role=sync-card]');
        return {state: card.dataset.state, badge: card.querySelector('[data-role=sync-badge]').innerText,
                text: card.innerText,
                order: Array.from(card.querySelectorAll('[data-role=sync-line]')).map(l => l.innerText),
                lines: Object.fromEntries(Array.from(card.querySelectorAll('[data-role=sync-line]')).map(l => [l.dataset.label, l.innerText]))};""")


def scroll_to(driver, element):
    """The element's top just below the sticky header."""
    driver.execute_script("window.scrollTo(0, arguments[0].getBoundingClientRect().top + window.scrollY - 70)", element)
    time.sleep(0.1)


def no_overflow(driver):
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


def shots(driver, base, artifacts, name, page="settings"):
    """Phone and desktop, light and dark; each looked at for overflow and script errors."""
    for size, theme in views(driver):
        if page == "settings":
            open_settings(driver, base)
            target = driver.find_element(By.CSS_SELECTOR, "[data-role=sync-card]")
        else:
            driver.get(base + "/#/home")
            driver.refresh()
            target = wait_for(driver, "return document.querySelector('[data-role=sync-hint]')")
        check(f"{name} {size} {theme}: no horizontal overflow", no_overflow(driver))
        path = os.path.join(artifacts, f"sync-{name}-{size}-{theme}.png")
        if page == "settings" and size == "phone":
            scroll_to(driver, target)
            driver.save_screenshot(path)  # the viewport, scrolled to the card
        else:
            driver.execute_script("window.scrollTo(0, 0)")
            screenshot(driver, path)  # the whole page, from the top
    check(f"{name}: no script errors", not js_errors(driver), js_errors(driver))


def sessions(binary, data):
    """Newest first, as `sessions --json` lists them."""
    listed = json.loads(run(binary, "sessions", "--json", "--limit", "100", "--data-dir", data))
    return listed["sessions"] if isinstance(listed, dict) else listed


def cli_status(binary, data):
    return run(binary, "sync", "status", "--data-dir", data).strip().splitlines()


def test_sync(binary, work, artifacts, driver):
    data = os.path.join(work, "device")
    run(binary, "simulate", "--sessions", "5", "--seed", "3", "--quiet", "--data-dir", data)
    # Every finished session is pending, aborted and interrupted ones too (they travel with their status).
    completed = sum(1 for s in sessions(binary, data) if s["status"] != "running")
    companion = Companion(binary, data, os.path.join(work, "companion.log"))
    collector = Collector(binary, work)
    try:
        onboard(driver, companion.base)
        set_view(driver, "desktop", "light")

        open_settings(driver, companion.base)
        card = sync_card(driver)
        check("not enrolled: the card says so", card["state"] == "not-enrolled" and card["badge"] == "Not enrolled", card)
        check("not enrolled: the sync status line, word for word, commands as code",
              card["lines"].get("not enrolled") == "Not enrolled: run chronoception sync add http://HOST:PORT --code CODE (the code comes from chronoception-collector enrol NAME)"
              and driver.execute_script("return document.querySelectorAll('[data-role=sync-card] li code').length") >= 2, card)
        check("not enrolled: pending as sync status says it", card["lines"].get("pending") == f"Pending: {completed} sessions (sent after enrolment)", (completed, card))
        check("not enrolled: the page's lines are sync status's lines",
              [line.split(": ", 1)[1] for line in card["order"]] == [line.split(": ", 1)[1].replace("`", "") for line in cli_status(binary, data)],
              (card, cli_status(binary, data)))
        check("not enrolled: nothing on Home", not home_hint(driver, companion.base))

        code = CODE.search(collector.cli("enrol", "sync-web", "--url", collector.url)).group(1)
        run(binary, "sync", "add", collector.url, "--code", code, "--board", "desktop", "--data-dir", data)
        open_settings(driver, companion.base)
        card = sync_card(driver)
        check("enrolled: working, the collector and its name", card["state"] == "ok" and card["lines"].get("collector") == f"Collector: {collector.url} as 'sync-web'", card)
        check(f"enrolled: {completed} pending, never a success", card["lines"].get("pending") == f"Pending: {completed} sessions"
              and card["lines"].get("last success") == "Last success: never", card)
        screenshot(driver, os.path.join(artifacts, "sync-pending-desktop-light.png"))

        sent = run(binary, "sync", "now", "--data-dir", data)
        check("sync now sent them", f"{completed} pending" not in sent and "0 pending" in sent, sent)
        open_settings(driver, companion.base)
        card = sync_card(driver)
        check("after sync now: 0 pending", card["lines"].get("pending") == "Pending: 0 sessions", card)
        check("after sync now: a last success with its time", re.fullmatch(r"Last success: \d{4}-\d\d-\d\d \d\d:\d\d", card["lines"].get("last success", "")), card)
        check("after sync now: no failure", "failing" not in card["lines"] and card["state"] == "ok", card)

        collector.stop()
        failed_push = subprocess.run([binary, "sync", "now", "--data-dir", data], capture_output=True, text=True, timeout=60)
        check("sync now with the collector stopped fails with 68", failed_push.returncode == 68, (failed_push.returncode, failed_push.stderr))
        open_settings(driver, companion.base)
        card = sync_card(driver)
        failing = card["lines"].get("failing", "")
        check("failing: the card says so", card["state"] == "failing" and card["badge"] == "Failing", card)
        check("failing: why, in words, naming the collector and the fix",
              failing.startswith("Failing (") and "the first failure" in failing and f"127.0.0.1:{collector.port}" in failing
              and "check the collector is running" in failing, failing)
        check("failing: never JSON or backticks", not any(mark in card["text"] for mark in ("{", "}", "`", "\"error\"", "/api/")), card["text"])
        stored = json.loads(run(binary, "sync", "status", "--json", "--data-dir", data))["last_failure"]
        check("failing: the stored reason is the one shown", stored and stored.removeprefix("sync: ") in failing, (stored, failing))
        check("failing: last success kept", card["lines"].get("last success", "").startswith("Last success: 20"), card)
        check("failing for minutes: nothing on Home yet", not home_hint(driver, companion.base))
        shots(driver, companion.base, artifacts, "failing")

        # The last success two days ago (as if the device had been failing since): Home says so once.
        with sqlite3.connect(os.path.join(data, "chronoception.sqlite")) as db:
            db.execute("UPDATE sync_status SET last_success_unix_ns = last_success_unix_ns - ?", (2 * DAY_NS,))
        hint = home_hint(driver, companion.base)
        check("failing for more than a day: one line on Home, linking to Settings",
              hint and hint["text"].startswith("Sessions have not reached the collector for more than a day") and hint["href"].endswith("#/settings")
              and hint["count"] == 1, hint)
        shots(driver, companion.base, artifacts, "home-hint", page="home")
        return data
    finally:
        companion.stop()
        collector.stop()


def home_hint(driver, base):
    driver.get(base + "/#/home")
    driver.refresh()
    wait_for(driver, "return document.querySelector('[data-role=device-state]') || document.querySelector('.status.error')")
    time.sleep(0.3)  # the hint's own request
    return driver.execute_script("""
        const hints = document.querySelectorAll('[data-role=sync-hint]');
        return hints.length ? {text: hints[0].innerText, href: hints[0].querySelector('a').href, count: hints.length} : null;""")


def waybar(binary, state_file, data):
    done = subprocess.run([binary, "status", "--format", "waybar", "--state-file", state_file, "--data-dir", data],
                          capture_output=True, text=True, timeout=30)
    return json.loads(done.stdout)


def test_privacy(binary, work, artifacts, driver, data):
    state_file = os.path.join(work, "run", "state.json")
    os.makedirs(os.path.dirname(state_file), exist_ok=True)
    if data is None:  # the sync part crashed before making its store
        data = os.path.join(work, "device-privacy")
        run(binary, "simulate", "--sessions", "5", "--seed", "3", "--quiet", "--data-dir", data)
    # The last completed session must have a score (Passive has none): one more simulated session
    # until it has.
    for seed in range(100, 120):
        last = next((s for s in sessions(binary, data) if s["status"] == "completed"), {})
        if last.get("time_acuity_score") is not None:
            break
        run(binary, "simulate", "--sessions", "1", "--seed", str(seed), "--quiet", "--data-dir", data)
    score = last.get("time_acuity_score")
    # `run` with auto-start left on, ready at its first answer whatever its state.
    daemon = Daemon(binary, data, os.path.join(work, "run", "daemon.log"), state_file=state_file, auto_start=True, ready=lambda device: True)
    try:
        def state():
            try:
                return json.load(open(state_file))
            except (OSError, ValueError):
                return None
        before = wait_until("the state file with its last session", lambda: (s := state()) and s.get("last_session") and s)
        check("privacy off: the state file has the last session's score", before["glanceable_privacy"] is False
              and before["last_session"]["time_acuity_score"] == score and score is not None, (before, score))
        bar = waybar(binary, state_file, data)
        check("privacy off: the bar shows the score", f"· {score}" in bar["text"] and "Scores hidden" not in bar["tooltip"], bar)

        set_view(driver, "desktop", "light")
        onboard(driver, daemon.base)  # another origin (port): onboarding is per origin
        driver.get(daemon.base + "/#/settings")
        driver.refresh()
        box = wait_for(driver, "return document.getElementById('s-glanceable-privacy')")
        check("privacy: the switch starts off", not box.is_selected())
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
        box.click()
        wait_for(driver, "const n = document.querySelector('[data-role=privacy-card] .status'); return n && n.textContent === 'Saved.'")
        check("privacy: the page changed the setting", run(binary, "settings", "get", "glanceable-privacy", "--data-dir", data).strip().endswith("on"),
              run(binary, "settings", "get", "glanceable-privacy", "--data-dir", data))
        # The switch saved through Settings' own writer: the next save on the page is not refused as stale.
        save_defaults = driver.find_element(By.CSS_SELECTOR, "form.card button[type=submit]")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", save_defaults)
        save_defaults.click()
        wait_for(driver, "const n = document.querySelector('form.card .status'); return n && !n.hidden && n.textContent !== 'Saving…'")
        saved = driver.execute_script("return document.querySelector('form.card .status').textContent")
        check("privacy: saving the defaults after the switch is not a version conflict", saved == "Saved.", saved)
        after = wait_until("the state file rewritten withheld", lambda: (s := state()) and s.get("glanceable_privacy") and s)
        check("privacy on: state, mode and interval stay; no score and no feedback in the state file",
              after["state"] == "Idle" and after["mode"] and after["interval"] and after["last_session"]["date"] == before["last_session"]["date"]
              and after["last_session"]["time_acuity_score"] is None and after["last_feedback"] is None, after)
        bar = waybar(binary, state_file, data)
        check("privacy on: the bar shows no score and says why", "·" not in bar["text"] and "·" not in bar["tooltip"]
              and "Scores hidden (glanceable-privacy is on)." in bar["tooltip"], bar)
        status_text = run(binary, "status", "--state-file", state_file)
        check("privacy on: status in words says scores are hidden", "Scores: hidden (glanceable-privacy is on)" in status_text, status_text)
        for size, theme in views(driver):
            driver.refresh()
            card = wait_for(driver, "return document.querySelector('[data-role=privacy-card]')")
            scroll_to(driver, card)
            check(f"privacy card {size} {theme}: switch on, no overflow",
                  driver.find_element(By.ID, "s-glanceable-privacy").is_selected() and no_overflow(driver))
            driver.save_screenshot(os.path.join(artifacts, f"sync-privacy-{size}-{theme}.png"))

        set_view(driver, "desktop", "light")
        driver.refresh()
        box = wait_for(driver, "return document.getElementById('s-glanceable-privacy')")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
        box.click()
        wait_for(driver, "const n = document.querySelector('[data-role=privacy-card] .status'); return n && n.textContent === 'Saved.'")
        again = wait_until("the state file with the score again", lambda: (s := state()) and s.get("glanceable_privacy") is False and s)
        check("privacy off again: the score is back", again["last_session"]["time_acuity_score"] == score, again)
        check("privacy: no script errors", not js_errors(driver), js_errors(driver))
    finally:
        daemon.stop()


def main():
    args = arguments()
    started = time.time()
    with tempfile.TemporaryDirectory() as work:
        driver = make_driver()
        try:
            data = None
            for name, test in (("sync", lambda: test_sync(args.binary, work, args.artifacts, driver)),
                               ("privacy", lambda: test_privacy(args.binary, work, args.artifacts, driver, data))):
                result = check.attempt(name, test, f"{name}: ")  # a crash fails it, and the next still runs
                if name == "sync":
                    data = result
        finally:
            driver.quit()
    print(f"sync and privacy: {check.passed} passed, {check.failed} failed ({time.time() - started:.0f} s)")
    check.finish(args.counts)


if __name__ == "__main__":
    main()
