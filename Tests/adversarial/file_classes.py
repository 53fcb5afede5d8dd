"""The file and text classes: 5 (nothing written can overwrite the store), 6 (one validator for a
session: `import`'s fallback files and the collector's batches) and 10 (text from outside shown as
text: terminal output and CSV cells)."""

import copy
import hashlib
import csv
import io
import json
import os
import shutil
import sqlite3
import threading
import time
import urllib.parse
import uuid

from context import sha256
from lab import Dropped

YEAR_NS = 365 * 86_400 * 10**9
OUTPUT_IS_THE_STORE = 72  # docs/EXIT-CODES.md
DANGEROUS_LEADS = "=+@\t\r"


# ---------------------------------------------------------------------------------------------------
# Class 5: outputs that resolve to the store's own files

def class5_outputs(ctx):
    """Every export command with `-o` naming a file the store owns. The store's files are held open by
    another connection meanwhile (as a running daemon does), so its -wal and -shm exist."""
    data = ctx.data["export"]
    database = os.path.join(data, "chronoception.sqlite")
    backup = os.path.join(ctx.work, "export-backup.sqlite")
    # The first command after `simulate` settles the file (a page more); later commands change only
    # SQLite's header counters, which the comparison ignores.
    ctx.cli("export", "csv", "--all", "-o", os.path.join(ctx.work, "warm-up.csv"), "--data-dir", data)
    with sqlite3.connect(database) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copyfile(database, backup)
    health = os.path.join(data, "health-log", "mindful-sessions.jsonl")
    marker = os.path.join(data, ".chronoception.sqlite.verified")
    link = os.path.join(ctx.work, "link-to-store.sqlite")
    os.symlink(database, link)
    hard = os.path.join(ctx.work, "hardlink-to-store.sqlite")
    os.link(database, hard)
    os.makedirs(os.path.join(data, "sub"), exist_ok=True)
    holder = {"db": None}

    def hold():
        # A read-write connection keeps -wal and -shm on disk while commands come and go.
        holder["db"] = sqlite3.connect(database, timeout=10)
        holder["db"].execute("SELECT COUNT(*) FROM session").fetchone()

    def release():
        if holder["db"] is not None:
            holder["db"].close()
            holder["db"] = None

    hold()
    targets = [
        ("the database", database), ("its -wal", database + "-wal"), ("its -shm", database + "-shm"),
        ("a symlink to the database", link), ("a hard link to the database", hard),
        ("the database via ..", os.path.join(data, "sub", "..", "chronoception.sqlite")),
        ("the database via ./ and //", data + "/.//chronoception.sqlite"),
        ("the -wal via ..", os.path.join(data, "sub", "..", "chronoception.sqlite-wal")),
        ("the verified marker", marker),
        ("the database, relative to the working directory", "chronoception.sqlite"),
    ]
    commands = [("export csv --all", ["export", "csv", "--all"]), ("export csv --days 90", ["export", "csv", "--days", "90"]),
                ("export health", ["export", "health"]), ("export health --format apple-xml", ["export", "health", "--format", "apple-xml"])]
    cases = [(name, args, what, target) for name, args in commands for what, target in targets]
    cases.append(("export csv --all", ["export", "csv", "--all"], "the health log", health))
    cases.append(("export health --format apple-xml", ["export", "health", "--format", "apple-xml"], "the health log", health))
    for name, args, what, target in cases:
        release()
        hold()  # -wal and -shm on disk for this case (a command that ends may remove them)
        before = {"db": normalised_sha256(database), "health": sha256(health), "content": _content(holder["db"]),
                  "inode": _inode(database)}
        done = ctx_cli_in(ctx, data, [*args, "-o", target, "--data-dir", data])
        problems = []
        if done.rc != OUTPUT_IS_THE_STORE or done.trapped or done.err.count("error: ") != 1:
            problems.append(done.describe())
        if normalised_sha256(database) != before["db"]:
            problems.append("chronoception.sqlite changed (sha256 beyond SQLite's change counters)")
        if sha256(health) != before["health"]:
            problems.append("the health log changed")
        if _inode(database) != before["inode"]:
            problems.append("chronoception.sqlite was replaced (another inode)")
        for path in (database + "-wal", database + "-shm", marker):
            if _starts_like_export(path):
                problems.append(f"{os.path.basename(path)} holds exported text")
        try:
            if _content(holder["db"]) != before["content"]:
                problems.append("the store's content changed")
        except sqlite3.Error as error:
            problems.append(f"the store is unreadable ({error})")
        ok = not problems
        ctx.record("5-store-outputs", f"{name} -o {target} ({what})", "exit 72 with one error line, the store's files byte for byte",
                   "; ".join(problems) if problems else done.describe(), ok)
        if not ok:
            release()
            for suffix in ("-wal", "-shm"):
                if os.path.exists(database + suffix):
                    os.remove(database + suffix)
            with open(backup, "rb") as source, open(database, "r+b") as restored:
                restored.truncate(0)
                restored.write(source.read())  # in place: the hard link keeps pointing at the store
            if os.path.exists(marker):
                os.remove(marker)
            os.remove(hard)
            os.link(database, hard)
            hold()
    release()
    class5_collector_outputs(ctx)


def normalised_sha256(path):
    """SHA-256 of a SQLite file with the header's change counters zeroed (offsets 24, 40, 92): every
    command that opens the store for writing bumps them without changing a row."""
    try:
        with open(path, "rb") as f:
            data = bytearray(f.read())
    except FileNotFoundError:
        return "absent"
    if data[:16] == b"SQLite format 3\x00" and len(data) >= 100:
        for offset in (24, 40, 92):
            data[offset:offset + 4] = b"\x00\x00\x00\x00"
    return hashlib.sha256(bytes(data)).hexdigest()


def _content(db):
    return hashlib.sha256("\n".join(db.iterdump()).encode()).hexdigest()


def class5_collector_outputs(ctx):
    """`chronoception-collector export csv -o` naming the collector's own store."""
    data = ctx.data["collector-export"]
    database = os.path.join(data, "collector.sqlite3")
    backup = os.path.join(ctx.work, "collector-export-backup.sqlite3")
    _run_collector(ctx, data, ["export", "csv", "-o", os.path.join(ctx.work, "collector-warm-up.csv")])
    shutil.copyfile(database, backup)
    link = os.path.join(ctx.work, "link-to-collector.sqlite3")
    os.symlink(database, link)
    os.makedirs(os.path.join(data, "sub"), exist_ok=True)
    for what, target in (("the database", database), ("its -wal", database + "-wal"), ("its -shm", database + "-shm"),
                         ("a symlink to it", link), ("it via ..", os.path.join(data, "sub", "..", "collector.sqlite3"))):
        before = (normalised_sha256(database), _inode(database))
        done = _run_collector(ctx, data, ["export", "csv", "-o", target])
        after = (normalised_sha256(database), _inode(database))
        problems = []
        if done.rc != OUTPUT_IS_THE_STORE or done.trapped or done.err.count("error: ") != 1:
            problems.append(done.describe())
        if before != after:
            problems.append("collector.sqlite3 changed")
        for suffix in ("-wal", "-shm"):
            if os.path.exists(database + suffix) and _starts_like_export(database + suffix):
                problems.append(f"collector.sqlite3{suffix} holds exported text")
        ctx.record("5-store-outputs", f"collector export csv -o {target} ({what})", "exit 72 with one error line, the store byte for byte",
                   "; ".join(problems) if problems else done.describe(), not problems)
        if problems:  # the next case starts from the store as it was
            for suffix in ("-wal", "-shm"):
                if os.path.exists(database + suffix):
                    os.remove(database + suffix)
            shutil.copyfile(backup, database)


def ctx_cli_in(ctx, cwd, arguments):
    from lab import run
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return run([ctx.binary, *arguments], ctx.env)
    finally:
        os.chdir(old)


def _run_collector(ctx, data, arguments):
    from lab import run
    return run([ctx.collector_binary, *arguments, "--data-dir", data], ctx.env)


def _inode(path):
    try:
        return os.stat(path).st_ino
    except FileNotFoundError:
        return None


def _starts_like_export(path):
    try:
        with open(path, "rb") as f:
            head = f.read(64)
    except OSError:
        return False
    return head.startswith((b"session_id", b"device_id", b"<?xml", b'{"')) and not path.endswith(".jsonl")


def _session_ids(database):
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10) as db:
            return sorted(row[0] for row in db.execute("SELECT id FROM session"))
    except sqlite3.Error as error:
        return f"unreadable: {error}"


# ---------------------------------------------------------------------------------------------------
# Class 6: one validator for a session

def fallback_from(session):
    """A fallback file (Sources/ChronoCLI/Adapters/UnsavedSession.swift) for a captured wire session."""
    return {
        "chronoception_unsaved_session": 1,
        "session_id": session["id"],
        "board": session["board"],
        "anchor": {"unix_ns": session["anchor_unix_ns"], "monotonic_ns": session["anchor_mono_ns"],
                   "utc_offset_seconds": session["utc_offset_seconds"]},
        "configuration": {"mode": session["mode"], "interval_ms": session["target_interval_ms"],
                          "planned_count": session["planned_count"], "fear_threshold": session["fear_threshold"],
                          "pattern": session["interval_pattern"], "feedback_ms": session["feedback_ms"],
                          "abort_window_ms": session["abort_window_ms"], "auto_start": session["auto_start_next_attempt"],
                          "debounce_ms": session["debounce_ms"], "long_press_ms": session["long_press_ms"]},
        "status": "completed",
        "started_ns": session["started_mono_ns"],
        "ended_ns": session["ended_mono_ns"],
        "attempts": [[a["index"], a["start_mono_ns"], a["tap_mono_ns"]] for a in session["attempts"]],
        "boundaries": [[b["index"], b["due_mono_ns"]] for b in session["boundaries"]],
        "boundaries_fired_ns": [b["fired_mono_ns"] for b in session["boundaries"] if b.get("fired_mono_ns") is not None],
        "fear_sound_effective": session["fear_sound_effective"],
        "reason": None,
        "sound_audible_at_start": session["sound_audible_at_start"],
    }


def record_file_from(session):
    """A format 3 fallback file (UnsavedSessionFile): the captured wire session itself in its envelope,
    so `import` and the collector are handed the same damaged record."""
    return {"chronoception_unsaved_session": 3, "results_withheld": False, "session": session}


FALLBACK_FORMATS = (("format 1", fallback_from), ("format 3", record_file_from))


FULLWIDTH = str.maketrans("0123456789ABCDEF", "０１２３４５６７８９ＡＢＣＤＥＦ")


def damages(existing_id):
    """(name, mode, mutate(wire session), rule words) — each damage applied to a wire session; the
    same list feeds `import` (as fallback files) and the collector (as batches). Rule words: one of
    them must appear in the collector's refusal."""
    def attempt(session, i):
        return session["attempts"][i]

    def set_key(key, value):
        def mutate(s):
            s[key] = value
        return mutate

    out = [
        ("session id ../../etc/passwd", "challenge", set_key("id", "../../etc/passwd"), ("id", "uuid")),
        ("session id of fullwidth digits", "challenge", lambda s: s.update(id=s["id"].translate(FULLWIDTH)), ("id", "uuid")),
        ("session id empty", "challenge", set_key("id", ""), ("id", "uuid")),
        ("session id 100 letters", "challenge", set_key("id", "A" * 100), ("id", "uuid")),
        ("session id with braces", "challenge", lambda s: s.update(id="{" + s["id"] + "}"), ("id", "uuid")),
        ("session id without dashes", "challenge", lambda s: s.update(id=s["id"].replace("-", "")), ("id", "uuid")),
        ("session id with an escape sequence", "challenge", lambda s: s.update(id=s["id"][:-2] + "\x1b[2J"), ("id", "uuid")),
        ("session id with surrounding spaces", "challenge", lambda s: s.update(id=" " + s["id"] + " "), ("id", "uuid")),
        ("tap before its attempt's start", "challenge",
         lambda s: attempt(s, 0).update(tap_mono_ns=attempt(s, 0)["start_mono_ns"] - 1), ("tap", "attempt")),
        ("end before start", "challenge", lambda s: s.update(ended_mono_ns=s["started_mono_ns"] - 1), ("end", "start")),
        ("more attempts than planned", "challenge", lambda s: s.update(planned_count=len(s["attempts"]) - 1), ("planned", "attempt")),
        ("Passive with attempts", "passive",
         lambda s: s.update(attempts=[{"index": 1, "start_mono_ns": s["started_mono_ns"] + 1, "tap_mono_ns": s["started_mono_ns"] + 2}]),
         ("passive", "attempt")),
        ("Challenge with boundaries", "challenge",
         lambda s: s.update(boundaries=[{"index": 1, "due_mono_ns": s["started_mono_ns"] + 10, "fired_mono_ns": s["started_mono_ns"] + 10}]),
         ("boundar", "challenge")),
        ("anchor in 1930", "challenge", set_key("anchor_unix_ns", -1_262_304_000 * 10**9), ("anchor", "1970", "wall")),
        ("anchor in 2200", "challenge", set_key("anchor_unix_ns", 7_258_118_400 * 10**9), ("anchor", "2099", "wall")),
        ("a 200-year session", "passive", lambda s: s.update(ended_mono_ns=s["started_mono_ns"] + 200 * YEAR_NS),
         ("end", "long", "duration", "year", "range")),
        ("negative attempt index", "challenge", lambda s: attempt(s, 0).update(index=-1), ("index", "attempt")),
        ("attempt index 0", "challenge", lambda s: attempt(s, 0).update(index=0), ("index", "attempt")),
        ("duplicate attempt indexes", "challenge", lambda s: attempt(s, 1).update(index=attempt(s, 0)["index"]), ("index", "attempt")),
        ("attempts out of order", "challenge",
         lambda s: s.update(attempts=[s["attempts"][1], s["attempts"][0]] + s["attempts"][2:]), ("index", "attempt", "order")),
        ("attempt starting before its session", "challenge",
         lambda s: attempt(s, 0).update(start_mono_ns=s["started_mono_ns"] - 10**9), ("attempt", "start", "outside")),
        ("tap after the session's end", "challenge",
         lambda s: attempt(s, -1).update(tap_mono_ns=s["ended_mono_ns"] + 10**9), ("attempt", "tap", "end", "outside")),
        ("boundary fired before it was due", "passive",
         lambda s: s["boundaries"][1].update(fired_mono_ns=s["boundaries"][1]["due_mono_ns"] - 5 * 10**9), ("fired", "due", "boundar")),
        ("duplicate boundary indexes", "passive",
         lambda s: s["boundaries"][1].update(index=s["boundaries"][0]["index"]), ("index", "boundar")),
        ("negative boundary index", "passive", lambda s: s["boundaries"][0].update(index=-3), ("index", "boundar")),
        ("boundary due before the session started", "passive",
         lambda s: s["boundaries"][0].update(due_mono_ns=s["started_mono_ns"] - 10**9), ("boundar", "due", "start", "outside")),
        ("more boundaries than planned", "passive", lambda s: s.update(planned_count=len(s["boundaries"]) - 1), ("planned", "boundar")),
        ("a 10 kB board name", "challenge", set_key("board", "b" * 10_240), ("board",)),
        ("UTC offset of 25 hours", "challenge", set_key("utc_offset_seconds", 25 * 3600), ("utc", "offset")),
        ("planned count 0", "challenge", set_key("planned_count", 0), ("planned", "count", "attempts", "range")),
        ("planned count 100", "passive", set_key("planned_count", 100), ("planned", "count", "repetitions", "range")),
    ]
    return out


def note_damages():
    """Damage to a session's note (SessionNote), for batches only: a fallback file has no note."""
    def set_note(value):
        def mutate(s):
            s["note"] = value
        return mutate
    return [
        ("a 201-character note", "challenge", set_note("n" * 201), ("session_note",)),
        ("a note with an escape sequence", "challenge", set_note("a\x1b[2Jb"), ("session_note",)),
        ("a note with a line break", "passive", set_note("two\nlines"), ("session_note",)),
        ("a note with a right-to-left override", "challenge", set_note("abc\u202efed"), ("session_note",)),
        ("an untrimmed note", "challenge", set_note(" tired "), ("session_note",)),
        ("an empty note", "passive", set_note(""), ("session_note",)),
    ]


def class6_import(ctx):
    """`chronoception import FILE` with damaged fallback files: exit 65, and `sessions --json` is the
    same before and after. A valid file (the control) is imported."""
    data = ctx.data["import"]
    files = os.path.join(ctx.work, "fallback")
    os.makedirs(files, exist_ok=True)

    def listing():
        done = ctx.cli("sessions", "--json", "--limit", "1000", "--data-dir", data)
        return done.out if done.rc == 0 else f"sessions --json failed: {done.describe()}"

    def write(name, content):
        path = os.path.join(files, f"unsaved-{uuid.uuid4()}.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(content if isinstance(content, str) else json.dumps(content, ensure_ascii=False))
        return path

    before = listing()
    # The control: a valid fallback file is imported (the harness's files are right).
    for form, make in FALLBACK_FORMATS:
        control = ctx.session("challenge")
        done = ctx.cli("import", write("control", make(control)), "--data-dir", data)
        after = listing()
        ok = done.rc == 0 and control["id"] in after and after != before
        ctx.record("6-one-validator", f"import a valid fallback file, {form} (control)", "exit 0, one session more", done.describe(), ok)
        before = after
    with sqlite3.connect(f"file:{os.path.join(data, 'chronoception.sqlite')}?mode=ro", uri=True) as db:
        existing = db.execute("SELECT id FROM session WHERE status = 'completed' ORDER BY id LIMIT 1").fetchone()[0]
    cases = [(name, mode, mutate) for name, mode, mutate, _ in damages(existing)]

    def lower_copy(s):
        s["id"] = existing.lower()
    cases.append(("a lower-cased copy of an existing id", "challenge", lower_copy))
    for (name, mode, mutate), (form, make) in ((case, form) for case in cases for form in FALLBACK_FORMATS):
        session = ctx.session(mode)
        mutate(session)
        before = listing()
        done = ctx.cli("import", write(name, make(session)), "--data-dir", data)
        after = listing()
        allowed = (65, 0) if name.startswith("a lower-cased copy") else (65,)
        problems = [text for text in (before, after) if text.startswith("sessions --json failed")][:1]
        if done.trapped or done.rc not in allowed:
            problems.append(done.describe())
        if after != before:
            problems.append("sessions --json changed")
        ctx.record("6-one-validator", f"import a fallback file ({form}) with {name}", "exit 65, nothing stored",
                   "; ".join(problems) if problems else done.describe(), not problems)
    # What was imported syncs: no refused file left anything the collector refuses (the bad
    # import made every later `sync now` fail and the outbox never drain).
    code, done = ctx.enrol_code("adv-import-store")
    url = f"http://{ctx.hosts.address(2)}:{ctx.servers['collector'].port}"
    added = ctx.cli("sync", "add", url, "--code", code or "?", "--board", "desktop", "--data-dir", data, namespace="c2")
    pushed = ctx.cli("sync", "now", "--data-dir", data, namespace="c2")
    ok = added.rc == 0 and pushed.rc == 0 and "; 0 pending" in pushed.out
    ctx.record("6-one-validator", "the import store's `sync now` after all those imports", "exit 0, 0 pending",
               f"{added.describe()}; {pushed.describe()} {pushed.out.strip()[:120]}", ok)


def class6_collector(ctx, server):
    """The same damage in a batch (with one valid session beside it): 422 naming the session and the
    rule, and nothing of the batch kept (counted through the collector's own API, so SQLite and
    PostgreSQL alike). Pushed as a device of its own, so the counts stay small."""
    device = ctx.damage_devices[server]

    def count():
        answer = ctx.request(server, "srv", "GET", f"/api/v1/sessions?device={device[0]}&limit=10000")
        return len((answer.json() or {}).get("sessions", [])) if answer.status == 200 else f"GET /sessions answered {answer!r}"

    def push(sessions):
        return ctx.push(json.dumps(ctx.batch(sessions, device=device), ensure_ascii=False), device=device, server=server)

    for name, mode, mutate, words in damages(None) + note_damages():
        valid = ctx.session("challenge")
        session = ctx.session(mode)
        mutate(session)
        before = count()

        def accept(answer, session=session, words=words):
            if answer.status != 422:
                return False
            message = json.dumps(answer.json() or {}, ensure_ascii=False).lower()
            identifier = session["id"]
            if identifier and all(" " < c < "\x7f" for c in identifier) and len(identifier) <= 64:
                named = identifier.lower() in message
            else:
                # An id with control characters, non-ASCII digits or 100 letters is named as the
                # message may safely show it (escaped, cut): the word session must be there.
                named = "session" in message
            return named and any(word in message for word in words)

        def after(answer, before=before):
            now = count()
            return None if now == before else f"the collector kept {now if isinstance(now, str) else now - before} session(s) of the refused batch"
        ctx.judge("6-one-validator", server, f"batch with a session with {name}",
                  f"422 naming the session and the rule ({'/'.join(words)}), nothing kept",
                  lambda valid=valid, session=session: push([valid, session]), accept, after)
    # A lower-cased copy of a session the collector has: the same session (no second row).
    original = ctx.session("challenge")
    push([original])
    copy_ = copy.deepcopy(original)
    copy_["id"] = original["id"].lower()
    before = count()

    def same(answer):
        if answer.status == 422:
            return True
        receipt = answer.json() or {}
        return answer.status == 200 and receipt.get("accepted") == 0
    ctx.judge("6-one-validator", server, "batch with a lower-cased copy of a stored session's id",
              "200 with 0 accepted (a duplicate) or 422; no second row", lambda: push([copy_]), same,
              lambda answer: None if count() == before else "a second row was stored")


# ---------------------------------------------------------------------------------------------------
# Class 10: text from outside is shown as text

ESCAPES = [
    ("clear screen", "\x1b[2J\x1b[H"), ("OSC 8 hyperlink", "\x1b]8;;http://evil.example/\x07click\x1b]8;;\x07"),
    ("window title", "\x1b]0;owned\x07"), ("bell", "ring\x07"), ("carriage return", "good\rEVIL"),
    ("backspaces", "abc\x08\x08\x08xyz"), ("C1 CSI", "\u009b2J"), ("NUL", "nul\x00byte"), ("DEL", "del\x7f"),
    ("newline", "line\nbreak"), ("cursor up", "\x1b[1A\x1b[2K"),
]
FORMULAS = [
    ("'='", '=HYPERLINK("http://evil.example/?x","click")'), ("'+'", "+1+cmd|' /C calc'!A0"), ("'-'", "-2+3+cmd|'/C calc'!A0"),
    ("'@'", "@SUM(1+9)*cmd|' /C calc'!A0"), ("TAB", "\t=1+1+TAB"), ("CR", "\r=1+1+CR"),
]
# What a device's store can hold: the device refuses control characters in a board's name, so a
# TAB- or CR-leading board cannot reach its exports (the collector gets them from the wire).
DEVICE_FORMULAS = FORMULAS[:4]


def raw_controls(text):
    return [c for c in text if (ord(c) < 0x20 and c not in "\n") or 0x7F <= ord(c) <= 0x9F]


def class10_terminal(ctx):
    """Devices whose board (sent at enrolment) or name carries control characters: `collector devices`
    shows them visibly, never raw."""
    names = []
    for i, (what, text) in enumerate(ESCAPES):
        name = f"esc-board-{i}"
        device, why = ctx.enrol(name, board="desk" + text)
        if device is None:
            ctx.record("10-text-as-text", f"enrol a device whose board has {what}", "enrolled (or refused with 400)", why,
                       "400" in why or "refused" in why)
            continue
        names.append((name, what, "board"))
    for i, (what, text) in enumerate(ESCAPES[:6]):
        name = f"esc-name-{i}{text}"
        code, done = ctx.enrol_code(name)
        if code is None:
            ok = not done.trapped and done.rc != 0 and not raw_controls(done.err)
            ctx.record("10-text-as-text", f"collector enrol NAME with {what}", "refused, message without raw controls, or enrolled",
                       done.describe(), ok)
            continue
        if raw_controls(done.out):
            ctx.record("10-text-as-text", f"collector enrol NAME with {what}: its output", "no raw control characters",
                       repr(done.out[:120]), False)
        names.append((f"esc-name-{i}", what, "name"))
    done = ctx.collector_cli("devices")
    for name, what, where in names:
        lines = [line for line in done.out.split("\n") if name in line]
        bad = sorted({f"U+{ord(c):04X}" for line in lines for c in raw_controls(line)})
        ok = done.rc == 0 and lines and not bad
        ctx.record("10-text-as-text", f"collector devices: a device whose {where} has {what}", "shown, no raw control characters",
                   f"raw {', '.join(bad)} in {lines[0][:100]!r}" if bad else (done.describe() if not lines else "ok"), ok)


def dangerous(cell):
    if not cell:
        return False
    if cell[0] in DANGEROUS_LEADS:
        return True
    if cell[0] == "-":
        try:
            float(cell)
            return False
        except ValueError:
            return True
    return False


def check_csv(ctx, where, text, payloads):
    """One case per payload (its cell is neutralised) and one for the whole file (no dangerous cell)."""
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as error:
        ctx.record("10-text-as-text", f"{where}: parse", "RFC 4180 CSV", str(error), False)
        return
    cells = [cell for row in rows for cell in row]
    for what, payload in payloads:
        core = payload.strip("\t\r=+-@")[:12]
        found = [cell for cell in cells if core and core in cell]
        bad = [cell for cell in found if dangerous(cell)]
        ok = bool(found) and not bad
        got = "not in the export" if not found else (f"live cell {bad[0][:60]!r}" if bad else f"neutralised as {found[0][:40]!r}")
        ctx.record("10-text-as-text", f"{where}: a cell starting with {what}", "prefixed with a single quote (OWASP)", got, ok)
    bad = [cell for cell in cells if dangerous(cell)]
    ctx.record("10-text-as-text", f"{where}: no formula-leading cell anywhere", "none",
               f"{len(bad)} such cells, e.g. {bad[0][:60]!r}" if bad else "none", not bad)


def class10_csv(ctx):
    """Formula-leading text in every CSV export: the device's `export csv`, the companion's
    /export.csv, the collector's `export csv` and its /export.csv."""
    # The collector: boards, names and participants from outside, each device with one pushed session.
    payloads = []
    devices = [(f"formula-{i}", f"P{i}", text, f"{what} (a board)", text) for i, (what, text) in enumerate(FORMULAS)]
    devices.append(('=HYPERLINK("http://evil.example/n","name")', "P-name", "desktop", "'=' (a device name)",
                    '=HYPERLINK("http://evil.example/n","name")'))
    devices.append(("formula-participant", "@SUM(9)*cmd", "desktop", "'@' (a participant)", "@SUM(9)*cmd"))
    for name, participant, board, what, payload in devices:
        device, why = ctx.enrol(name, board=board, participant=participant)
        if device is None:
            ctx.record("10-text-as-text", f"enrol a device with {what}", "enrolled (free text)", why, False)
            continue
        session = ctx.session("challenge")
        session["board"] = board
        try:
            answer = ctx.push(json.dumps(ctx.batch([session], device=device)), device=device)
            pushed = answer.status == 200
        except Dropped as error:
            pushed, answer = False, str(error)
        if not pushed:
            # Refusing text with control characters at the door is as good as neutralising it.
            refused = isinstance(answer, object) and getattr(answer, "status", 0) == 422 and any(c in payload for c in "\t\r")
            ctx.record("10-text-as-text", f"push a session whose board starts with {what}", "200, or 422 for control characters",
                       repr(answer), refused)
            if refused:
                continue
        payloads.append((what, payload))
    done = ctx.collector_cli("export", "csv")
    check_csv(ctx, "collector export csv", done.out, payloads)
    try:
        answer = ctx.request("collector", "srv", "GET", "/api/v1/export.csv")
        check_csv(ctx, "collector GET /api/v1/export.csv", answer.text(), payloads)
    except Dropped as error:
        ctx.record("10-text-as-text", "collector GET /api/v1/export.csv", "200", str(error), False)
    # The device: boards set in the companion's store (a board file's name is free text).
    device_payloads = [(f"{what} (a board)", text) for what, text in DEVICE_FORMULAS]
    done = ctx.cli("export", "csv", "--all", "--data-dir", ctx.data["companion"])
    check_csv(ctx, "device export csv --all", done.out, device_payloads)
    try:
        answer = ctx.request("companion", "srv", "GET", "/api/v1/export.csv?all=true")
        check_csv(ctx, "companion GET /api/v1/export.csv?all=true", answer.text(), device_payloads)
    except Dropped as error:
        ctx.record("10-text-as-text", "companion GET /api/v1/export.csv", "200", str(error), False)


def formula_boards(database):
    """Before the companion starts: give some of its sessions formula-leading board names."""
    with sqlite3.connect(database) as db:
        ids = [row[0] for row in db.execute("SELECT id FROM session WHERE status = 'completed' ORDER BY id")]
        for (what, text), session_id in zip(DEVICE_FORMULAS, ids):
            db.execute("UPDATE session SET board = ? WHERE id = ?", (text, session_id))


# ---------------------------------------------------------------------------------------------------
# Class 1 (files): the numeric fields of a fallback file at and past their bounds

FALLBACK_NUMBERS = [
    ("anchor", "unix_ns"), ("anchor", "monotonic_ns"), ("anchor", "utc_offset_seconds"),
    ("configuration", "interval_ms"), ("configuration", "planned_count"), ("configuration", "fear_threshold"),
    ("configuration", "feedback_ms"), ("configuration", "abort_window_ms"), ("configuration", "debounce_ms"),
    ("configuration", "long_press_ms"), (None, "started_ns"), (None, "ended_ns"),
    ("attempts", 0), ("attempts", 1), ("attempts", 2), ("boundaries", 0), ("boundaries", 1), ("boundaries_fired_ns", None),
]
FALLBACK_VALUES = ["9223372036854775807", "-9223372036854775808", "-1", "0", "9007199254740993", "9223372036854775808",
                   "1e300", "1.5"]


def class1_import(ctx):
    """`import` of a valid fallback file with one number replaced: exit 0 or 65 (never a trap), and a
    refused file stores nothing."""
    data = ctx.data["import-bounds"]
    files = os.path.join(ctx.work, "fallback-bounds")
    os.makedirs(files, exist_ok=True)
    database = os.path.join(data, "chronoception.sqlite")
    marker = "__ADVERSARIAL__"
    for where, field in FALLBACK_NUMBERS:
        for raw in FALLBACK_VALUES:
            session = ctx.session("passive" if where in ("boundaries", "boundaries_fired_ns") else "challenge")
            document = fallback_from(session)
            if where is None:
                document[field] = marker
            elif where in ("anchor", "configuration"):
                document[where][field] = marker
            elif where == "boundaries_fired_ns":
                document[where][0] = marker
            else:
                document[where][0][field] = marker
            path = os.path.join(files, f"unsaved-{session['id']}.json")
            with open(path, "w") as f:
                f.write(json.dumps(document).replace(json.dumps(marker), raw))
            before = _session_ids(database)
            done = ctx.cli("import", path, "--data-dir", data)
            after = _session_ids(database)
            problems = []
            if done.trapped or done.rc not in (0, 65):
                problems.append(done.describe())
            if done.rc == 65 and after != before:
                problems.append("refused, yet the store changed")
            if done.rc == 0 and (isinstance(after, str) or len(after) != len(before) + 1):
                problems.append("accepted, yet not one session more")
            label = f"{where}.{field}" if where in ("anchor", "configuration") else (f"{where}[0][{field}]" if where else field)
            ctx.record("1-bounds", f"import a fallback file with {label} = {raw}", "exit 0 or 65, no trap; nothing stored when refused",
                       "; ".join(problems) if problems else done.describe(), not problems)


def class10_device_text(ctx):
    """Text a remote peer or a page chooses, shown by the device's own terminal: key names made over the
    API (`companion keys`) and a pairing request's name while it waits (`status`, which reads the
    state file the daemon writes). Refused at the door (4xx) is as good as shown escaped."""
    names = []
    for what, text in ESCAPES[:6]:
        name = f"key-{len(names)}{text}"
        try:
            answer = ctx.request("companion", "srv", "POST", "/api/v1/keys", body={"name": name})
        except Dropped as error:
            ctx.record("10-text-as-text", f"companion: POST /keys named with {what}", "201 or 4xx", str(error), False)
            continue
        if answer.status in (200, 201):
            names.append((f"key-{len(names)}", what))
        elif not 400 <= answer.status < 500:
            ctx.record("10-text-as-text", f"companion: POST /keys named with {what}", "201 or 4xx", repr(answer), False)
    done = ctx.cli("companion", "keys", "list", "--data-dir", ctx.data["companion"])
    for prefix, what in names:
        lines = [line for line in done.out.split("\n") if prefix in line]
        bad = sorted({f"U+{ord(c):04X}" for line in lines for c in raw_controls(line)})
        ctx.record("10-text-as-text", f"companion keys list: a key named with {what} over the API", "shown, no raw control characters",
                   f"raw {', '.join(bad)}" if bad else (done.describe() if not lines else "ok"), done.rc == 0 and bool(lines) and not bad)
    # A pairing request from a client address, named with escapes; it waits for the device's button.
    state_file = os.path.join(ctx.work, "daemon-state.json")
    results = {}

    def ask():
        try:
            results["answer"] = ctx.request("daemon", "c1", "POST", "/api/v1/pairing", timeout=45,
                                            body={"name": "pair\x1b[2J\x1b]0;owned\x07\u009b1m"},
                                            headers={"Origin": f"http://{ctx.hosts.address(1)}:{ctx.servers['daemon'].port}"})
        except Dropped as error:
            results["answer"] = f"dropped: {error}"
    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    shown = None
    for _ in range(30):
        time.sleep(0.2)
        done = ctx.cli("status", "--state-file", state_file)
        if "pair" in done.out or "answer" in results:
            shown = done
            break
    if shown is None or "pair" not in shown.out:
        answer = results.get("answer")
        refused = answer is not None and not isinstance(answer, str) and 400 <= answer.status < 500
        ctx.record("10-text-as-text", "daemon: status while a pairing request named with escapes waits",
                   "the request shown without raw control characters (or refused with a 4xx)",
                   f"not shown; the request answered {answer!r}", refused)
    else:
        bad = sorted({f"U+{ord(c):04X}" for c in raw_controls(shown.out)})
        ctx.record("10-text-as-text", "daemon: status while a pairing request named with escapes waits",
                   "the request shown without raw control characters", f"raw {', '.join(bad)}" if bad else "ok", not bad)
    thread.join(50)


def class6_device_ids(ctx):
    """Ids are compared canonically on the device API too: a session found by its id in lower case, with
    the same id in the answer; a fullwidth-digit look-alike is not found (404) or refused (400)."""
    database = os.path.join(ctx.data["companion"], "chronoception.sqlite")
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        existing = db.execute("SELECT id FROM session WHERE status = 'completed' ORDER BY id LIMIT 1").fetchone()[0]
    for spelling, expected, accept in (
            (existing.lower(), "200, the same session", lambda a: a.status == 200 and (a.json() or {}).get("session_id", (a.json() or {}).get("id", "")).upper() == existing.upper()),
            (existing.upper(), "200, the same session", lambda a: a.status == 200),
            (existing.translate(FULLWIDTH), "404 or 400", lambda a: a.status in (400, 404)),
            ("{" + existing + "}", "404 or 400", lambda a: a.status in (400, 404)),
            ("..%2F..%2Fetc%2Fpasswd", "404 or 400", lambda a: a.status in (400, 404))):
        path = "/api/v1/sessions/" + (spelling if "%" in spelling else urllib.parse.quote(spelling, safe="{}"))
        ctx.judge("6-one-validator", "companion", f"loopback GET {path}", expected,
                  lambda path=path: ctx.request("companion", "srv", "GET", path), accept)
