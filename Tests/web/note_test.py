#!/usr/bin/env python3
"""A session's note on the companion (issue 22, the note addition), in headless Chromium against its
own `chronoception companion` over a store filled by `simulate`:

- the session page has a Note card: "after coffee" typed and saved says "Note saved." and the device
  keeps it (GET /sessions/{id}); a reload shows it in the field; Progress's recent sessions show it
  as a muted line; the CSV downloaded from Settings ("Everything") has it in the session's rows'
  column after timing_late_ms, and is the file `chronoception export csv --all` writes;
- a 300-character note is refused in the device's words ("Not saved: The note is 300 characters
  long; a note holds at most 200. Shorten it."), the counter says how far over it is, and the stored
  note is unchanged; a note holding an invisible direction mark is refused in words too; a formula
  note is saved and neutralised in the CSV; Remove clears it;
- no route, JSON or backtick on the page, no script error; screenshots at phone and desktop width,
  light and dark.
Run by Tests/web/run (WEB_ONLY=note)."""
import csv, io, os, re, shutil, subprocess, tempfile, time

from browser import js_errors, screenshot, wait_for
from selenium.webdriver.common.by import By
from webparts import Checks, Companion, arguments, download, loaded, make_driver, onboard, open_page, press, run, set_view, views

CODE_WORDS = re.compile(r"`|/api/|\b(GET|POST|PATCH|PUT|DELETE) /|\{\"")
LONG_REFUSAL = "Not saved: The note is 300 characters long; a note holds at most 200. Shorten it."

check = Checks("note")


def export_all(companion):
    """`chronoception export csv --all` as written: bytes, CRLF kept (text mode would turn it into LF)."""
    done = subprocess.run([companion.binary, "export", "csv", "--all", "--data-dir", companion.data], capture_output=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"export csv exited {done.returncode}: {done.stderr.decode(errors='replace')}")
    return done.stdout.decode("utf-8")


def speaks(driver, where):
    text = driver.execute_script("""
      const parts = [document.body.innerText, document.title];
      for (const e of document.querySelectorAll('input, select, textarea')) parts.push(e.value || '', e.placeholder || '');
      return parts.join('\\n');""")
    found = sorted({m.group(0) for m in CODE_WORDS.finditer(text)})
    check(f"{where}: no backtick, route or JSON shown", not found, found)


def type_note(driver, text):
    field = driver.find_element(By.ID, "note-input")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
    field.clear()
    field.send_keys(text)


def save(driver):
    driver.execute_script("window.__noteStatus = document.querySelector('[data-role=note-status]').textContent + '|' + Date.now()")
    press(driver, driver.find_element(By.CSS_SELECTOR, "[data-role=note-save]"))
    wait_for(driver, "const s = document.querySelector('[data-role=note-status]'); return !s.hidden && !document.querySelector('[data-role=note-save]').disabled && s.textContent")
    return driver.find_element(By.CSS_SELECTOR, "[data-role=note-status]")


def download_everything(driver, base, downloads):
    open_page(driver, base, "#/settings")
    path = download(driver, driver.find_element(By.CSS_SELECTOR, "a[data-role=csv-all]"), downloads)
    if path is None:
        return None
    time.sleep(0.3)
    return open(path, encoding="utf-8", newline="").read()


def test_note(companion, artifacts):
    downloads = tempfile.mkdtemp(prefix="web-note-dl-")
    driver = make_driver(downloads)
    base = companion.base
    try:
        listed = companion.api("/sessions?status=completed&limit=100")["sessions"]
        # The newest completed session, so Progress's recent sessions list it.
        session_id = listed[0]["session_id"]
        onboard(driver, base)
        set_view(driver, "phone")
        open_page(driver, base, f"#/session/{session_id}")
        check("the session page has a Note card", driver.find_elements(By.CSS_SELECTOR, "[data-role=note] h2")
              and driver.find_element(By.CSS_SELECTOR, "[data-role=note] h2").text == "Note")
        check("the field starts empty", driver.find_element(By.ID, "note-input").get_attribute("value") == "")

        type_note(driver, "after coffee")
        count = driver.find_element(By.ID, "note-count").text
        check("the counter counts as the device does", count == "12 of 200 characters.", count)
        status = save(driver)
        check("saved, in words", status.text == "Note saved." and "ok" in status.get_attribute("class"), status.text)
        check("the device keeps it", companion.api(f"/sessions/{session_id}")["note"] == "after coffee")
        speaks(driver, "session page with a note")

        driver.execute_script("location.reload()")
        loaded(driver)
        check("a reload shows it", driver.find_element(By.ID, "note-input").get_attribute("value") == "after coffee")
        check("Remove is offered for a saved note", driver.find_element(By.CSS_SELECTOR, "[data-role=note-remove]").is_displayed())
        for size, theme in views(driver):
            open_page(driver, base, f"#/session/{session_id}")
            screenshot(driver, os.path.join(artifacts, f"note-saved-{size}-{theme}.png"))
        set_view(driver, "phone")

        open_page(driver, base, "#/progress")
        wait_for(driver, "return document.querySelector('[data-role=note-line]')")
        lines = driver.execute_script("""return Array.from(document.querySelectorAll('[data-role=note-line]')).map(e =>
            [e.closest('li').querySelector('a').getAttribute('href'), e.innerText.trim(), getComputedStyle(e).color])""")
        check("Progress's recent sessions show the note as a muted line",
              len(lines) == 1 and lines[0][0] == f"#/session/{session_id}" and lines[0][1] == "Note: after coffee", lines)
        driver.find_element(By.CSS_SELECTOR, "[data-role=note-line]").find_element(By.XPATH, "./ancestor::section[1]").screenshot(
            os.path.join(artifacts, "note-list-phone-light.png"))

        got = download_everything(driver, base, downloads)
        check("the CSV downloads", got is not None)
        if got is not None:
            cli = export_all(companion)
            check("the download is the file export csv --all writes", got == cli,
                  next(((a, b) for a, b in zip(got.split("\r\n"), cli.split("\r\n")) if a != b), (len(got), len(cli))))
            rows = list(csv.reader(io.StringIO(got)))
            note = rows[0].index("note")
            check("the note column follows timing_late_ms", rows[0][note - 1] == "timing_late_ms", rows[0][-7:])
            mine = [r for r in rows[1:] if r[0] == session_id]
            check("the session's rows carry the note", mine and all(r[note] == "after coffee" for r in mine), [r[note] for r in mine])
            others = [r for r in rows[1:] if r[0] != session_id]
            check("other sessions' rows have none", others and all(r[note] == "" for r in others))

        open_page(driver, base, f"#/session/{session_id}")
        type_note(driver, "x" * 300)
        count = driver.find_element(By.ID, "note-count").text
        check("the counter says how far over", count == "300 characters: 100 over the 200 a note holds.", count)
        status = save(driver)
        check("a 300-character note is refused in the device's words", status.text == LONG_REFUSAL and "error" in status.get_attribute("class"), status.text)
        check("the field keeps what was typed", len(driver.find_element(By.ID, "note-input").get_attribute("value")) == 300)
        check("the stored note is unchanged", companion.api(f"/sessions/{session_id}")["note"] == "after coffee")
        speaks(driver, "session page with a refused note")
        for size, theme in views(driver):
            driver.execute_script("window.scrollTo(0, 0)")
            screenshot(driver, os.path.join(artifacts, f"note-refused-{size}-{theme}.png"))
        set_view(driver, "phone")

        # A direction mark cannot be seen; the device refuses it and says what it is.
        driver.execute_script("const f = document.getElementById('note-input'); f.value = 'abc\\u202Efed'; f.dispatchEvent(new Event('input'))")
        status = save(driver)
        check("an invisible direction mark is refused in words",
              status.text == "Not saved: The note holds an invisible text-direction mark (U+202E); write it on one line with ordinary characters.", status.text)

        type_note(driver, "=1+2")
        status = save(driver)
        check("a formula is a note like any other", status.text == "Note saved." and companion.api(f"/sessions/{session_id}")["note"] == "=1+2", status.text)
        exported = export_all(companion)
        formula_rows = [line for line in exported.split("\r\n") if line.startswith(session_id)]
        check("the CSV neutralises it", formula_rows and all(line.endswith(",\"'=1+2\",,,,,") for line in formula_rows), (formula_rows[:1], exported[:300]))

        press(driver, driver.find_element(By.CSS_SELECTOR, "[data-role=note-remove]"))
        wait_for(driver, "return document.querySelector('[data-role=note-status]').textContent === 'Note removed.'")
        check("Remove clears it", companion.api(f"/sessions/{session_id}")["note"] is None
              and driver.find_element(By.ID, "note-input").get_attribute("value") == ""
              and not driver.find_element(By.CSS_SELECTOR, "[data-role=note-remove]").is_displayed())
        errors = [e for e in js_errors(driver) if "422" not in e["message"]]
        check("no script errors", not errors, errors[:2])
    finally:
        driver.quit()
        shutil.rmtree(downloads, ignore_errors=True)


def main():
    args = arguments()
    started = time.time()
    work = tempfile.mkdtemp(prefix="web-note-")
    server = None
    try:
        data = os.path.join(work, "data")
        run(args.binary, "simulate", "--sessions", "20", "--seed", "22", "--quiet", "--data-dir", data)
        server = Companion(args.binary, data, os.path.join(work, "companion.log"))
        try:
            test_note(server, args.artifacts)
        except Exception as error:
            check.crash(f"note: {error.__class__.__name__}", error)
    finally:
        if server:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)
    print(f"web note: {check.passed} passed, {check.failed} failed ({time.time() - started:.0f} s)")
    check.finish(args.counts)


main()
