#!/usr/bin/env python3
"""The companion's pages speak to people, sessions can be found, and charts are legible on a phone
(issue 22, defects 7 and 10 and the sessions addition), in headless Chromium against its own
`chronoception companion` processes over stores filled by `simulate` (faketime for past days):

- no page shows a backtick, a route ("/api/", "POST "), or JSON, at any route: every page, Learn,
  both steps of Settings' delete-all and its refusal words, a session, the sessions page with filters;
- Learn shows its commands as code; turning Fear on adds Fear to the mode list without a reload (and
  off takes it away); the health card and the defaults are read afresh after a delete-all;
- the charts' labels are at least 11 CSS px high at 390 px wide (measured in the browser);
- the sessions page shows exactly what GET /sessions answers for the same filters, pages with
  "Show more", keeps its filters in the hash (back and forward), says an empty result in words and an
  interval typo in the core's words beside the field;
- Settings offers the CSV of the last 90 days or everything, and the downloaded 90-day file is the
  one `chronoception export csv --days 90` writes.
Run by Tests/web/run (WEB_ONLY=wording)."""
import json, os, re, shutil, tempfile, time, urllib.parse

from browser import js_errors, screenshot, wait_for
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from webparts import SIZES, Checks, Companion, arguments, download, loaded, make_driver, onboard, open_page, press, run, set_view, views

# Words for people never carry these: a route, an HTTP verb before a path, JSON, markdown's backtick.
CODE_WORDS = re.compile(r"`|/api/|\b(GET|POST|PATCH|PUT|DELETE) /|\{\"")

check = Checks("wording")


def fill(binary, data, bursts):
    """`simulate` bursts of (days ago, sessions, seed); a burst on a past day runs under faketime."""
    for days_ago, sessions, seed in bursts:
        faked = ["faketime", "-f", f"-{days_ago}d"] if days_ago else []
        run(*faked, binary, "simulate", "--sessions", str(sessions), "--seed", str(seed), "--quiet", "--data-dir", data)


def page_text(driver):
    """Everything a person can read on the page: the rendered text, field values and placeholders,
    buttons and links' accessible names, and the title."""
    return driver.execute_script("""
      const parts = [document.body.innerText, document.title];
      for (const e of document.querySelectorAll('input, select, textarea')) parts.push(e.value || '', e.placeholder || '');
      for (const e of document.querySelectorAll('[aria-label], [title]')) parts.push(e.getAttribute('aria-label') || '', e.getAttribute('title') || '');
      return parts.join('\\n');""")


def speaks(driver, where):
    text = page_text(driver)
    found = sorted({m.group(0) for m in CODE_WORDS.finditer(text)})
    lines = [line for line in text.splitlines() if CODE_WORDS.search(line)]
    check(f"{where}: no backtick, route or JSON shown", not found, (found, lines[:3]))


def page_errors(driver, allowed=()):
    """Script errors, without the network lines for requests the test made fail on purpose."""
    return [e for e in js_errors(driver) if not any(a in e["message"] for a in allowed)]


def open_on_phone(driver, base, hash_):
    """A page at phone width, onboarding done (as for a person who has used the companion before)."""
    onboard(driver, base)
    set_view(driver, "phone")
    open_page(driver, base, hash_)


def ids_shown(driver):
    return driver.execute_script("return Array.from(document.querySelectorAll('[data-role=results] ul.plain > li a')).map(a => decodeURIComponent(a.getAttribute('href').split('/').pop()))")


def api_ids(companion, query, limit=25):
    return [s["session_id"] for s in companion.api(f"/sessions?{query}{'&' if query else ''}limit={limit}")["sessions"]]


def all_api_ids(companion, query):
    ids, cursor = [], None
    while True:
        page = companion.api(f"/sessions?{query}{'&' if query else ''}limit=500" + (f"&cursor={urllib.parse.quote(cursor)}" if cursor else ""))
        ids += [s["session_id"] for s in page["sessions"]]
        cursor = page["next_cursor"]
        if not cursor:
            return ids


def search(driver, mode="", interval="", day_from="", day_to=""):
    """Fills the sessions form as a person would (the dates as a date picker sets them) and submits it."""
    Select(driver.find_element(By.ID, "f-mode")).select_by_value(mode)
    box = driver.find_element(By.ID, "f-interval")
    box.clear()
    if interval:
        box.send_keys(interval)
    driver.execute_script("document.getElementById('f-from').value = arguments[0]; document.getElementById('f-to').value = arguments[1]", day_from, day_to)
    before = driver.execute_script("window.__searched = (window.__searched || 0) + 1; return location.hash")
    driver.execute_script("document.querySelector('form.filters').requestSubmit()")
    return before


def results_ready(driver):
    wait_for(driver, "const r = document.querySelector('[data-role=results]'); return r && !r.textContent.includes('Loading…')"
                     " || document.querySelector('main h2') && document.querySelector('main h2').textContent === 'No sessions yet'")


def test_sessions(companion, artifacts):
    driver = make_driver(tempfile.mkdtemp(prefix="web-wording-dl-"))
    base = companion.base
    try:
        # Reachable from Progress.
        open_on_phone(driver, base, "#/progress")
        press(driver, driver.find_element(By.CSS_SELECTOR, "[data-role=find-sessions]"))
        wait_for(driver, "return location.hash === '#/sessions'")
        results_ready(driver)
        check("sessions: reached from Progress", driver.find_element(By.TAG_NAME, "h1").text == "Sessions")
        speaks(driver, "sessions: unfiltered")
        # Unfiltered: the newest 25, then Show more until every session is listed, in the API's order.
        every = all_api_ids(companion, "")
        check("sessions: the store has more than two pages", len(every) > 50, len(every))
        check("sessions: first page is the API's first page", ids_shown(driver) == every[:25], (len(ids_shown(driver)), len(every)))
        clicks = 0
        while driver.find_elements(By.CSS_SELECTOR, "[data-role=more]:not([hidden])") and clicks < 20:
            shown = len(ids_shown(driver))
            press(driver, driver.find_element(By.CSS_SELECTOR, "[data-role=more]"))
            wait_for(driver, f"return document.querySelectorAll('[data-role=results] ul.plain > li').length > {shown}")
            wait_for(driver, "return !document.querySelector('[data-role=more]').disabled")
            clicks += 1
        check("sessions: Show more pages through every session, in the API's order", ids_shown(driver) == every, (len(ids_shown(driver)), len(every), clicks))
        count = driver.find_element(By.CSS_SELECTOR, "[data-role=count]").text
        check("sessions: the last page says it is all of them", count == f"All {len(every)} sessions that match.", count)
        # Filters by the form: exactly the sessions the API answers for the same query.
        recent = companion.api("/sessions?limit=500")["sessions"]
        days = sorted({s["started_at"][:10] for s in recent})
        interval = next(s for s in recent if s["mode"] == "challenge")["target_interval_seconds"]
        interval_words = f"{interval // 60}m{interval % 60}s" if interval >= 60 else f"{interval}s"
        cases = [("challenge", "", "", ""), ("passive", "", days[len(days) // 2], days[-1]), ("", interval_words, "", ""),
                 ("challenge", interval_words, days[0], days[-1]), ("", "", days[-2], days[-2]), ("fear", "", days[1], days[-3])]
        hashes = []
        for mode, interval_text, day_from, day_to in cases:
            where = f"sessions mode={mode or 'any'} interval={interval_text or 'any'} {day_from or '…'}–{day_to or '…'}"
            search(driver, mode, interval_text, day_from, day_to)
            query = urllib.parse.urlencode([(k, v) for k, v in (("mode", mode), ("interval", interval_text), ("from", day_from), ("to", day_to)) if v])
            wait_for(driver, f"return location.hash === {json.dumps('#/sessions' + ('?' + query if query else ''))}")
            results_ready(driver)
            hashes.append(driver.execute_script("return location.hash"))
            expected = api_ids(companion, query)
            check(f"{where}: the sessions the API answers", ids_shown(driver) == expected and expected, (len(ids_shown(driver)), len(expected)))
            fields = driver.execute_script("return ['f-mode', 'f-interval', 'f-from', 'f-to'].map(id => document.getElementById(id).value)")
            check(f"{where}: the form shows its filters", fields == [mode, interval_text, day_from, day_to], fields)
            speaks(driver, where)
        screenshot(driver, os.path.join(artifacts, "wording-sessions-filtered-phone-light.png"))
        # Back and forward step through the searches, the form and the list with them.
        driver.back()
        wait_for(driver, f"return location.hash === {json.dumps(hashes[-2])}")
        results_ready(driver)
        mode, interval_text, day_from, day_to = cases[-2]
        fields = driver.execute_script("return ['f-mode', 'f-interval', 'f-from', 'f-to'].map(id => document.getElementById(id).value)")
        query = hashes[-2].split("?", 1)[1]
        check("sessions: back restores the previous search (form and list)", fields == [mode, interval_text, day_from, day_to]
              and ids_shown(driver) == api_ids(companion, query), fields)
        driver.forward()
        wait_for(driver, f"return location.hash === {json.dumps(hashes[-1])}")
        results_ready(driver)
        check("sessions: forward restores the next one", ids_shown(driver) == api_ids(companion, hashes[-1].split("?", 1)[1]))
        # A hash typed or bookmarked opens that search.
        open_page(driver, base, hashes[1])
        results_ready(driver)
        check("sessions: a bookmarked search opens as it was", ids_shown(driver) == api_ids(companion, hashes[1].split("?", 1)[1]))
        # Nothing found: said in words.
        search(driver, "fear", "", "1999-01-01", "1999-12-31")
        wait_for(driver, "return document.querySelector('[data-role=none-found]')")
        text = driver.find_element(By.CSS_SELECTOR, "[data-role=results]").text
        check("sessions: an empty result says so in words", "No sessions match these filters." in text and not ids_shown(driver), text)
        speaks(driver, "sessions: empty result")
        # An interval typo: the core's words beside the field, no request result drawn, no raw error.
        search(driver, "challenge", "3o")
        wait_for(driver, "return !document.getElementById('e-interval').hidden")
        problem = driver.find_element(By.ID, "e-interval").text
        check("sessions: an interval typo is named beside the field in words", problem.startswith("'3o' is not an interval.") and "1m30s" in problem, problem)
        check("sessions: the field is marked invalid", driver.find_element(By.ID, "f-interval").get_attribute("aria-invalid") == "true")
        check("sessions: nothing listed for an invalid search", not ids_shown(driver))
        speaks(driver, "sessions: interval typo")
        screenshot(driver, os.path.join(artifacts, "wording-sessions-typo-phone-light.png"))
        # Filters the form cannot produce (typed into the address): words, and no request made.
        open_page(driver, base, "#/sessions?mode=fast&from=2026-02-30&to=1999-01-01")
        problems = driver.execute_script("return Array.from(document.querySelectorAll('[data-problem]:not([hidden])')).map(p => [p.dataset.problem, p.textContent])")
        check("sessions: a bad mode and an impossible date are named in words", [p[0] for p in problems] == ["mode", "from"]
              and "not a mode" in problems[0][1] and "not a date" in problems[1][1], problems)
        speaks(driver, "sessions: bad filters in the address")
        open_page(driver, base, f"#/sessions?from={days[-1]}&to={days[0]}")
        problem = driver.execute_script("return document.getElementById('e-to').textContent")
        check("sessions: the last day before the first is named", problem == "The last day is before the first day: swap them, or clear one.", problem)
        # Each listed session opens its detail.
        open_page(driver, base, hashes[0])
        results_ready(driver)
        first = ids_shown(driver)[0]
        press(driver, driver.find_element(By.CSS_SELECTOR, "[data-role=results] ul.plain > li a"))
        wait_for(driver, f"return location.hash === '#/session/{first}' && document.querySelector('main .phase')")
        check("sessions: a listed session opens its detail", driver.find_element(By.TAG_NAME, "h1").text == "Session")
        check("sessions: no script errors", not page_errors(driver, ("interval=3o",)), page_errors(driver, ("interval=3o",)))
        for size, theme in views(driver):
            open_page(driver, base, hashes[3])
            results_ready(driver)
            width = driver.execute_script("return document.documentElement.scrollWidth")
            check(f"sessions {size} {theme}: no sideways scrolling", width <= SIZES[size][0], width)
            screenshot(driver, os.path.join(artifacts, f"wording-sessions-{size}-{theme}.png"))
    finally:
        driver.quit()


def test_every_page_speaks(companion, artifacts):
    """Every route, at phone size: nothing a person reads is a route, JSON or a backtick."""
    driver = make_driver(tempfile.mkdtemp(prefix="web-wording-dl-"))
    base = companion.base
    try:
        driver.get(base + "/")
        set_view(driver, "phone")
        open_page(driver, base, "#/welcome")
        wait_for(driver, "return !document.body.textContent.includes('Asking the device') && !document.body.textContent.includes('Reading the health')")
        speaks(driver, "welcome")
        driver.execute_script("localStorage.setItem('chronoception.onboarded', '1')")
        recent = companion.api("/sessions?limit=200")["sessions"]
        scored = next(s for s in recent if s["status"] == "completed" and s["mode"] != "passive")
        passive = next(s for s in recent if s["mode"] == "passive")
        aborted = next((s for s in recent if s["status"] != "completed"), scored)
        day = scored["started_at"][:10]
        for name, hash_ in [("home", "#/home"), ("progress", "#/progress"), ("progress 90 days", "#/progress"), ("learn", "#/learn"),
                            ("settings", "#/settings"), ("session", f"#/session/{scored['session_id']}"),
                            ("passive session", f"#/session/{passive['session_id']}"), ("unfinished session", f"#/session/{aborted['session_id']}"),
                            ("day", f"#/day/{day}"), ("sessions", "#/sessions"), ("sessions filtered", f"#/sessions?mode=challenge&from={day}&to={day}"),
                            ("unknown session", "#/session/00000000-0000-0000-0000-000000000000"), ("unknown page", "#/nowhere")]:
            open_page(driver, base, hash_)
            if name == "progress 90 days":
                press(driver, driver.find_element(By.XPATH, "//button[normalize-space()='90 days']"))
                wait_for(driver, "return document.querySelector('svg.chart')")
            speaks(driver, name)
            check(f"{name}: no script errors", not page_errors(driver, ("00000000-0000",)), page_errors(driver, ("00000000-0000",)))
        # Learn: its commands are code, its paragraphs whole, its terms and questions bold.
        open_page(driver, base, "#/learn")
        shown = driver.execute_script("""return { code: Array.from(document.querySelectorAll('main code')).map(c => c.textContent),
            strong: Array.from(document.querySelectorAll('main p > strong')).map(s => s.textContent),
            paragraphs: document.querySelectorAll('main .learn-body p').length }""")
        check("learn: commands shown as code", "chronoception settings set fear-mode on" in shown["code"]
              and "chronoception health backfill" in shown["code"] and "--data-dir" in shown["code"], shown["code"])
        check("learn: terms and FAQ questions bold", {"Challenge", "Time Acuity", "Where is my data?"} <= set(shown["strong"]), shown["strong"])
        learn = sum(len(s["body"].split("\n\n")) for s in companion.api("/learn")["sections"])
        check("learn: one paragraph per paragraph of the text", shown["paragraphs"] == learn, (shown["paragraphs"], learn))
        for size, theme in views(driver):
            for name in ("learn", "settings"):
                open_page(driver, base, f"#/{name}")
                screenshot(driver, os.path.join(artifacts, f"wording-{name}-{size}-{theme}.png"))
    finally:
        driver.quit()


def health_card(driver):
    return driver.execute_script("return document.querySelector('[aria-labelledby=st-health]').innerText")


def mode_options(driver):
    return driver.execute_script("return Array.from(document.querySelectorAll('#s-default-mode option')).map(o => o.value)")


def test_settings(companion, artifacts):
    """Fear's switch and the mode list; delete-all's two steps in words; the cards read afresh after it."""
    driver = make_driver(tempfile.mkdtemp(prefix="web-wording-dl-"))
    base = companion.base
    try:
        open_on_phone(driver, base, "#/settings")
        driver.execute_script("window.__sameDocument = true")
        check("settings: Fear off, Fear not offered", mode_options(driver) == ["challenge", "passive", "reproduction"], mode_options(driver))
        driver.execute_script("document.getElementById('s-fear').click()")
        wait_for(driver, "return document.querySelector('[aria-labelledby=st-fear] .status.ok')")
        check("settings: turning Fear on offers Fear at once", mode_options(driver) == ["challenge", "passive", "reproduction", "fear"], mode_options(driver))
        check("settings: without a reload", driver.execute_script("return window.__sameDocument === true"))
        Select(driver.find_element(By.ID, "s-default-mode")).select_by_value("fear")
        driver.execute_script("document.querySelector('[aria-labelledby=st-defaults] button[type=submit]').click()")
        wait_for(driver, "return document.querySelector('[aria-labelledby=st-defaults] .status.ok')")
        check("settings: Fear saved as the default", companion.api("/settings")["values"]["default-mode"] == "fear")
        driver.execute_script("document.getElementById('s-fear').click()")
        wait_for(driver, "return document.querySelectorAll('#s-default-mode option').length === 3")
        chosen = driver.execute_script("return document.getElementById('s-default-mode').value")
        stored = companion.api("/settings")["values"]["default-mode"]
        check("settings: turning Fear off takes it away and shows the stored default", chosen == stored == "challenge", (chosen, stored))
        # Delete-all, step one: the page's own words, no route or token.
        before_health = companion.api("/health")
        sessions = len(all_api_ids(companion, ""))
        card_before = health_card(driver)
        check("settings: the health card shows the log's counts", f"{before_health['written']} written" in card_before and before_health["written"] > 0, card_before)
        driver.execute_script("document.getElementById('delete-start').click()")
        wait_for(driver, "return document.getElementById('delete-confirm')")
        warning = driver.find_element(By.CSS_SELECTOR, "[data-role=delete-warning]").text
        check("delete-all step 1: in words, with the count and the time to answer",
              warning.startswith(f"This deletes {sessions} sessions and every preset and setting on the device.")
              and warning.endswith("Press “Yes, delete” within a minute to go ahead."), warning)
        check("delete-all step 1: the button names the count", driver.find_element(By.ID, "delete-confirm").text == f"Yes, delete {sessions} sessions")
        speaks(driver, "delete-all step 1")
        screenshot(driver, os.path.join(artifacts, "wording-delete-step1-phone-light.png"))
        # "Keep my data" keeps it, and says so.
        press(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Keep my data']"))
        check("delete-all: keep says nothing was deleted", "nothing was deleted" in driver.find_element(By.CSS_SELECTOR, "[aria-labelledby=st-data] [role=status]").text
              and len(all_api_ids(companion, "")) == sessions)
        # Unanswered for the confirmation's lifetime (made 1 s here by rewriting step one's answer): the page says so.
        driver.execute_script("""const real = window.fetch; window.fetch = async (url, init) => {
            const answer = await real(url, init);
            if (!String(url).endsWith('/delete-all')) return answer;
            const data = await answer.json(); data.expires_in_seconds = 1;
            return new Response(JSON.stringify(data), { status: answer.status, headers: answer.headers }); };""")
        driver.execute_script("document.getElementById('delete-start').click()")
        wait_for(driver, "return document.getElementById('delete-confirm')")
        wait_for(driver, "return !document.getElementById('delete-confirm')", timeout=5)
        expired = driver.find_element(By.CSS_SELECTOR, "[aria-labelledby=st-data] [role=status]").text
        check("delete-all: unanswered in time, the page says nothing was deleted", expired.startswith("Time ran out, so nothing was deleted.")
              and len(all_api_ids(companion, "")) == sessions, expired)
        driver.execute_script("location.reload()")
        loaded(driver)
        # A confirmation the device no longer accepts (spent, or past its minute): words, not the API's route.
        driver.execute_script("document.getElementById('delete-start').click()")
        wait_for(driver, "return document.getElementById('delete-confirm')")
        driver.execute_script("""const real = window.fetch; window.fetch = (url, init) => {
            if (String(url).endsWith('/delete-all/confirm')) init = Object.assign({}, init, { body: JSON.stringify({ confirmation_token: 'spent' }) });
            return real(url, init); };""")
        press(driver, driver.find_element(By.ID, "delete-confirm"))
        wait_for(driver, "return document.querySelector('[aria-labelledby=st-data] .status.error[role=alert]')")
        refused = driver.find_element(By.CSS_SELECTOR, "[aria-labelledby=st-data] .status.error[role=alert]").text
        check("delete-all: a refused confirmation in words", refused.startswith("That confirmation ran out or was already used, so nothing was deleted."), refused)
        speaks(driver, "delete-all refused")
        driver.execute_script("location.reload()")
        loaded(driver)
        # Both steps for real: the outcome in words, and every card read afresh.
        driver.execute_script("window.__sameDocument = true")
        driver.execute_script("document.getElementById('delete-start').click()")
        wait_for(driver, "return document.getElementById('delete-confirm')")
        press(driver, driver.find_element(By.ID, "delete-confirm"))
        wait_for(driver, "return document.querySelector('[data-role=delete-done]')")
        done = driver.find_element(By.CSS_SELECTOR, "[data-role=delete-done]").text
        check("delete-all step 2: the outcome in words", done == f"Deleted {sessions} sessions; presets and settings are back to their defaults. The health log file was left untouched.", done)
        check("delete-all: the store is empty", all_api_ids(companion, "") == [])
        speaks(driver, "delete-all step 2")
        after_health = companion.api("/health")
        card_after = health_card(driver)
        expected = f"Status: {after_health['status']}. {after_health['written']} written, {after_health['skipped']} skipped, {after_health['owed_total']} owed."
        check("delete-all: the health card is read afresh", expected in card_after and card_after != card_before, (expected, card_after))
        check("delete-all: without a reload", driver.execute_script("return window.__sameDocument === true"))
        # The defaults card too: saving works at once (a stale settings version would be refused).
        driver.execute_script("document.querySelector('[aria-labelledby=st-defaults] button[type=submit]').click()")
        wait_for(driver, "return document.querySelector('[aria-labelledby=st-defaults] .status:not([hidden])') && !document.querySelector('[aria-labelledby=st-defaults] .status').textContent.startsWith('Saving')")
        note = driver.execute_script("return document.querySelector('[aria-labelledby=st-defaults] .status').textContent")
        check("delete-all: the defaults card is read afresh (saving right after works)", note == "Saved.", note)
        screenshot(driver, os.path.join(artifacts, "wording-delete-done-phone-light.png"))
        check("settings: no script errors", not page_errors(driver, ("delete-all/confirm",)), page_errors(driver, ("delete-all/confirm",)))
    finally:
        driver.quit()


def test_csv(companion, artifacts):
    """Settings offers the last 90 days or everything, as `export csv` does, and the 90-day file is the CLI's."""
    downloads = tempfile.mkdtemp(prefix="web-wording-dl-")
    driver = make_driver(downloads)
    base = companion.base
    try:
        open_on_phone(driver, base, "#/settings")
        links = driver.execute_script("return Array.from(document.querySelectorAll('a[data-role^=csv-]')).map(a => [a.dataset.role, a.textContent, a.getAttribute('href')])")
        check("csv: two downloads, the last 90 days and everything", links == [["csv-90", "Last 90 days", "/api/v1/export.csv?days=90"],
                                                                             ["csv-all", "Everything", "/api/v1/export.csv?all=true"]], links)
        for role, days in (("csv-90", ["--days", "90"]), ("csv-all", ["--all"])):
            path = download(driver, driver.find_element(By.CSS_SELECTOR, f"a[data-role={role}]"), downloads)
            if path is None:
                check(f"csv {role}: downloaded", False, os.listdir(downloads))
                continue
            time.sleep(0.2)
            got = open(path, encoding="utf-8").read()
            cli = run(companion.binary, "export", "csv", *days, "--data-dir", companion.data)
            rows = got.splitlines()[1:]
            sessions = {row.split(",")[0] for row in rows}
            check(f"csv {role}: the file `export csv {' '.join(days)}` writes", got == cli and rows, (len(got), len(cli)))
            if role == "csv-90":
                oldest = min(row.split(",")[1] for row in rows)
                limit = time.strftime("%Y-%m-%d", time.gmtime(time.time() - 90 * 86400))
                every = len(all_api_ids(companion, ""))
                check("csv 90 days: only sessions started in the last 90 days, fewer than all", oldest[:10] >= limit and len(sessions) < every,
                      (oldest, limit, len(sessions), every))
            else:
                check("csv everything: every session", len(sessions) == len(all_api_ids(companion, "")), len(sessions))
    finally:
        driver.quit()


def test_chart_labels(companion, artifacts):
    """The charts' labels at 390 px wide: the height of each label's box and its font size as drawn
    (the computed size times the drawing's scale), in CSS px."""
    driver = make_driver(tempfile.mkdtemp(prefix="web-wording-dl-"))
    base = companion.base
    try:
        onboard(driver, base)
        for size in SIZES:
            set_view(driver, size)
            for days in (30, 90):
                open_page(driver, base, "#/progress")
                if days == 90:
                    press(driver, driver.find_element(By.XPATH, "//button[normalize-space()='90 days']"))
                    wait_for(driver, "return Array.from(document.querySelectorAll('button[aria-pressed=\"true\"]')).some(b => b.textContent === '90 days')")
                wait_for(driver, "return document.querySelector('svg.chart text.label')")
                labels = driver.execute_script("""return Array.from(document.querySelectorAll('svg.chart text.label')).map(t => {
                    const box = t.getBoundingClientRect(), charts = Array.from(document.querySelectorAll('svg.chart'));
                    return { chart: charts.indexOf(t.closest('svg')), height: box.height, font: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
                             left: box.left, right: box.right, text: t.textContent }; })""")
                heights = [l["height"] for l in labels]
                fonts = [l["font"] for l in labels]
                print(f"  chart labels {size} {days} days: {len(labels)} labels, font size drawn {min(fonts):.1f}–{max(fonts):.1f} px, box height {min(heights):.1f}–{max(heights):.1f} px")
                check(f"chart {size} {days} days: labels drawn at 11 px or more", min(fonts) >= 11 and min(heights) >= 11, (min(fonts), min(heights)))
                check(f"chart {size} {days} days: labels not oversized", max(fonts) <= 14, max(fonts))
                # The day labels along the bottom do not overlap one another.
                days_row = sorted((l for l in labels if re.fullmatch(r"\d\d-\d\d", l["text"])), key=lambda l: (l["chart"], l["left"]))
                overlaps = [(a["text"], b["text"]) for a, b in zip(days_row, days_row[1:]) if a["chart"] == b["chart"] and a["right"] + 4 > b["left"]]
                check(f"chart {size} {days} days: day labels apart", days_row and not overlaps, overlaps)
                if size == "phone":
                    driver.find_elements(By.CSS_SELECTOR, "svg.chart")[0].screenshot(os.path.join(artifacts, f"wording-chart-phone-{days}-days.png"))
    finally:
        driver.quit()


def main():
    args = arguments()
    started = time.time()
    work = tempfile.mkdtemp(prefix="web-wording-")
    servers = []
    try:
        # Bursts on past days, some beyond 90 days (so the 90-day CSV is not everything), and today.
        data = os.path.join(work, "data")
        fill(args.binary, data, [(130, 5, 1), (95, 5, 2), (60, 6, 3), (40, 6, 4), (23, 6, 5), (12, 7, 6), (5, 7, 7), (2, 6, 8), (0, 8, 9)])
        scratch = os.path.join(work, "scratch")  # delete-all and settings changes happen here
        fill(args.binary, scratch, [(3, 4, 21), (0, 4, 22)])
        main_server = Companion(args.binary, data, os.path.join(work, "companion.log"))
        servers.append(main_server)
        scratch_server = Companion(args.binary, scratch, os.path.join(work, "scratch.log"))
        servers.append(scratch_server)
        for name, test in (("every page", lambda: test_every_page_speaks(main_server, args.artifacts)),
                           ("sessions", lambda: test_sessions(main_server, args.artifacts)),
                           ("chart labels", lambda: test_chart_labels(main_server, args.artifacts)),
                           ("csv", lambda: test_csv(main_server, args.artifacts)),
                           ("settings", lambda: test_settings(scratch_server, args.artifacts))):
            check.attempt(f"wording {name}", test, f"{name}: ")
    finally:
        for server in servers:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)
    print(f"web wording: {check.passed} passed, {check.failed} failed ({time.time() - started:.0f} s)")
    check.finish(args.counts)


main()
