#!/usr/bin/env python3
"""The web companion in headless Chromium (Selenium): every page at phone and desktop size in both
themes, onboarding once, chart gaps for missing days, the day drill-down, empty states, the live card
(never a clock during an attempt), page weight and same-origin-only requests. Run by Tests/web/run."""
import json, os, re, time

from browser import js_errors, screenshot, texts, wait_for
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait
from webparts import SIZES, THEMES, Checks, Daemon, api, arguments, onboard, parser, set_view
from webparts import make_driver as chromium

PAGE_BUDGET_BYTES = 100 * 1024

check = Checks()


# Replaces EventSource before any page script runs, so the test can play device events in the API's
# own format (event names and JSON of /api/v1/events) into the live card.
FAKE_EVENT_SOURCE = """
window.__sources = [];
window.EventSource = class {
  constructor(url) { this.url = url; this.listeners = {}; window.__sources.push(this); }
  addEventListener(name, fn) { (this.listeners[name] = this.listeners[name] || []).push(fn); }
  close() {}
};
window.__emit = (name, data) => {
  for (const s of window.__sources) for (const fn of (s.listeners[name] || [])) fn({ data: JSON.stringify(data) });
};
"""


def make_driver(fake_events=False):
    return chromium(scripts=(FAKE_EVENT_SOURCE,) if fake_events else ())


def loaded(driver):
    # Pages show "Loading…" until their API answers.
    wait_for(driver, "return document.querySelector('main h1') && !Array.from(document.querySelectorAll('main p.muted')).some(p => p.textContent === 'Loading…')")


def test_onboarding(base, artifacts):
    driver = make_driver()
    try:
        set_view(driver, "phone", "light")
        driver.get(base + "/")
        wait_for(driver, "return location.hash === '#/welcome'")
        loaded(driver)
        wait_for(driver, "return !document.body.textContent.includes('Asking the device')")
        text = driver.find_element(By.TAG_NAME, "main").text
        check("onboarding: first visit shows it", "Welcome to Chronoception" in text, text[:200])
        check("onboarding: says training happens on the device", "training happens on the device" in text)
        check("onboarding: device setup status from the API", "No device attached" in text and "board check" in text, text)
        check("onboarding: no parts listed without a device", not driver.find_elements(By.CSS_SELECTOR, "[data-role=setup]"))
        check("onboarding: how to turn the health log off", "health-logging off" in text and "Now:" in text, text)
        driver.save_screenshot(os.path.join(artifacts, "onboarding-phone-light.png"))
        button = driver.find_element(By.ID, "finish-onboarding")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
        wait_for(driver, "return location.hash === '#/home'")
        driver.get(base + "/")
        time.sleep(0.3)
        check("onboarding: appears once (not on the next visit)", driver.execute_script("return location.hash") != "#/welcome")
        driver.get(base + "/#/progress")
        loaded(driver)
        check("onboarding: a deep link after it goes to its page", driver.execute_script("return location.hash") == "#/progress")
        check("onboarding: no script errors", not js_errors(driver), js_errors(driver))
    finally:
        driver.quit()


def page_list(base):
    recent = api(base, "/progress")["recent_sessions"]
    session = next(s for s in recent if s["status"] == "completed" and s["mode"] != "passive")
    day = next(p["day"] for p in api(base, "/progress/daily?days=30")["time_acuity"] if p["value"] is not None)
    return [("welcome", "#/welcome"), ("home", "#/home"), ("progress", "#/progress"), ("learn", "#/learn"),
            ("settings", "#/settings"), ("session", "#/session/" + session["session_id"]), ("day", "#/day/" + day),
            ("sessions", "#/sessions?mode=challenge")]


def test_pages(base, artifacts):
    driver = make_driver()
    figures = {}
    try:
        onboard(driver, base)
        pages = page_list(base)
        for size in SIZES:
            for theme in THEMES:
                set_view(driver, size, theme)
                for name, hash_ in pages:
                    driver.get("about:blank")
                    driver.get(base + "/" + hash_)
                    loaded(driver)
                    where = f"{name} {size} {theme}"
                    width = driver.execute_script("return document.documentElement.scrollWidth")
                    check(f"{where}: no sideways scrolling", width <= SIZES[size][0], f"scrollWidth {width}")
                    scheme = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
                    dark = sum(int(x) for x in re.findall(r"\d+", scheme)[:3]) < 200
                    check(f"{where}: {theme} theme applied", dark == (theme == "dark"), scheme)
                    ratio = driver.execute_script(CONTRAST)
                    check(f"{where}: text contrast at least 4.5:1", ratio >= 4.5, ratio)
                    unlabeled = driver.execute_script(
                        "return Array.from(document.querySelectorAll('input,select')).filter(e => !e.labels || !e.labels.length).map(e => e.outerHTML)")
                    check(f"{where}: every field has a label", not unlabeled, unlabeled)
                    shown = driver.find_element(By.TAG_NAME, "main").text
                    check(f"{where}: no 'null', 'undefined' or 'NaN' shown", not re.search(r"\b(null|undefined|NaN)\b", shown), shown[:300])
                    entries = driver.execute_script(
                        "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
                        ".map(e => ({name: e.name, size: e.decodedBodySize || 0, type: e.initiatorType || 'navigation'}))")
                    foreign = [e["name"] for e in entries if not e["name"].startswith(base)]
                    check(f"{where}: no external requests", not foreign, foreign)
                    page_bytes = sum(e["size"] for e in entries if "/api/v1/" not in e["name"])
                    data_bytes = sum(e["size"] for e in entries if "/api/v1/" in e["name"])
                    if size == "desktop" and theme == "light":
                        figures[name] = (page_bytes, data_bytes)
                    check(f"{where}: page under {PAGE_BUDGET_BYTES} bytes", page_bytes < PAGE_BUDGET_BYTES, page_bytes)
                    check(f"{where}: no script errors", not js_errors(driver), js_errors(driver))
                    screenshot(driver, os.path.join(artifacts, f"{name}-{size}-{theme}.png"))
        # Keyboard: the skip link is the first stop, then the navigation.
        set_view(driver, "desktop", "light")
        driver.get(base + "/#/home")
        loaded(driver)
        body = driver.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.TAB)
        first = driver.execute_script("return document.activeElement.textContent")
        check("keyboard: first Tab reaches the skip link", first == "Skip to content", first)
    finally:
        driver.quit()
    print("page weight (bytes: page files / API data, first load, desktop):")
    for name, (page_bytes, data_bytes) in figures.items():
        print(f"  {name:9s} {page_bytes:6d} / {data_bytes:6d}")


# The lowest contrast between visible text and the background actually behind it, for a sample of
# text elements (WCAG relative luminance).
CONTRAST = """
function rgb(c) { const m = c.match(/[\\d.]+/g).map(Number); return m.length > 3 && m[3] === 0 ? null : m.slice(0, 3); }
function lum(c) { const v = c.map(x => { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); }); return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; }
function bg(e) { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c) return c; } return [255, 255, 255]; }
let worst = 21;
for (const e of document.querySelectorAll('main p, main li, main h1, main h2, main td, main a, main button, main label, nav a')) {
  if (!e.offsetParent || !e.textContent.trim()) continue;
  const s = getComputedStyle(e); if (parseFloat(s.opacity) < 1) continue;
  if (e.closest('button[disabled]')) continue;
  const a = lum(rgb(s.color)), b = lum(bg(e));
  worst = Math.min(worst, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05));
}
return Math.round(worst * 100) / 100;
"""


def test_chart_gaps(base, artifacts):
    driver = make_driver()
    try:
        onboard(driver, base)
        set_view(driver, "desktop", "light")
        for days in (30, 90):
            series = api(base, f"/progress/daily?days={days}")["time_acuity"]
            nulls = sum(1 for p in series if p["value"] is None)
            check(f"chart {days}: the store has missing days", 0 < nulls < days, nulls)
            driver.get(base + "/#/progress")
            loaded(driver)
            if days == 90:
                driver.find_element(By.XPATH, "//button[normalize-space()='90 days']").click()
                wait_for(driver, "return document.querySelector('button[aria-pressed=\"true\"]') && Array.from(document.querySelectorAll('button[aria-pressed=\"true\"]')).some(b => b.textContent === '90 days') && document.querySelector('svg.chart')")
            chart = driver.find_elements(By.CSS_SELECTOR, "svg.chart")[0]
            missing = driver.execute_script("return Array.from(arguments[0].querySelectorAll('rect.missing')).map(r => r.dataset.day)", chart)
            check(f"chart {days}: every missing day is drawn as a gap", missing == [p["day"] for p in series if p["value"] is None], (len(missing), nulls))
            dots = len(chart.find_elements(By.CSS_SELECTOR, "circle.dot"))
            check(f"chart {days}: a point for each day with data, none for missing days", dots == days - nulls, (dots, days - nulls))
            segments = int(driver.execute_script("return arguments[0].querySelector('path.line').dataset.segments", chart))
            path = driver.execute_script("return arguments[0].querySelector('path.line').getAttribute('d')", chart)
            check(f"chart {days}: the line breaks at gaps (not drawn through zero)", segments >= 2 and path.count("M") == segments, (segments, path[:80]))
            bottom = driver.execute_script("return arguments[0].querySelector('line.axis').getAttribute('y1')", chart)
            zero_points = re.findall(r"[ML][\d.]+," + re.escape(bottom) + r"\b", path)
            low = [p for p in series if p["value"] == 0]
            check(f"chart {days}: no point sits at zero for a missing day", len(zero_points) == len(low), zero_points)
            chart.screenshot(os.path.join(artifacts, f"chart-{days}-days.png"))
        # Tapping a day opens that day's sessions.
        driver.get(base + "/#/progress")
        loaded(driver)
        link = driver.find_elements(By.CSS_SELECTOR, "svg.chart a")[-1]
        href = driver.execute_script("return arguments[0].getAttribute('href')", link)
        day = href.split("#/day/")[1]
        driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", link)
        wait_for(driver, f"return location.hash === '#/day/{day}'")
        loaded(driver)
        wait_for(driver, "return document.querySelector('main ul.plain')")
        shown = len(driver.find_elements(By.CSS_SELECTOR, "main ul.plain > li"))
        expected = len(api(base, f"/sessions?from={day}&to={day}&limit=100")["sessions"])
        check("chart: tapping a day opens that day's sessions", shown == expected and shown > 0, (day, shown, expected))
        driver.find_element(By.CSS_SELECTOR, "main ul.plain > li a").click()
        wait_for(driver, "return location.hash.startsWith('#/session/') && document.querySelector('main .phase')")
        check("day: a session opens its detail", "Session" in driver.find_element(By.TAG_NAME, "h1").text)
    finally:
        driver.quit()


def test_empty_states(empty_base, artifacts):
    driver = make_driver()
    try:
        onboard(driver, empty_base)
        for size in SIZES:
            set_view(driver, size, "dark")
            for name in ("home", "progress"):
                driver.get(empty_base + "/#/" + name)
                wait_for(driver, "return document.body.textContent.includes('No sessions yet')")
                text = driver.find_element(By.TAG_NAME, "main").text
                check(f"empty {name} {size}: explains how to run a first session", "chronoception challenge" in text and "press its button" in text, text[:200])
                driver.save_screenshot(os.path.join(artifacts, f"empty-{name}-{size}-dark.png"))
    finally:
        driver.quit()


CLOCK = re.compile(r"\d+:\d\d|\d+(\.\d+)?\s*(s|sec|seconds|ms)\b|elapsed", re.I)


def live_text(driver):
    # The card without the target label (the interval asked for, e.g. "30s", is not elapsed time)
    # and without the answered attempts' feedback list.
    return driver.execute_script("""
      const card = document.getElementById('live-card'); if (!card) return null;
      const copy = card.cloneNode(true);
      copy.querySelectorAll('[data-role=target], [data-role=feedback]').forEach(e => e.remove());
      return copy.textContent;""")


def state(**fields):
    base = {"version": 2, "state": "Idle", "board": "desktop", "mode": None, "interval": None, "interval_seconds": None,
            "attempt": None, "attempt_count": None, "repetitions_done": None, "repetition_count": None, "next_boundary": None,
            "fear_sound": None, "health": "on", "last_feedback": None, "session_id": None, "offered_preset": None,
            "pairing_request": None, "session_in_progress": False, "updated": "2026-11-23T10:00:00.000+00:00"}
    base.update(fields)
    base["session_in_progress"] = base["state"] in ("WaitingForStart", "AttemptRunning", "FeedbackFlash", "PassiveRunning", "SessionSummary")
    return base


def test_live_card(base, artifacts):
    driver = make_driver(fake_events=True)
    latencies = []
    try:
        onboard(driver, base)
        for size in SIZES:
            set_view(driver, size, "light" if size == "phone" else "dark")
            driver.get(base + "/#/home")
            loaded(driver)
            wait_for(driver, "return window.__sources.length === 1 && window.__sources[0].url.endsWith('/api/v1/events')")
            emit = lambda name, data: driver.execute_script("window.__emit(arguments[0], arguments[1])", name, data)
            for mode in ("challenge", "fear"):
                sid = f"test-{mode}-{size}"
                common = dict(mode=mode, interval="30s", interval_seconds=30, attempt_count=3, session_id=sid,
                              fear_sound="audible" if mode == "fear" else None)
                emit("state", state(state="WaitingForStart", attempt=1, **common))
                wait_for(driver, "return document.getElementById('live-card')")
                check(f"live {mode} {size}: attempt k of N", "Attempt 1 of 3" in live_text(driver), live_text(driver))
                for k in (1, 2, 3):
                    emit("state", state(state="AttemptRunning", attempt=k, **common))
                    wait_for(driver, f"return document.getElementById('live-card').dataset.state === 'AttemptRunning' && document.getElementById('live-card').textContent.includes('Attempt {k} of 3')")
                    before = live_text(driver)
                    time.sleep(1.1)
                    after = live_text(driver)
                    check(f"live {mode} {size} attempt {k}: shows no elapsed time", not CLOCK.search(after), after)
                    check(f"live {mode} {size} attempt {k}: nothing ticks during the attempt", before == after, (before, after))
                    if k == 1 and mode == "challenge":
                        driver.save_screenshot(os.path.join(artifacts, f"live-attempt-{size}.png"))
                    feedback = {"session_id": sid, "index": k, "count": 3, "text": f"late by 1.{k} s (4 %) — green", "zone": "green"}
                    took = driver.execute_async_script("""
                      const want = arguments[0], event = arguments[1], done = arguments[arguments.length - 1];
                      const t0 = performance.now();
                      window.__emit('feedback', event);
                      (function poll() { const card = document.getElementById('live-card');
                        if (card && card.textContent.includes(want)) requestAnimationFrame(() => done(performance.now() - t0));
                        else requestAnimationFrame(poll); })();""", feedback["text"], feedback)
                    latencies.append(took)
                    emit("state", state(state="FeedbackFlash", attempt=k, last_feedback=feedback["text"], **common))
                    items = texts(driver, "#live-card [data-role=feedback] li")
                    check(f"live {mode} {size}: each attempt's feedback as it happens", len(items) == k and feedback["text"] in items[-1], items)
                buttons = texts(driver, "#live-card button")
                check(f"live {mode} {size}: one action, discard", buttons == ["Discard session"], buttons)
                primary = driver.find_elements(By.CSS_SELECTOR, "#primary-action:not([hidden])")
                check(f"live {mode} {size}: the live card replaces the primary action", not any(p.is_displayed() for p in primary))
                emit("state", state(state="Completed", board="desktop"))
                emit("session_finished", {"session_id": sid, "status": "completed"})
                wait_for(driver, "return document.querySelector('#live-card [data-role=end]')")
                check(f"live {mode} {size}: the end state", "Completed and saved." in texts(driver, "#live-card")[0])
                if mode == "challenge":
                    driver.save_screenshot(os.path.join(artifacts, f"live-ended-{size}.png"))
            # Passive: boundaries reached may show; its action is End.
            common = dict(mode="passive", interval="5m", interval_seconds=300, repetition_count=5, session_id=f"test-passive-{size}")
            for done in (0, 1, 2):
                emit("state", state(state="PassiveRunning", repetitions_done=done, **common))
                if done:
                    emit("feedback", {"session_id": common["session_id"], "index": done, "count": 5, "text": f"boundary {done} of 5", "zone": None})
            wait_for(driver, "return document.getElementById('live-card') && document.getElementById('live-card').textContent.includes('Boundary 2 of 5 reached')")
            buttons = texts(driver, "#live-card button")
            check(f"live passive {size}: boundaries reached and one action, end", buttons == ["End session"], buttons)
            driver.save_screenshot(os.path.join(artifacts, f"live-passive-{size}.png"))
            # Keyboard: the button a person tabbed to stays focused while events rebuild the card.
            driver.execute_script("document.querySelector('#live-card button').focus()")
            emit("state", state(state="PassiveRunning", repetitions_done=3, **common))
            wait_for(driver, "return document.getElementById('live-card').textContent.includes('Boundary 3 of 5 reached')")
            focused = driver.execute_script("const a = document.activeElement; return a && a.closest('#live-card') ? a.textContent : null")
            check(f"live passive {size}: focus stays on End session across an event", focused == "End session", focused)
            emit("state", state(state="Aborted"))
            emit("session_finished", {"session_id": common["session_id"], "status": "aborted"})
            wait_for(driver, "return document.querySelector('#live-card [data-role=end]')")
            check(f"live passive {size}: discarded end state", "Discarded" in texts(driver, "#live-card")[0])
            check(f"live {size}: no script errors", not js_errors(driver), js_errors(driver))
    finally:
        driver.quit()
    latencies.sort()
    print(f"live card: event dispatch to painted card, {len(latencies)} events: median {latencies[len(latencies) // 2]:.1f} ms, max {latencies[-1]:.1f} ms")
    check("live card: every event on screen within 100 ms", latencies[-1] < 100, latencies[-1])


def test_pairing_notice(base, artifacts):
    """A pairing request waiting on the device is named (name and address) in the live card's place
    between sessions and inside the live card during one; a name is shown as text, never as markup."""
    driver = make_driver(fake_events=True)
    try:
        onboard(driver, base)
        driver.get(base + "/#/home")
        loaded(driver)
        wait_for(driver, "return window.__sources.length === 1 && window.__sources[0].url.endsWith('/api/v1/events')")
        emit = lambda name, data: driver.execute_script("window.__emit(arguments[0], arguments[1])", name, data)
        anna = {"name": "Anna's <b>phone</b>", "address": "192.168.1.20"}
        emit("state", state(state="Idle", pairing_request=anna))
        wait_for(driver, "return document.getElementById('pairing-card')")
        name = driver.execute_script("return document.querySelector('#pairing-card [data-role=pairing-name]').textContent")
        address = driver.execute_script("return document.querySelector('#pairing-card [data-role=pairing-address]').textContent")
        check("pairing: idle card names the requester", name == anna["name"], name)
        check("pairing: idle card names the address", address == "192.168.1.20", address)
        check("pairing: the name is text, not markup", not driver.execute_script("return document.querySelector('#pairing-card b')"))
        check("pairing: idle card says how to approve on the device", "hold the device's button while the device is idle" in texts(driver, "#pairing-card")[0])
        check("pairing: nothing on the page approves", not driver.find_elements(By.CSS_SELECTOR, "#pairing-card button"))
        driver.save_screenshot(os.path.join(artifacts, "pairing-idle.png"))
        common = dict(mode="challenge", interval="30s", interval_seconds=30, attempt_count=3, session_id="pairing-session")
        emit("state", state(state="WaitingForStart", attempt=1, pairing_request=anna, **common))
        wait_for(driver, "return document.querySelector('#live-card [data-role=pairing]')")
        inside = texts(driver, "#live-card [data-role=pairing]")[0]
        check("pairing: during a session the live card names it and says it waits", "192.168.1.20" in inside and "never approved during a session" in inside, inside)
        check("pairing: one card at a time", not driver.execute_script("return document.getElementById('pairing-card')"))
        emit("state", state(state="WaitingForStart", attempt=1, **common))
        wait_for(driver, "return !document.querySelector('#live-slot [data-role=pairing]')")
        check("pairing: gone once answered or expired", True)
        check("pairing: no script errors", not js_errors(driver), js_errors(driver))
    finally:
        driver.quit()


def test_real_events(base):
    """The page's EventSource against the server's real /api/v1/events (NoDevice: the first state)."""
    driver = make_driver()
    try:
        onboard(driver, base)
        driver.get(base + "/#/home")
        loaded(driver)
        opened = driver.execute_async_script("""
          const done = arguments[arguments.length - 1];
          const s = new EventSource('/api/v1/events');
          s.addEventListener('state', e => { s.close(); done(JSON.parse(e.data).state); });
          setTimeout(() => done(null), 5000);""")
        check("events: the real stream's first message is the device state", opened == "NoDevice", opened)
        text = driver.find_element(By.TAG_NAME, "main").text
        check("home: without a device it says sessions start on the device", "chronoception run" in text, text[:300])
    finally:
        driver.quit()


# ---- the live card against the real daemon ------------------------------------------------------
# `chronoception run` in test mode on the desktop board (standard input is its button: a space is a
# press, released when no repeat follows within --key-hold-ms) serving the API on loopback; the page's
# own EventSource follows it. A MutationObserver, installed before any page script, stamps every change
# of the live card with the browser's wall clock (Date.now(), the same clock the daemon's `updated`
# is read from) and again after the next frame (painted), and keeps the card's text at each change.
CARD_OBSERVER = """
window.__cards = [];
(function watch() {
  if (!document.documentElement) { requestAnimationFrame(watch); return; }
  let last = null;
  new MutationObserver(() => {
    const card = document.getElementById('live-card');
    if (!card) return;
    const copy = card.cloneNode(true);
    copy.querySelectorAll('[data-role=target], [data-role=feedback]').forEach(e => e.remove());
    const sample = { t: Date.now(), state: card.dataset.state, updated: card.dataset.updated, text: copy.textContent,
                     feedback: card.querySelectorAll('[data-role=feedback] li').length };
    const key = sample.state + '|' + sample.updated + '|' + sample.text + '|' + sample.feedback;
    if (key === last) return;
    last = key;
    window.__cards.push(sample);
    requestAnimationFrame(() => requestAnimationFrame(() => { sample.painted = Date.now(); }));
  }).observe(document.documentElement, { childList: true, subtree: true, attributes: true, characterData: true });
})();
"""


def card(driver, script):
    return driver.execute_script("const card = document.getElementById('live-card'); return card ? (" + script + ") : null;")


def click_live_action(driver):
    """Clicks the card's one button as a person would; the card is redrawn on each event, so a click
    that lands on the card just replaced is tried again."""
    from selenium.common.exceptions import StaleElementReferenceException
    for _ in range(20):
        try:
            driver.find_element(By.CSS_SELECTOR, "#live-card button").click()
            return
        except StaleElementReferenceException:
            time.sleep(0.02)
    raise RuntimeError("the live card's button kept being replaced")


def sample_attempt(driver, name, seconds=1.2):
    """Reads the card every 50 ms while an attempt runs: never a clock, and nothing that ticks."""
    texts, end = [], time.time() + seconds
    while time.time() < end:
        texts.append(live_text(driver))
        time.sleep(0.05)
    clocks = [t for t in texts if t is None or CLOCK.search(t)]
    check(f"{name}: no elapsed time in {len(texts)} samples of the card during the attempt", not clocks and len(texts) >= 2, clocks[:2])
    check(f"{name}: nothing changes on the card during the attempt", len(set(texts)) == 1, set(texts))


def run_challenge_like(driver, daemon, mode, artifacts, discard_at=None):
    """Idle tap, then for each attempt: a start press, a tap; checks the card at each step. With
    `discard_at`, the page's Discard button is used while that attempt runs instead."""
    label = f"daemon {mode}"
    daemon.press()  # the idle tap starts the session
    wait_for(driver, "const c = document.getElementById('live-card'); return c && c.dataset.state === 'WaitingForStart'")
    check(f"{label}: mode on the card", card(driver, "card.querySelector('.phase').textContent").startswith(modeName(mode)), card(driver, "card.textContent"))
    check(f"{label}: attempt 1 of 3 before the first press", "Attempt 1 of 3" in live_text(driver), live_text(driver))
    for k in (1, 2, 3):
        wait_for(driver, f"const c = document.getElementById('live-card'); return c && c.dataset.state === 'WaitingForStart' && c.textContent.includes('Attempt {k} of 3')")
        daemon.press()  # start mark
        wait_for(driver, f"const c = document.getElementById('live-card'); return c && c.dataset.state === 'AttemptRunning' && c.textContent.includes('Attempt {k} of 3')")
        if k == 1:
            primary = driver.find_elements(By.ID, "primary-action")
            check(f"{label}: the live card replaces the start button", primary and not primary[0].is_displayed())
            status = driver.find_element(By.CSS_SELECTOR, "[data-role=device-state]").text
            check(f"{label}: Home's device line follows the device", status == "Attempt running.", status)
        if k == 1 and mode == "challenge":
            driver.save_screenshot(os.path.join(artifacts, "daemon-attempt-running.png"))
        if k == discard_at:
            buttons = texts(driver, "#live-card button")
            check(f"{label}: one action, discard", buttons == ["Discard session"], buttons)
            click_live_action(driver)
            WebDriverWait(driver, 5).until(lambda d: d.switch_to.alert).accept()
            wait_for(driver, "return document.querySelector('#live-card [data-role=end]')")
            return
        sample_attempt(driver, f"{label} attempt {k}")
        daemon.press()  # tap mark: the answer
        wait_for(driver, f"return document.querySelectorAll('#live-card [data-role=feedback] li').length === {k}")
        items = texts(driver, "#live-card [data-role=feedback] li")
        check(f"{label} attempt {k}: its feedback as it happens", items[-1].startswith(f"{k} of 3: ") and re.search(r"(early|late|on time)", items[-1], re.I), items)
        if k == 1:
            buttons = texts(driver, "#live-card button")
            check(f"{label}: one action, discard", buttons == ["Discard session"], buttons)
    wait_for(driver, "return document.querySelector('#live-card [data-role=end]')", timeout=15)


def modeName(mode):
    return {"challenge": "Challenge", "fear": "Fear", "passive": "Passive"}[mode]


def check_setup_on_onboarding(driver, base, artifacts):
    """Onboarding's device setup: each part the daemon reports (GET /device's `setup`), with its status."""
    driver.get(base + "/#/welcome")
    loaded(driver)
    wait_for(driver, "return document.querySelector('[data-role=setup]')")
    setup = api(base, "/device")["setup"]
    shown = driver.execute_script("return Array.from(document.querySelectorAll('[data-role=setup] li')).map(li => [li.dataset.part, li.dataset.status, li.textContent])")
    check("onboarding with the daemon: board, button, motor and sound", [p[0] for p in shown] == ["board", "button", "motor", "sound"], shown)
    check("onboarding with the daemon: each part's status and words as the API gives them",
          [(p[0], p[1]) for p in shown] == [(p["name"], p["status"]) for p in setup["parts"]]
          and all(part["detail"].replace("`", "") in text for part, (_, _, text) in zip(setup["parts"], shown)), (shown, setup["parts"]))
    sound = next(p for p in setup["parts"] if p["name"] == "sound")
    # This machine has no sound card: the desktop board's ALSA device cannot be opened.
    check("onboarding with the daemon: sound without a card is a warning with its consequence",
          sound["status"] == "warning" and "Fear Mode will behave like Challenge Mode" in shown[-1][2], shown[-1])
    text = driver.find_element(By.TAG_NAME, "main").text
    check("onboarding with the daemon: says how to check by hand", "board check" in text, text)
    driver.execute_script("document.querySelector('[data-role=setup]').scrollIntoView({block: 'start'}); window.scrollBy(0, -60)")
    driver.save_screenshot(os.path.join(artifacts, "onboarding-daemon-phone-light.png"))


def test_daemon_live(binary, artifacts):
    import tempfile, shutil
    work = tempfile.mkdtemp(prefix="web-daemon-")
    data = os.path.join(work, "data")
    driver = make_driver()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CARD_OBSERVER})
    samples = []
    try:
        set_view(driver, "phone", "light")
        plans = [("challenge", ["--mode", "challenge", "--attempts", "3", "--test-interval-ms", "1500"]),
                 ("fear", ["--mode", "fear", "--i-understand-fear-mode", "--attempts", "3", "--test-interval-ms", "1500"]),
                 ("passive", ["--mode", "passive", "--repetitions", "6", "--test-interval-ms", "600"])]
        for mode, args in plans:
            daemon = Daemon(binary, data, os.path.join(work, f"{mode}.log"), *args, feedback_ms=500)
            try:
                onboard(driver, daemon.base)
                if mode == "fear":
                    check_setup_on_onboarding(driver, daemon.base, artifacts)
                driver.get(daemon.base + "/#/home")
                loaded(driver)
                wait_for(driver, "return document.querySelector('[data-role=device-state]') && document.querySelector('[data-role=device-state]').textContent.startsWith('Idle')")
                label = f"daemon {mode}"
                if mode == "challenge":
                    run_challenge_like(driver, daemon, mode, artifacts)
                    text = texts(driver, "#live-card")[0]
                    check(f"{label}: the end state", "Completed and saved." in text, text)
                    driver.save_screenshot(os.path.join(artifacts, "daemon-challenge-ended.png"))
                    sid = card(driver, "card.querySelector('a[href^=\"#/session/\"]').getAttribute('href')").split("/")[-1]
                    saved = api(daemon.base, f"/sessions/{sid}")
                    shown = [t.split(": ", 1)[1] for t in texts(driver, "#live-card [data-role=feedback] li")]
                    check(f"{label}: the feedback shown is what the device saved", saved["status"] == "completed"
                          and [a["feedback"] for a in saved["attempts"]] == shown, (shown, [a["feedback"] for a in saved["attempts"]]))
                elif mode == "fear":
                    run_challenge_like(driver, daemon, mode, artifacts, discard_at=2)
                    text = texts(driver, "#live-card")[0]
                    check(f"{label}: discard from the page works against the daemon", "Discarded" in text, text)
                    statuses = api(daemon.base, "/sessions?limit=1")["sessions"]
                    check(f"{label}: the device saved it as aborted", statuses and statuses[0]["status"] == "aborted" and statuses[0]["mode"] == "fear", statuses[:1])
                    driver.save_screenshot(os.path.join(artifacts, "daemon-fear-discarded.png"))
                else:
                    daemon.press()
                    wait_for(driver, "const c = document.getElementById('live-card'); return c && c.textContent.includes('Boundary 2 of 6 reached')", timeout=15)
                    reached = [m.group(0) for c in driver.execute_script("return window.__cards") for m in [re.search(r"Boundary \d of 6 reached", c["text"])] if m]
                    check(f"{label}: boundaries as they are reached", list(dict.fromkeys(reached))[:3] == ["Boundary 0 of 6 reached", "Boundary 1 of 6 reached", "Boundary 2 of 6 reached"], reached)
                    buttons = texts(driver, "#live-card button")
                    check(f"{label}: one action, end", buttons == ["End session"], buttons)
                    driver.save_screenshot(os.path.join(artifacts, "daemon-passive-running.png"))
                    click_live_action(driver)
                    wait_for(driver, "return document.querySelector('#live-card [data-role=end]')")
                    text = texts(driver, "#live-card")[0]
                    saved = api(daemon.base, "/sessions?limit=1")["sessions"][0]
                    check(f"{label}: End from the page ends it, saved as completed", "Completed and saved." in text
                          and saved["status"] == "completed" and saved["mode"] == "passive" and 2 <= saved["done_count"] < 6, (text, saved))
                cards = driver.execute_script("return window.__cards")
                running = [c for c in cards if c["state"] == "AttemptRunning"]
                clocks = [c["text"] for c in running if CLOCK.search(c["text"])]
                if mode != "passive":
                    check(f"{label}: no elapsed time in any of the card's {len(running)} renders during attempts", running and not clocks, clocks[:2])
                samples += [c for c in cards if c.get("updated")]
                errors = js_errors(driver)
                check(f"{label}: no script errors", not errors, errors)
            except Exception:
                print("  the card's renders:", [(c["state"], c["text"][:80]) for c in driver.execute_script("return window.__cards || []")][-8:])
                print("  the daemon's output:", open(os.path.join(work, f"{mode}.log"), errors="replace").read()[-1500:])
                raise
            finally:
                # Leave the page first: its event stream would otherwise log the daemon going away.
                driver.get("about:blank")
                js_errors(driver)
                daemon.stop()
    finally:
        driver.quit()
        shutil.rmtree(work, ignore_errors=True)
    # Event-to-screen: the first render of each state the daemon published (its `updated`).
    import datetime
    first = {}
    for c in samples:
        first.setdefault(c["updated"], c)
    def epoch_ms(iso):
        return datetime.datetime.fromisoformat(iso).timestamp() * 1000
    dom = sorted(c["t"] - epoch_ms(u) for u, c in first.items())
    painted = sorted(c["painted"] - epoch_ms(u) for u, c in first.items() if "painted" in c)
    def pct(values, q):
        return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]
    print(f"live card against the daemon, {len(dom)} state events over 3 sessions: event to DOM p50 {pct(dom, 0.5):.0f} ms, p99 {pct(dom, 0.99):.0f} ms, "
          f"max {dom[-1]:.0f} ms; to the next painted frame p50 {pct(painted, 0.5):.0f} ms, p99 {pct(painted, 0.99):.0f} ms")
    check("daemon: every state the device published reached the card", len(dom) >= 15, len(dom))
    check("daemon: event to the card in the DOM, p50 under 100 ms", pct(dom, 0.5) < 100, dom)


def test_big_progress(big_base, runs=11):
    """Progress's first render over 100,000 sessions, from the browser's own clock: navigation start to
    the summary in the DOM (the page's `progress-summary` mark), and to the charts; split into the
    page's share and the server's (time to first byte of each API request, from Resource Timing)."""
    driver = make_driver()
    try:
        onboard(driver, big_base)
        set_view(driver, "desktop", "light")
        rows = []
        for _ in range(runs):
            driver.get("about:blank")
            driver.get(big_base + "/#/progress")
            wait_for(driver, "return window.__progressCharts", timeout=60)
            rows.append(driver.execute_script("""
              const r = performance.getEntriesByType('resource');
              const report = r.find(e => /\\/api\\/v1\\/progress$/.test(e.name)), daily = r.find(e => e.name.includes('/api/v1/progress/daily'));
              const mark = (name) => performance.getEntriesByName(name)[0].startTime;
              return { summary: mark('progress-summary'), charts: mark('progress-charts'), asked: report.requestStart,
                       report_server: report.responseStart - report.requestStart, report_end: report.responseEnd,
                       daily_server: daily.responseStart - daily.requestStart, daily_end: daily.responseEnd };"""))
        sessions = api(big_base, "/progress")
        total = sessions["completed_sessions"] + sessions["aborted_sessions"] + sessions["interrupted_sessions"]
        def stat(key):
            values = sorted(row[key] for row in rows)
            return values[len(values) // 2], values[-1]
        print(f"progress over {total} sessions ({sessions['completed_sessions']} completed), {runs} loads, median / worst (ms):")
        for key, what in (("summary", "first render: navigation start to the summary in the DOM"),
                          ("charts", "navigation start to the charts in the DOM"),
                          ("asked", "  page: navigation start to the API requests sent (HTML, CSS, JS)"),
                          ("report_server", "  server: GET /progress, request to first byte"),
                          ("daily_server", "  server: GET /progress/daily, request to first byte")):
            median, worst = stat(key)
            print(f"  {what:70s} {median:6.0f} / {worst:4.0f}")
        building = sorted(row["summary"] - row["report_end"] for row in rows)
        print(f"  {'  page: /progress received to the summary in the DOM':70s} {building[len(building) // 2]:6.0f} / {building[-1]:4.0f}")
        check("progress over 100,000 sessions: first render within 300 ms (median)", stat("summary")[0] < 300, rows)
    finally:
        driver.quit()


def test_waybar(binary, data_dir):
    """`status --format waybar`: one JSON line, the attempt number (never a clock) during an attempt,
    the last session when idle or stopped, always exit 0 (a bar shows whatever it gets)."""
    import subprocess, tempfile
    def waybar(state_file):
        done = subprocess.run([binary, "status", "--format", "waybar", "--state-file", state_file, "--data-dir", data_dir],
                              capture_output=True, text=True, timeout=30)
        lines = done.stdout.strip().splitlines()
        check("waybar: exit 0 and one line", done.returncode == 0 and len(lines) == 1, (done.returncode, done.stdout, done.stderr))
        return json.loads(lines[0])
    stopped = waybar("/nonexistent/state.json")
    check("waybar: no state file is 'stopped' with the store's last session",
          stopped["class"] == "stopped" and "Last session:" in stopped["tooltip"] and stopped["text"].startswith("⏱ 20"), stopped)
    with tempfile.NamedTemporaryFile("w", suffix=".json") as file:
        json.dump(state(state="AttemptRunning", mode="fear", interval="30s", attempt=2, attempt_count=5, session_id="x") | {"pid": os.getpid()}, file)
        file.flush()
        running = waybar(file.name)
        check("waybar: attempt k of N during an attempt", running["text"] == "⏱ fear 30s 2/5" and running["class"] == "attemptrunning", running)
        check("waybar: no clock during an attempt", not CLOCK.search(running["text"].replace("30s", "")), running)


def main():
    options = parser(only=True)
    options.add_argument("--url", required=True)
    options.add_argument("--empty-url", required=True)
    options.add_argument("--big-url")
    options.add_argument("--data-dir", required=True)
    args = arguments(options)
    started = time.time()
    tests = {"onboarding": lambda: test_onboarding(args.url, args.artifacts), "pages": lambda: test_pages(args.url, args.artifacts),
             "chart": lambda: test_chart_gaps(args.url, args.artifacts), "empty": lambda: test_empty_states(args.empty_url, args.artifacts),
             "live": lambda: test_live_card(args.url, args.artifacts), "pairing": lambda: test_pairing_notice(args.url, args.artifacts),
             "events": lambda: test_real_events(args.url),
             "waybar": lambda: test_waybar(args.binary, args.data_dir), "daemon": lambda: test_daemon_live(args.binary, args.artifacts)}
    for name, test in tests.items():
        if args.only and args.only not in name:
            continue
        check.attempt(name, test)  # a crashed test is a failure, and the others still run
    if args.big_url and (not args.only or args.only in "big"):
        print("big:")
        try:
            test_big_progress(args.big_url)
        except Exception as error:
            check(f"big: {error.__class__.__name__}", False, str(error).splitlines()[0] if str(error) else repr(error))
    print(f"screenshots in {args.artifacts}; {time.time() - started:.0f} s")
    print(f"web companion: {check.passed} passed, {check.failed} failed")
    check.finish(args.counts)


main()
