#!/usr/bin/env python3
"""The collector's Estimates page (web/collector-analysis.*) in headless Chromium against a real
`chronoception collector serve` on SQLite: three simulated participants with known Weber fractions and
biases (`simulate-study` on Tests/studies/recovery-2026.json) and one device outside any study
(`simulate`), pushed with `collector enrol` + `sync add` + `sync now`. The summary shows one row per
participant and group with the API's figures; a participant's page shows each group's figures, its
intervals, the SD-against-mean chart and feedback withheld against shown; the CSV links download what
the API serves; the picker works from the keyboard; no sideways overflow at phone and desktop width,
light and dark (screenshots: collector-analysis-*.png). Run by Tests/web/run."""
import os, re, shutil, tempfile, urllib.request

from browser import js_errors, screenshot, wait_for
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select
from webparts import Checks, Collector, arguments, download, make_driver, run, views

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
PROTOCOL = os.path.join(ROOT, "Tests", "studies", "recovery-2026.json")
PARTICIPANTS = [("P01", 0.08, 0.05), ("P02", 0.15, -0.06), ("P03", 0.11, 0.0)]
CODE = re.compile(r"^  ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})$", re.M)

check = Checks("collector-analysis")


def enrol_and_push(binary, collector, data, name, participant):
    code = CODE.search(collector.cli("enrol", name, "--participant", participant, "--url", collector.url))
    run(binary, "sync", "add", collector.url, "--code", code.group(1), "--board", "desktop", "--data-dir", data)
    run(binary, "sync", "now", "--data-dir", data)


def fixed(value, digits):
    """The page's fixed(): toFixed with a real minus sign."""
    return "—" if value is None else f"{value:.{digits}f}".replace("-", "−")


def interval_text(seconds):
    """SPEC §1's display rule for a whole number of seconds: `Ns` under a minute, `Nm Ns` from one."""
    return f"{seconds}s" if seconds < 60 else f"{seconds // 60}m {seconds % 60}s"


def percent(value):
    sign = "+" if value > 0 else "−" if value < 0 else ""
    return f"{sign}{abs(value * 100):.1f}\u00a0%"


def no_overflow(driver):
    return driver.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_page(binary, artifacts):
    work = tempfile.mkdtemp(prefix="chrono-web-analysis-")
    downloads = os.path.join(work, "downloads")
    os.makedirs(downloads)
    collector = Collector(binary, work)
    driver = None
    try:
        # The collector takes a session's study tag only for its device's participant and a protocol
        # assigned to them (docs/SYNC.md, "Study tags at ingest").
        collector.cli("protocol", "load", PROTOCOL)
        for index, (participant, weber, bias) in enumerate(PARTICIPANTS):
            collector.cli("protocol", "assign", "recovery-2026", "--participant", participant, "--seed", str(index + 1))
            data = os.path.join(work, participant)
            run(binary, "simulate-study", "--protocol", PROTOCOL, "--participant", participant, "--participant-index", str(index),
                "--seed", str(index + 1), "--weber", str(weber), "--bias", str(bias), "--data-dir", data)
            enrol_and_push(binary, collector, data, f"pi-{participant}", participant)
        outside = os.path.join(work, "ben")
        run(binary, "simulate", "--sessions", "12", "--seed", "5", "--quiet", "--data-dir", outside)
        enrol_and_push(binary, collector, outside, "ben-desktop", "P04")
        analysis = collector.api("/analysis")

        driver = make_driver(downloads)
        driver.get(collector.url + "/")
        wait_for(driver, "return document.querySelectorAll('#device-picker option').length > 1")
        link = driver.find_element(By.LINK_TEXT, "Estimates")
        check("the devices page links to the estimates page", link.get_attribute("href").endswith("/collector-analysis.html"))
        link.click()
        wait_for(driver, "return document.querySelectorAll('#summary-table tbody tr').length > 0")
        check("the estimates page's tab is marked as the current page",
              driver.execute_script("return document.querySelector('nav.tabs a[aria-current=page]').textContent") == "Estimates")

        # The summary: one row per participant and group, the API's figures rounded for reading.
        rows = driver.execute_script("return Array.from(document.querySelectorAll('#summary-table tbody tr')).map(r => Array.from(r.cells).map(c => c.textContent))")
        expected = []
        for p in analysis["participants"]:
            for g in p["groups"]:
                w = g["weber_fraction"]
                condition = (f"{g['protocol']} v{g['protocol_version']} · {g['condition']} · {g['mode'].capitalize()}" if g["protocol"]
                             else f"{g['mode'].capitalize()}, outside a study")
                expected.append([p["participant"], condition, str(g["sessions"]), str(g["attempts"]),
                                 fixed(w["value"], 3) if w else "—",
                                 f"{fixed(w['lower'], 3)} to {fixed(w['upper'], 3)}" if w and w["lower"] is not None else "—",
                                 percent(g["bias"]["value"]),
                                 f"{percent(g['bias']['lower'])} to {percent(g['bias']['upper'])}" if g["bias"]["lower"] is not None else "—"])
        check("summary: one row per participant and group with the API's Weber fraction, bias and their intervals", rows == expected,
              [(a, b) for a, b in zip(rows, expected) if a != b][:2] or (len(rows), len(expected)))
        check("summary: the participants outside a study are there too, marked", any(r[1].endswith("outside a study") for r in rows))
        for size, theme in views(driver):
            check(f"summary {size} {theme}: no sideways overflow", no_overflow(driver))
            screenshot(driver, os.path.join(artifacts, f"collector-analysis-summary-{size}-{theme}.png"))

        # One participant from the keyboard: Tab to the picker, arrow down to P02.
        driver.get(collector.url + "/collector-analysis.html")
        wait_for(driver, "return document.querySelectorAll('#summary-table tbody tr').length > 0")
        body = driver.find_element(By.TAG_NAME, "body")
        for _ in range(8):
            body.send_keys(Keys.TAB) if driver.execute_script("return document.activeElement.id") != "participant-picker" else None
        check("the participant picker is reached with Tab", driver.execute_script("return document.activeElement.id") == "participant-picker")
        Select(driver.find_element(By.ID, "participant-picker")).select_by_visible_text("P02")
        wait_for(driver, "const h = document.querySelector('#analysis h2'); return h && h.textContent === 'Participant P02'")
        report = next(p for p in analysis["participants"] if p["participant"] == "P02")
        cards = driver.execute_script("""return Array.from(document.querySelectorAll('#analysis .card.group')).map(c => ({
            title: c.querySelector('h3').textContent, figures: Array.from(c.querySelectorAll('.figures li')).map(l => l.textContent),
            cells: Array.from(c.querySelectorAll('tbody tr')).map(r => Array.from(r.cells).map(x => x.textContent)),
            chart: !!c.querySelector('svg.chart circle') }))""")
        check("P02: one card per group", [c["title"] for c in cards] == [f"{g['protocol']} v{g['protocol_version']} · {g['condition']} · {g['mode'].capitalize()}" for g in report["groups"]],
              [c["title"] for c in cards])
        for card, g in zip(cards, report["groups"]):
            w = g["weber_fraction"]
            check(f"P02 {g['condition']}: the Weber fraction with its interval",
                  card["figures"][0] == f"Weber fraction {fixed(w['value'], 3)} (95 % CI {fixed(w['lower'], 3)} to {fixed(w['upper'], 3)})", card["figures"][0])
            check(f"P02 {g['condition']}: the bias as a share of the target", card["figures"][2].startswith(f"Bias {percent(g['bias']['value'])} of the target"), card["figures"][2])
            rows = [[interval_text(int(c['target_s'])), str(c["n"]), f"{c['mean_s']:.2f} s", fixed(c["ratio"], 3), f"{c['sd_s']:.2f} s", fixed(c["cv"], 3)] for c in g["cells"]]
            check(f"P02 {g['condition']}: one row per interval with n, mean, ratio, SD and CV",
                  card["cells"] == rows, [(a, b) for a, b in zip(card["cells"], rows) if a != b][:2] or (len(card["cells"]), len(rows)))
            check(f"P02 {g['condition']}: SD against mean is drawn", card["chart"])
        feedback = driver.execute_script("return Array.from(document.querySelectorAll('#analysis .card.feedback p')).map(p => p.textContent)")
        check("P02: feedback withheld against shown, with its counts", feedback and feedback[0] == "240 attempts without feedback, 360 attempts with it.", feedback)
        for size, theme in views(driver):
            check(f"P02 {size} {theme}: no sideways overflow", no_overflow(driver))
            screenshot(driver, os.path.join(artifacts, f"collector-analysis-participant-{size}-{theme}.png"))

        # The downloads are the API's CSVs for the chosen participant.
        for link_id, path in [("estimates-link", "/api/v1/analysis.csv?table=estimates&participant=P02"),
                              ("tidy-link", "/api/v1/export-tidy.csv?participant=P02")]:
            saved = download(driver, driver.find_element(By.ID, link_id), downloads)
            served = urllib.request.urlopen(collector.url + path, timeout=10).read()
            check(f"download {link_id}: the API's CSV for P02", saved is not None and open(saved, "rb").read() == served, saved)
        check("no script errors", not js_errors(driver), js_errors(driver))
    finally:
        if driver:
            driver.quit()
        collector.stop()
        shutil.rmtree(work, ignore_errors=True)


def main():
    args = arguments()
    check.attempt("collector-analysis", lambda: test_page(args.binary, args.artifacts))
    print(f"web collector-analysis: {check.passed} passed, {check.failed} failed")
    check.finish(args.counts)


main()
