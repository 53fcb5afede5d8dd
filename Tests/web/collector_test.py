#!/usr/bin/env python3
"""The collector's pages in headless Chromium (Selenium), against real processes on loopback: a
`chronoception collector serve` on SQLite and three devices whose `simulate`-made histories were pushed
with `collector enrol` + `sync add` + `sync now`. The device picker names the devices; a device's
progress shows the numbers of the device's own `progress --json`; a participant's adds up their
devices; the CSV link downloads the rows of every finished session (completed, aborted, interrupted)
with the device columns; the pickers
work from the keyboard; no horizontal overflow at phone and desktop width. Run by Tests/web/run."""
import csv, datetime, io, json, math, os, re, shutil, tempfile, urllib.request

from browser import js_errors, screenshot, wait_for
from selenium.webdriver.common.by import By
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select
from webparts import SIZES, Checks, Collector, arguments, download, make_driver, run, set_size

# name, participant, [(days ago or 0, sessions, seed)]: bursts on past days (faketime) feed the
# "7 days before" window and the trend; the last burst ends now.
DEVICES = [("anna-pi", "P01", [(9, 5, 11), (0, 7, 12)]),
           ("anna-desktop", "P01", [(0, 4, 21)]),
           ("ben-pi", "P02", [(10, 3, 31), (2, 4, 32), (0, 6, 33)])]
CODE = re.compile(r"^  ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})$", re.M)

check = Checks("collector")


def make_device(binary, collector, work, name, participant, bursts):
    """A device's store filled by `simulate`, enrolled and pushed; answers its data dir and its own progress."""
    data = os.path.join(work, name)
    for days_ago, sessions, seed in bursts:
        faked = ["faketime", "-f", f"-{days_ago}d"] if days_ago else []
        run(*faked, binary, "simulate", "--sessions", str(sessions), "--seed", str(seed), "--quiet", "--data-dir", data)
    enrolled = collector.cli("enrol", name, "--participant", participant, "--url", collector.url)
    code = CODE.search(enrolled)
    if not code:
        raise RuntimeError(f"no code in `collector enrol` output: {enrolled}")
    run(binary, "sync", "add", collector.url, "--code", code.group(1), "--board", "desktop", "--data-dir", data)
    run(binary, "sync", "now", "--data-dir", data)
    progress = json.loads(run(binary, "progress", "--json", "--data-dir", data))
    exported = list(csv.DictReader(io.StringIO(run(binary, "export", "csv", "--all", "--data-dir", data), newline="")))
    return data, progress, [row for row in exported if row["status"] != "running"]


def finished_sessions(progress):
    """Completed, aborted and interrupted: every session that travels to the collector."""
    return sum(progress[f"{status}_sessions"] for status in ("completed", "aborted", "interrupted"))


def device_interval(binary, data, seconds):
    """The device's own progress for one interval (`progress --interval`): what the collector's card must show."""
    intervals = json.loads(run(binary, "progress", "--json", "--interval", str(seconds), "--data-dir", data))["intervals"]
    return intervals[0] if intervals else {"completed_sessions": 0}


def seconds_text(value):
    """SPEC §1's display rule, as format.js's seconds() (shared with the companion): whole seconds,
    rounded half away from zero, `Ns` under 60 s, `Nm Ns` from 60 s."""
    if value is None:
        return "—"
    total = int(math.floor(abs(value) + 0.5))
    return f"{total}s" if total < 60 else f"{total // 60}m {total % 60}s"


DURATION = re.compile(r"^(?:[1-9]\d*m [0-5]?\d|[0-5]?\d)s$")
# "37 s", "1.6 s", "15 s": a number and a separate "s", or a fraction of a second.
BROKEN_DURATION = re.compile(r"\d\s+s\b|\d\.\d+\s*s\b")


def display_rule(name, driver):
    """Every duration the progress section shows follows the display rule: the recent sessions'
    Interval column, the cards' titles and their typical errors; nothing reads "37 s" or "1.6 s"."""
    text = driver.execute_script("return document.querySelector('#progress').innerText")
    check(f"{name}: no duration in the \"37 s\" or \"1.6 s\" form", not BROKEN_DURATION.search(text), BROKEN_DURATION.findall(text))
    intervals = driver.execute_script("return Array.from(document.querySelectorAll('#progress td[data-label=Interval]')).map(c => c.textContent)")
    check(f"{name}: the recent sessions' intervals read Ns or Nm Ns", intervals and all(DURATION.match(t) for t in intervals), intervals)
    titles = driver.execute_script("return Array.from(document.querySelectorAll('#progress .grid > .card h3')).map(h => h.textContent.split('  ')[0])")
    check(f"{name}: the cards' intervals read Ns or Nm Ns", titles and all(DURATION.match(t) for t in titles), titles)
    errors = re.findall(r"Typical error (\S+(?: \d+s)?) last 7 days, (\S+(?: \d+s)?) the 7 days before", text)
    check(f"{name}: typical errors read Ns or Nm Ns (or — when none)",
          errors and all(e == "—" or DURATION.match(e) for pair in errors for e in pair), errors)


def shared_formatter(driver, collector):
    """The collector's pages use the companion's format.js, served from the one embedded copy, and its
    seconds() is the display rule: "37s" and "2s", never "37 s" or "1.6 s"."""
    served = urllib.request.urlopen(collector.url + "/format.js", timeout=10).read().decode()
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "web", "format.js"), encoding="utf-8") as file:
        # Served as scripts/embed-web embeds every script: its whole-line comments left out.
        source = "\n".join(line for line in file.read().rstrip("\n").split("\n") if not line.lstrip().startswith("//"))
        check("collector serves the companion's format.js, byte for byte", served.rstrip("\n") == source)
    scripts = driver.execute_script("return Array.from(document.scripts).map(s => s.getAttribute('src'))")
    check("collector page loads format.js before collector.js", scripts == ["/format.js", "/collector.js"], scripts)
    cases = [37, 37.4, 1.6, 2.5, 15, 0.4, 59.4, 59.5, 60, 90, 125.5, -37.4, None]
    shown = driver.execute_script("return arguments[0].map(v => seconds(v))", cases)
    expected = ["37s", "37s", "2s", "3s", "15s", "0s", "59s", "1m 0s", "1m 0s", "1m 30s", "2m 6s", "37s", "—"]
    check("collector's seconds() is the display rule", shown == expected, list(zip(cases, shown)))
    check("the test's own seconds_text agrees", [seconds_text(v) for v in cases] == expected, [seconds_text(v) for v in cases])


def shown_progress(driver):
    """What the progress section shows: its heading and, per interval card, its lines."""
    return driver.execute_script("""
      const section = document.querySelector('#progress');
      const heading = section.querySelector('h2');
      return { heading: heading ? heading.textContent : null,
               cards: Array.from(section.querySelectorAll('.grid > .card')).map(card => ({
                 title: card.querySelector('h3').textContent,
                 lines: Array.from(card.querySelectorAll('p')).map(p => p.textContent) })) };""")


def expect_progress(name, driver, label, count, intervals):
    """The page shows `count` completed sessions and one card per interval with exactly the numbers of
    `intervals` (`progress --json` interval objects)."""
    shown = shown_progress(driver)
    check(f"{name}: heading names it with its completed sessions", shown["heading"] == f"{label} — {count} completed session{'' if count == 1 else 's'}", shown["heading"])
    cards = {card["title"].split("  ")[0]: card for card in shown["cards"]}
    check(f"{name}: one card per interval", len(shown["cards"]) == len(intervals) and set(cards) == {i["interval"] for i in intervals},
          (list(cards), [i["interval"] for i in intervals]))
    for interval in intervals:
        card = cards.get(interval["interval"])
        if card is None:
            continue
        lines = card["lines"]
        score = "—" if interval["time_acuity_score"] is None else str(interval["time_acuity_score"])
        count = interval["completed_sessions"]
        check(f"{name} {interval['interval']}: completed sessions", f"{count} completed session{'' if count == 1 else 's'}" in lines, lines)
        if not interval["last_zones"]:
            # Passive only: no guesses, so the card says so instead of an error and a score.
            check(f"{name} {interval['interval']}: no timed attempts, no error or score shown",
                  not any(line.startswith("Typical error") for line in lines) and "—" not in lines
                  and any(line.startswith("No timed attempts at this interval") for line in lines), lines)
        else:
            typical = (f"Typical error {seconds_text(interval['typical_error_seconds_last_7_days'])} last 7 days, "
                       f"{seconds_text(interval['typical_error_seconds_7_days_before'])} the 7 days before")
            check(f"{name} {interval['interval']}: typical errors", any(line.startswith(typical) for line in lines), (typical, lines))
            check(f"{name} {interval['interval']}: Time Acuity {score}", score in lines, lines)
        check(f"{name} {interval['interval']}: pattern", (interval["pattern"] or "") in card["title"], (interval["pattern"], card["title"]))


def no_overflow(name, driver):
    """Nothing wider than the viewport: the page does not scroll sideways, and no table hides columns
    in a box that scrolls sideways (the device table's last columns were cut off at phone width)."""
    widths = driver.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    check(f"{name}: no horizontal overflow", widths[0] <= widths[1], widths)
    clipped = driver.execute_script("""
      return Array.from(document.querySelectorAll('.table-wrap')).filter(w => w.scrollWidth > w.clientWidth + 1)
        .map(w => (w.querySelector('caption') || w).textContent.trim() + ' ' + w.scrollWidth + '>' + w.clientWidth);""")
    check(f"{name}: every table fits its card", not clipped, clipped)


def refused_rows(driver):
    """Sessions refused at ingest (a study tag not the device's) are counted in the device's row when
    there are any, as text: a made-up answer (no pushed device has any, and a name with markup must stay
    text) is rendered by the page's own renderDevices, then the collector's real answer again."""
    made_up = [{"id": "x", "name": "<b>odd</b>", "participant": None, "board": "desktop", "sessions": 12, "refused_sessions": 3,
                "last_seen_at": None, "revoked_at": None},
               {"id": "y", "name": "plain", "participant": None, "board": "desktop", "sessions": 2, "refused_sessions": 0,
                "last_seen_at": None, "revoked_at": None}]
    shown = driver.execute_script("""
      renderDevices(arguments[0]);
      return Array.from(document.querySelectorAll('#device-table tbody tr'))
        .map(r => [r.cells[0].textContent, r.cells[0].children.length, r.cells[3].textContent]);""", made_up)
    check("device table: refused sessions are counted when above 0, names stay text",
          shown == [["<b>odd</b>", 0, "12 (3 refused: study tag not this device's)"], ["plain", 0, "2"]], shown)
    restored = driver.execute_async_script("""
      const done = arguments[arguments.length - 1];
      api("/devices").then((answer) => { renderDevices(answer.devices); done(document.querySelectorAll('#device-table tbody tr').length); },
                           (error) => done(String(error)));""")
    check("device table: the collector's own answer shown again", restored == len(DEVICES), restored)


def download_csv(driver, downloads):
    """Clicks the page's CSV link and answers the downloaded file's rows (as dicts)."""
    link = driver.find_element(By.ID, "export-link")
    path = download(driver, link, downloads)
    if path:
        with open(path, newline="") as file:
            return list(csv.DictReader(file))
    raise RuntimeError(f"no CSV downloaded from {link.get_attribute('href')}: {os.listdir(downloads)}")


def test_collector(binary, artifacts):
    work = tempfile.mkdtemp(prefix="collector-web-")
    downloads = os.path.join(work, "downloads")
    os.makedirs(downloads)
    collector = Collector(binary, work)
    driver = None
    try:
        devices = {}
        for name, participant, bursts in DEVICES:
            data, progress, rows = make_device(binary, collector, work, name, participant, bursts)
            devices[name] = {"participant": participant, "data": data, "progress": progress, "rows": rows}
        listed = {d["name"]: d for d in collector.api("/devices")["devices"]}
        for name, device in devices.items():
            finished = finished_sessions(device["progress"])
            check(f"{name}: the collector holds the device's finished sessions, aborted and interrupted ones too",
                  listed.get(name, {}).get("sessions") == finished, (listed.get(name), finished))

        driver = make_driver(downloads)
        set_size(driver, "desktop")
        driver.get(collector.url + "/")
        wait_for(driver, "return document.querySelectorAll('#device-picker option').length > 1")
        picker = Select(driver.find_element(By.ID, "device-picker"))
        options = [o.text for o in picker.options][1:]
        check("picker lists every device by name with its participant", sorted(options) == sorted(f"{n} ({d['participant']})" for n, d in devices.items()), options)
        rows = driver.execute_script("return Array.from(document.querySelectorAll('#device-table tbody tr')).map(r => Array.from(r.cells).map(c => c.textContent))")
        table = {row[0]: row for row in rows}
        for name, device in devices.items():
            row = table.get(name, [])
            check(f"{name}: device table row (participant, board, sessions, enrolled)",
                  row[1:4] == [device["participant"], "desktop", str(finished_sessions(device["progress"]))] and row[4] == "—" and row[6] == "enrolled", row)
        check("no device has a session refused at ingest, and no row says so",
              all(d.get("refused_sessions") == 0 for d in listed.values()) and not any("refused" in c for row in rows for c in row),
              [(n, d.get("refused_sessions")) for n, d in listed.items()])
        refused_rows(driver)
        shared_formatter(driver, collector)
        participants = [o.text for o in Select(driver.find_element(By.ID, "participant-picker")).options][1:]
        check("participant picker lists each participant once", participants == ["P01", "P02"], participants)
        screenshot(driver, os.path.join(artifacts, "collector-devices-desktop.png"))

        # The CSV has the device export's rows (one per attempt or boundary, docs/STORE.md) of every
        # finished session, each with the device's columns in front.
        everything = download_csv(driver, downloads)
        total = sum(finished_sessions(d["progress"]) for d in devices.values())
        sessions = {r["session_id"] for r in everything}
        check("CSV of all devices: every finished session, none other", len(sessions) == total, (len(sessions), total))
        check("CSV of all devices: as many rows as the devices' own exports of finished sessions",
              len(everything) == sum(len(d["rows"]) for d in devices.values()), (len(everything), sum(len(d["rows"]) for d in devices.values())))
        check("CSV has the device columns first", everything and list(everything[0])[:3] == ["device_id", "device_name", "participant"], everything[:1] and list(everything[0]))
        for name, device in devices.items():
            mine = [r for r in everything if r["device_name"] == name]
            check(f"CSV of all devices: {name}'s rows, with its participant and one device id",
                  all(r["participant"] == device["participant"] for r in mine) and len({r["device_id"] for r in mine}) == 1 and
                  mine[0]["device_id"] == listed[name]["id"], (len(mine), {r["device_id"] for r in mine}))
            # health_log differs by design (docs/COLLECTOR.md): the device's ledger state (written, owed,
            # skipped) there, the decision the device synced (record, skip) here.
            decision = {"written": "record", "owed": "record", "skipped": "skip"}
            def columns(row):
                return tuple(decision.get(row[key], row[key]) if key == "health_log" else row[key] for key in device["rows"][0])
            differing = sorted(set(map(columns, device["rows"])) ^ set(map(columns, mine)))
            check(f"CSV of all devices: {name}'s rows are the device's own export's, value for value", not differing, differing[:4])

        for name, device in devices.items():
            label = f"{name} ({device['participant']})"
            picker.select_by_visible_text(label)
            wait_for(driver, f"const h = document.querySelector('#progress h2'); return h && h.textContent.startsWith({json.dumps(label + ' —')})")
            # The collector shows the intervals the device's own progress shows for the same sessions
            # (ProgressReport.of, docs/COLLECTOR.md): frecency over its synced sessions, each one use at
            # its start (a later "now" scales every score alike, so the order does not drift), each card
            # with the numbers the device's own store gives for that interval.
            shown = collector.api("/progress?device=" + name)["progress"]["intervals"]
            # Every synced session is a use (aborted and interrupted ones too, as on the device); an
            # interval is shown only once it has a completed session (docs/STORE.md, progress).
            scores, completed, now = {}, set(), datetime.datetime.now(datetime.timezone.utc).timestamp()
            for synced in collector.api("/sessions?limit=10000&device=" + name)["sessions"]:
                age = max(now - datetime.datetime.fromisoformat(synced["started_at"]).timestamp(), 0)
                scores[synced["target_interval_ms"]] = scores.get(synced["target_interval_ms"], 0) + 0.5 ** (age / (14 * 86_400))
                if synced["status"] == "completed":
                    completed.add(synced["target_interval_ms"])
            ranked = sorted(completed, key=lambda ms: (-scores[ms], ms))[:5]
            check(f"{name}: the cards are its intervals in frecency order", [i["target_interval_seconds"] * 1000 for i in shown] == ranked,
                  ([i["interval"] for i in shown], ranked))
            own = [device_interval(binary, device["data"], i["target_interval_seconds"]) for i in shown]
            expect_progress(name, driver, label, device["progress"]["completed_sessions"], own)
            display_rule(name, driver)
            legend = driver.execute_script("return Array.from(document.querySelectorAll('#progress .legend span')).map(s => s.textContent)")
            mix = [f"{m['mode'].capitalize()}: {m['sessions']} ({round(m['share'] * 100)} %)" for m in device["progress"]["mode_mix"]]
            check(f"{name}: the mode mix names its modes with the device's counts", legend == mix, (legend, mix))
            link = driver.find_element(By.ID, "export-link").text
            check(f"{name}: the CSV link names the device", link == "Download CSV: " + label, link)
            rows = download_csv(driver, downloads)
            check(f"{name}: its CSV link downloads its rows only", len(rows) == len(device["rows"]) and
                  {r["device_name"] for r in rows} == {name}, (len(rows), {r["device_name"] for r in rows}))
        no_overflow("device progress at 1280 px", driver)
        screenshot(driver, os.path.join(artifacts, "collector-device-desktop.png"))

        # A participant's progress adds up their devices' sessions; their CSV holds both devices.
        Select(driver.find_element(By.ID, "participant-picker")).select_by_visible_text("P01")
        wait_for(driver, "const h = document.querySelector('#progress h2'); return h && h.textContent.startsWith('participant P01 —')")
        anna = [d for d in devices.values() if d["participant"] == "P01"]
        expected = collector.api("/progress?participant=P01")["progress"]
        check("participant P01: the API adds up both devices", expected["completed_sessions"] == sum(d["progress"]["completed_sessions"] for d in anna), expected["completed_sessions"])
        expect_progress("participant P01", driver, "participant P01", expected["completed_sessions"], expected["intervals"])
        for interval in expected["intervals"]:
            mine = sum(device_interval(binary, d["data"], interval["target_interval_seconds"])["completed_sessions"] for d in anna)
            check(f"participant P01 {interval['interval']}: its devices' sessions added up", interval["completed_sessions"] == mine, (interval["completed_sessions"], mine))
        check("participant P01: the device picker is cleared", picker.first_selected_option.get_attribute("value") == "")
        rows = download_csv(driver, downloads)
        check("participant P01: CSV holds both devices' rows", len(rows) == sum(len(d["rows"]) for d in anna) and
              len({r["session_id"] for r in rows}) == finished_sessions(expected) and {r["device_name"] for r in rows} == {"anna-pi", "anna-desktop"},
              (len(rows), {r["device_name"] for r in rows}))

        for size in SIZES:
            set_size(driver, size)
            driver.get(collector.url + "/")
            wait_for(driver, "return document.querySelectorAll('#device-picker option').length > 1")
            no_overflow(f"device list at {size} width", driver)
            screenshot(driver, os.path.join(artifacts, f"collector-devices-{size}.png"))
            Select(driver.find_element(By.ID, "device-picker")).select_by_visible_text("ben-pi (P02)")
            wait_for(driver, "const h = document.querySelector('#progress h2'); return h && h.textContent.startsWith('ben-pi')")
            no_overflow(f"device progress at {size} width", driver)
            screenshot(driver, os.path.join(artifacts, f"collector-device-{size}.png"))
            # What a person sees on one screen: the device list's top and the progress's start.
            driver.save_screenshot(os.path.join(artifacts, f"collector-device-{size}-top.png"))
            driver.execute_script("document.querySelector('#progress').scrollIntoView()")
            driver.save_screenshot(os.path.join(artifacts, f"collector-device-{size}-progress.png"))
            driver.execute_script("document.querySelector('#progress .table-wrap').scrollIntoView()")
            driver.save_screenshot(os.path.join(artifacts, f"collector-device-{size}-recent.png"))

        # The dark theme (the shared stylesheet's colours) at desktop width, where the size loop ends.
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(os.path.join(artifacts, "collector-device-desktop-dark-top.png"))
        driver.execute_script("document.querySelector('#progress').scrollIntoView()")
        driver.save_screenshot(os.path.join(artifacts, "collector-device-desktop-dark-progress.png"))
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})

        # The keyboard alone: Tab reaches the device picker, an arrow key picks the first device.
        set_size(driver, "desktop")
        driver.get(collector.url + "/")
        wait_for(driver, "return document.querySelectorAll('#device-picker option').length > 1")
        body = driver.find_element(By.TAG_NAME, "body")
        for presses in range(1, 8):
            body.send_keys(Keys.TAB) if presses == 1 else driver.switch_to.active_element.send_keys(Keys.TAB)
            if driver.execute_script("return document.activeElement.id") == "device-picker":
                break
        check("keyboard: Tab reaches the device picker", driver.execute_script("return document.activeElement.id") == "device-picker", presses)
        focus = driver.execute_script("const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth, s.boxShadow]")
        check("keyboard: the focused picker shows a focus ring", (focus[0] != "none" and focus[1] != "0px") or focus[2] != "none", focus)
        driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
        first = Select(driver.find_element(By.ID, "device-picker")).options[1].text
        try:
            wait_for(driver, f"const h = document.querySelector('#progress h2'); return h && h.textContent.startsWith({json.dumps(first + ' —')})", timeout=5)
        except TimeoutException:
            pass
        heading = driver.execute_script("const h = document.querySelector('#progress h2'); return h && h.textContent")
        check("keyboard: an arrow key on the picker shows that device", bool(heading) and heading.startswith(first + " —"), (first, heading))
        announced = driver.execute_script("return [document.getElementById('progress-announcement').textContent, document.getElementById('progress').getAttribute('aria-live')]")
        check("screen reader: one sentence announces the choice, the progress section itself is not live",
              announced[0].startswith("Showing " + first + ":") and announced[1] is None, announced)

        # A revoked device keeps its sessions, so it stays in the picker (marked) and its progress shows.
        collector.cli("revoke", "anna-desktop")
        driver.get(collector.url + "/")
        wait_for(driver, "return document.querySelectorAll('#device-picker option').length > 1")
        revoked = collector.api("/devices")["devices"]
        revoked = next(d for d in revoked if d["name"] == "anna-desktop")
        row = driver.execute_script("return Array.from(document.querySelectorAll('#device-table tbody tr')).map(r => Array.from(r.cells).map(c => c.textContent)).find(r => r[0] === 'anna-desktop')")
        check("revoked: the table says when, in UTC", row[6] == "revoked " + revoked["revoked_at"].replace("T", " ")[:16] + " UTC", (row, revoked["revoked_at"]))
        check("last seen: the collector's instant, in UTC", row[5] == revoked["last_seen_at"].replace("T", " ")[:16] + " UTC", (row, revoked["last_seen_at"]))
        label = "anna-desktop (P01), revoked"
        picker = Select(driver.find_element(By.ID, "device-picker"))
        check("revoked: still in the picker, marked", label in [o.text for o in picker.options], [o.text for o in picker.options])
        picker.select_by_visible_text(label)
        wait_for(driver, f"const h = document.querySelector('#progress h2'); return h && h.textContent.startsWith({json.dumps(label + ' —')})")
        count = devices["anna-desktop"]["progress"]["completed_sessions"]
        check("revoked: its progress still shows its sessions", shown_progress(driver)["heading"] == f"{label} — {count} completed sessions", shown_progress(driver)["heading"])
        check("no script errors", not js_errors(driver), js_errors(driver))

        # From another machine: the browser names the collector by a host name (mapped to loopback
        # here), so the collector treats it as remote and its pages ask for a reader key.
        driver.quit()
        driver = make_driver(downloads, ("--host-resolver-rules=MAP collector.test 127.0.0.1",))
        remote = f"http://collector.test:{collector.port}/"
        driver.get(remote)
        wait_for(driver, "return !!document.querySelector('#login-form input[type=password]')")
        check("remote: the page asks for a reader key, and the key field has focus",
              driver.execute_script("return document.activeElement && document.activeElement.id") == "reader-key")
        field = driver.find_element(By.ID, "reader-key")
        field.send_keys("not-a-key" + Keys.ENTER)
        wait_for(driver, "const s = document.querySelector('#status .status.error'); return s && s.textContent.includes('not (or no longer) a reader key')")
        check("remote: a wrong key is refused, and the form stays", bool(driver.find_elements(By.ID, "login-form")))
        key = collector.cli("keys", "add", "study laptop").split("\n")[1].strip()
        driver.find_element(By.ID, "reader-key").send_keys(key + Keys.ENTER)
        wait_for(driver, "return document.querySelectorAll('#device-picker option').length > 1")
        names = [o.text for o in Select(driver.find_element(By.ID, "device-picker")).options][1:]
        check("remote: with a reader key pasted, the picker lists the devices", len(names) == len(devices), names)
        cookies = {c["name"]: c for c in driver.get_cookies()}
        kept = cookies.get("chronoception_key", {})
        check("remote: the browser keeps the key as an HttpOnly, SameSite=Strict cookie", kept.get("httpOnly") is True and kept.get("sameSite") == "Strict", kept)
        check("remote: the address bar holds no secret", key not in driver.current_url, driver.current_url)
        collector.cli("keys", "revoke", "study laptop")
        driver.get(remote)
        wait_for(driver, "return !!document.querySelector('#login-form')")
        check("remote: a revoked key brings the key form back", "no longer" in driver.find_element(By.ID, "login-help").text)
    finally:
        if driver:
            driver.quit()
        collector.stop()
        shutil.rmtree(work, ignore_errors=True)


def main():
    args = arguments()
    check.attempt("collector", lambda: test_collector(args.binary, args.artifacts))
    print(f"web collector: {check.passed} passed, {check.failed} failed")
    check.finish(args.counts)


main()
