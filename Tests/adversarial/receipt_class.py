"""Class 6 from the other side: a collector's sync receipt is from outside the device too. A stand-in
collector on loopback answers `sync now` with receipts whose `study` member (the assignment of
docs/STUDIES.md, checked on the device by `SyncedStudyAssignment.validated()`) is hostile: a document
past the size bound, nested past the depth bound, not JSON, announcing another protocol, a Fear block
without consent; numbers past every bound and past Int64; names with NUL, line breaks and 5,000
characters; members of the wrong type. The device must refuse each without trapping and keep the
assignment it had, byte for byte; a receipt with no `study` then removes it, as designed."""

import http.server
import json
import os
import sqlite3
import threading

from lab import run

EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "protocols", "sleep-2026.json")
I64_MAX = 2**63 - 1


def study(document, **changes):
    member = {"protocol_name": "sleep-2026", "protocol_version": 1, "document": document, "participant": "P017",
              "participant_index": 3, "start_unix_ns": 1_790_000_000_000_000_000, "seed": 42}
    member.update(changes)
    return member


def hostile_members(document):
    """(description, the raw JSON text of the receipt's `study` member)."""
    parsed = json.loads(document)
    fear = dict(parsed, consent=None, blocks=[dict(parsed["blocks"][0], mode="fear")])
    fear = {k: v for k, v in fear.items() if v is not None}
    padded = document[:-1] + " " * (300 * 1024) + "}"
    deep = "[" * 5000 + "]" * 5000
    cases = [
        ("a document past 256 KiB", study(padded)),
        ("a document nested 5,000 deep", study(deep)),
        ("a document that is not JSON", study("{\"name\": \"sleep-2026\", ")),
        ("an empty document", study("")),
        ("a document with a lone surrogate escape", study("{\"name\": \"\\ud800\"}")),
        ("another protocol than announced", study(document, protocol_name="other-study")),
        ("another version than announced", study(document, protocol_version=2)),
        ("a Fear block without consent", study(json.dumps(fear))),
        ("participant index -1", study(document, participant_index=-1)),
        ("participant index 1,000,000", study(document, participant_index=1_000_000)),
        ("seed past its bound", study(document, seed=I64_MAX)),
        ("start before 1970", study(document, start_unix_ns=-1)),
        ("start in 2262", study(document, start_unix_ns=I64_MAX)),
        ("participant with NUL", study(document, participant="P\u0000017")),
        ("participant with a line break", study(document, participant="P0\n17")),
        ("participant of 5,000 characters", study(document, participant="P" * 5000)),
        ("participant empty", study(document, participant="")),
        ("protocol version 0", study(document, protocol_version=0)),
    ]
    raw = [(description, json.dumps(member)) for description, member in cases]
    base = json.dumps(study(document))
    raw += [
        ("participant index past Int64", base.replace('"participant_index": 3', '"participant_index": 99999999999999999999')),
        ("seed 1e400", base.replace('"seed": 42', '"seed": 1e400')),
        ("start as text", base.replace('"start_unix_ns": 1790000000000000000', '"start_unix_ns": "soon"')),
        ("the document as a number", base.replace(json.dumps(document), "5")),
        ("a member missing", base.replace('"seed": 42', '"unknown": 1')),
        ("study as text", '"sleep-2026"'),
        ("study as a list", "[]"),
        ("study as an empty object", "{}"),
    ]
    return raw


def class6_receipts(ctx):
    document = open(EXAMPLE).read()
    reply = {"study": None}      # the raw JSON text of the next receipt's study member

    class StandIn(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if self.path.endswith("/enrol"):
                out = json.dumps({"protocol": 1, "collector_id": "00000000-0000-4000-8000-00000000000a",
                                  "device_name": "receipts", "key": "cck_receipts"})
            else:
                batch = json.loads(body)
                head = json.dumps({"protocol": 1, "accepted": len(batch["sessions"]), "duplicates": 0,
                                   "acknowledged_through": batch["cursor_through"], "preferences": []})
                out = head if reply["study"] is None else head[:-1] + ', "study": ' + reply["study"] + "}"
            data = out.encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), StandIn)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    data = os.path.join(ctx.work, "receipts")
    database = os.path.join(data, "chronoception.sqlite")

    def kept():
        with sqlite3.connect(database) as db:
            return db.execute("SELECT * FROM study_assignment").fetchall()

    def refused(done):
        # A receipt that does not decode is the collector's fault as a whole (79, docs/EXIT-CODES.md); an
        # assignment that decodes but fails the validator leaves the sync done and says why.
        if done.rc == 79 or (done.rc == 0 and "warning:" in done.err and "study" in done.err):
            return None
        return f"not refused in words: {done.describe()} {done.err[-200:]!r}"

    def sync(description, expected, judge):
        done = run([ctx.binary, "sync", "now", "--data-dir", data], ctx.env, timeout=60)
        trapped = done.rc < 0 or done.rc >= 128
        problem = f"trapped ({done.describe()})" if trapped else judge(done)
        ctx.record("6-one-validator", f"device: a receipt with {description}", expected,
                   problem or f"exit {done.rc}", problem is None)

    try:
        done = run([ctx.binary, "simulate", "--sessions", "3", "--seed", "21", "--quiet", "--data-dir", data], ctx.env)
        url = f"http://127.0.0.1:{server.server_address[1]}"
        done = run([ctx.binary, "sync", "add", url, "--code", "AAAA-BBBB-CCCC", "--board", "desktop", "--data-dir", data], ctx.env)
        if done.rc != 0:
            ctx.record("6-one-validator", "device: enrolling with the stand-in collector", "exit 0", done.describe(), False)
            return
        reply["study"] = json.dumps(study(document))
        sync("a valid assignment", "kept", lambda done: None if len(kept()) == 1 else f"{len(kept())} assignments kept; {done.describe()}")
        before = kept()
        for description, raw in hostile_members(document):
            reply["study"] = raw
            sync(description, "refused without a trap (exit 79, or a warning naming the study); the kept assignment unchanged",
                 lambda done: refused(done) if kept() == before else f"the kept assignment changed to {kept()!r:.200}; {done.describe()}")
        reply["study"] = None
        sync("no study member", "the assignment removed (the collector unassigned it)",
             lambda done: None if kept() == [] else f"still kept: {kept()!r:.200}; {done.describe()}")
    finally:
        server.shutdown()


# -- Class 7: a hostile collector (issue 34, item 2) ------------------------------------------------
# The device's one validator for replies (`SyncReplyValidation`, docs/SYNC.md "What the device checks
# in a reply"): every member of the receipt and the grant, at its bound (accepted, exit 0) and past it
# (refused: exit 79, the store unchanged but for the failure `sync status` shows). Generated from the
# types: each integer member at and past its range and past Int64, each text member with CR/LF, NUL,
# U+202E, at and past its length, each list past its count, each member of the wrong type or missing.
# Then the device goes to a real collector and pushes: no refused value poisoned it.

UUID_NOT_IN_BATCH = "9B7C2F4E-3A51-4C7E-9D0A-5F1E2D3C4B5A"
GOOD_KEY = "ccd_" + "A" * 43
GOOD_GRANT = {"protocol": 1, "collector_id": "00000000-0000-4000-8000-00000000000b", "device_name": "hostile", "key": GOOD_KEY}


def pref(key="default-attempts", value="5", clock=1, origin="collector"):
    return {"key": key, "value": value, "clock": clock, "origin": origin}


def refusal(session_id, rule="session_study_participant", reason="another participant's"):
    return {"session_id": session_id, "rule": rule, "reason": reason}


def receipt_cases():
    """(description, build(batch) -> raw JSON text of the receipt, accepted?). Past-bound cases first."""
    def receipt(batch, **changes):
        body = {"protocol": 1, "accepted": len(batch["sessions"]), "duplicates": 0,
                "acknowledged_through": batch["cursor_through"], "preferences": []}
        body.update(changes)
        return json.dumps(body)

    def raw(batch, member, text):
        """The receipt with MEMBER's value replaced by raw JSON TEXT (numbers past Int64, wrong types)."""
        body = json.loads(receipt(batch))
        body[member] = "@@"
        return json.dumps(body).replace('"@@"', text)

    n = lambda batch: len(batch["sessions"])  # noqa: E731
    ids = lambda batch: [s["id"] for s in batch["sessions"]]  # noqa: E731
    cases = []
    for member in ("accepted", "duplicates"):
        for value in (-1, "n+1", 2**31, 2**53, I64_MAX):
            cases.append((f"{member} {value}", lambda b, m=member, v=value: receipt(b, **{m: n(b) + 1 if v == "n+1" else v}), False))
        for text in (str(2**63), str(-2**63 - 1), "1.5", "1e400", '"3"', "null", "[]"):
            cases.append((f"{member} as {text}", lambda b, m=member, t=text: raw(b, m, t), False))
    cases.append(("accepted and duplicates both Int64.max", lambda b: receipt(b, accepted=I64_MAX, duplicates=I64_MAX), False))
    cases.append(("accepted n and duplicates 1", lambda b: receipt(b, duplicates=1), False))
    for value in ("through+1", "through-1", -1, I64_MAX):
        cases.append((f"acknowledged_through {value}", lambda b, v=value: receipt(
            b, acknowledged_through=b["cursor_through"] + 1 if v == "through+1" else b["cursor_through"] - 1 if v == "through-1" else v), False))
    cases.append(("acknowledged_through 2^63", lambda b: raw(b, "acknowledged_through", str(2**63)), False))
    for clock in (-1, 2**53, I64_MAX, -2**63):
        cases.append((f"a preference clock {clock}", lambda b, c=clock: receipt(b, preferences=[pref(clock=c)]), False))
    cases.append(("a preference clock 2^63", lambda b: receipt(b, preferences=[pref(clock="@C")]).replace('"@C"', str(2**63)), False))
    cases.append(("65 preferences", lambda b: receipt(b, preferences=[pref(key=f"k{i}") for i in range(65)]), False))
    cases.append(("a preference key twice", lambda b: receipt(b, preferences=[pref(clock=1), pref(clock=2)]), False))
    for key in ("", "a" * 65, "default-attempts\r\nx", "Default-Attempts", "default attempts", "default-attempts\u0000"):
        cases.append((f"a preference key {key[:20]!r}", lambda b, k=key: receipt(b, preferences=[pref(key=k)]), False))
    for value in ("5\r\n", "5\n", "5\u202e", "\u0000", "9" * 1025):
        cases.append((f"a preference value {value[:12]!r}{'…' if len(value) > 12 else ''}", lambda b, v=value: receipt(b, preferences=[pref(value=v)]), False))
    cases.append(("a preference origin 'server'", lambda b: receipt(b, preferences=[pref(origin="server")]), False))
    cases.append(("preferences as an object", lambda b: raw(b, "preferences", "{}"), False))
    cases.append(("a refused session not in the batch", lambda b: receipt(b, accepted=n(b) - 1, refused=[refusal(UUID_NOT_IN_BATCH)]), False))
    cases.append(("a refused session named twice", lambda b: receipt(b, accepted=0, refused=[refusal(ids(b)[0])] * 2), False))
    cases.append(("a refused session id with CR/LF", lambda b: receipt(b, accepted=n(b) - 1, refused=[refusal(ids(b)[0] + "\r\n")]), False))
    cases.append(("refused sessions past the batch", lambda b: receipt(b, refused=[refusal(ids(b)[0])]), False))
    for rule in ("", "Session Study", "r" * 65, "rule\n"):
        cases.append((f"a refusal rule {rule[:12]!r}", lambda b, r=rule: receipt(b, accepted=n(b) - 1, refused=[refusal(ids(b)[0], rule=r)]), False))
    for reason in ("", "x\u001b[2J", "x\r\ny", "x\u202ey", "x" * 1025):
        cases.append((f"a refusal reason {reason[:12]!r}", lambda b, r=reason: receipt(b, accepted=n(b) - 1, refused=[refusal(ids(b)[0], reason=r)]), False))
    cases.append(("refused as an object", lambda b: raw(b, "refused", "{}"), False))
    cases.append(("protocol 2", lambda b: receipt(b, protocol=2), False))
    cases.append(("protocol 0", lambda b: receipt(b, protocol=0), False))
    cases.append(("a member missing", lambda b: json.dumps({k: v for k, v in json.loads(receipt(b)).items() if k != "duplicates"}), False))
    cases.append(("a list", lambda b: "[]", False))
    cases.append(("not JSON", lambda b: "{\"protocol\": 1, ", False))
    cases.append(("a body past 1 MiB", lambda b: receipt(b, padding="x" * (1 << 20)), False))
    # At the bounds: accepted (each with new sessions pending).
    cases += [
        ("accepted n", lambda b: receipt(b), True),
        ("duplicates n", lambda b: receipt(b, accepted=0, duplicates=n(b)), True),
        ("every session refused, reasons of 1,024 bytes", lambda b: receipt(b, accepted=0, refused=[refusal(i.lower(), reason="r" * 1024) for i in ids(b)]), True),
        ("64 preferences (the unknown keys ignored), keys of 64 characters", lambda b: receipt(
            b, preferences=[pref(key="k" * 63 + str(i % 10) if i < 10 else f"k{i}", value="v" * 1024) for i in range(64)]), True),
        ("a preference clock 0", lambda b: receipt(b, preferences=[pref(clock=0)]), True),
        ("a preference clock 2^53-1", lambda b: receipt(b, preferences=[pref(clock=2**53 - 1, value="6")]), True),
    ]
    return cases


def grant_cases():
    """(description, raw JSON text of the grant, accepted?)."""
    def grant(**changes):
        body = dict(GOOD_GRANT)
        body.update(changes)
        return json.dumps(body)
    cases = []
    for key in ("", "ccd_AAA", "k" * 513, "ccd_AAAA\r\nX-Evil: 1", "ccd_AAAA\nBBBB", "ccd_AAAA BBBB", "ccd_AAAA\u0000BBBB",
                "ccd_AAAA\u00e9BBBB", "ccd_AAAA=BBBB", "========"):
        cases.append((f"a key {key[:16]!r} ({len(key)} characters)", grant(key=key), False))
    cases.append(("a key as a number", grant(key="@K").replace('"@K"', "5"), False))
    for collector_id in ("", "fake-collector", "00000000-0000-4000-8000-00000000000b\r\n", "0" * 36):
        cases.append((f"a collector_id {collector_id[:16]!r}", grant(collector_id=collector_id), False))
    for name in ("", "n" * 65, "P\u202e710", "P0\n17", " P017", "P\u0000"):
        cases.append((f"a device_name {name[:12]!r}", grant(device_name=name), False))
    cases.append(("protocol 2", grant(protocol=2), False))
    cases.append(("a member missing", json.dumps({k: v for k, v in GOOD_GRANT.items() if k != "key"}), False))
    cases.append(("a list", "[]", False))
    cases += [
        ("a key of 8 characters", grant(key="k" * 8), True),
        ("a key of 512 characters with padding", grant(key="k" * 510 + "=="), True),
        ("a device_name of 64 characters", grant(device_name="é" * 64), True),
    ]
    return cases


def class7_hostile_collector(ctx):
    reply = {"grant": json.dumps(GOOD_GRANT), "receipt": None}   # receipt: build(batch) -> text, None: a good one

    class StandIn(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if self.path.endswith("/enrol"):
                out = reply["grant"]
            else:
                batch = json.loads(body)
                build = reply["receipt"]
                out = build(batch) if build else json.dumps({"protocol": 1, "accepted": len(batch["sessions"]), "duplicates": 0,
                                                            "acknowledged_through": batch["cursor_through"], "preferences": []})
            data = out.encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), StandIn)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    data = os.path.join(ctx.work, "hostile-collector")
    database = os.path.join(data, "chronoception.sqlite")
    klass = "7-hostile-collector"
    seeds = iter(range(700, 800))

    def stored():
        """Every table but sync_status (the failure `sync status` shows), row by row."""
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
            tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'sync_status' ORDER BY name")]
            return {table: sorted(repr(row) for row in db.execute(f'SELECT * FROM "{table}"')) for table in tables}

    def enrolled():
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
            return db.execute("SELECT COUNT(*) FROM sync_enrolment").fetchone()[0]

    def judge(description, done, accepted, before, expected):
        if done.rc < 0 or done.rc >= 128:
            problem = f"trapped ({done.describe()})"
        elif accepted:
            problem = None if done.rc == 0 else f"refused: {done.describe()}"
        elif done.rc != 79:
            problem = f"{done.describe()}, not exit 79"
        elif "sync: " not in done.err:
            problem = f"no sync error in words: {done.err[-200:]!r}"
        elif stored() != before:
            changed = [t for t, rows in stored().items() if before.get(t) != rows]
            problem = f"the store changed ({', '.join(changed)})"
        else:
            problem = None
        ctx.record(klass, f"device: {description}", expected, problem or f"exit {done.rc}", problem is None)

    try:
        done = run([ctx.binary, "simulate", "--sessions", "3", "--seed", "71", "--quiet", "--data-dir", data], ctx.env)
        if done.rc != 0:
            ctx.record(klass, "device: simulate for the hostile collector", "exit 0", done.describe(), False)
            return
        add = [ctx.binary, "sync", "add", url, "--code", "AAAA-BBBB-CCCC", "--board", "desktop", "--data-dir", data]
        for description, text, accepted in grant_cases():
            reply["grant"] = text
            before = stored()
            done = run(add, ctx.env, timeout=60)
            judge(f"a grant with {description}", done, accepted, before,
                  "enrolled (exit 0)" if accepted else "refused (exit 79), nothing enrolled, the store unchanged")
            if not accepted and enrolled():
                ctx.record(klass, f"device: a grant with {description}: nothing enrolled", "no enrolment", "enrolled", False)
            if enrolled():
                run([ctx.binary, "sync", "remove", "--data-dir", data], ctx.env)
        reply["grant"] = json.dumps(GOOD_GRANT)
        done = run(add, ctx.env)
        if done.rc != 0:
            ctx.record(klass, "device: enrolling with the stand-in collector", "exit 0", done.describe(), False)
            return
        now = [ctx.binary, "sync", "now", "--data-dir", data]
        for description, build, accepted in receipt_cases():
            if accepted:  # something pending for each case at the bounds
                run([ctx.binary, "simulate", "--sessions", "2", "--seed", str(next(seeds)), "--quiet", "--data-dir", data], ctx.env)
            reply["receipt"] = build
            before = stored()
            done = run(now, ctx.env, timeout=60)
            judge(f"a receipt with {description}", done, accepted, before,
                  "taken (exit 0)" if accepted else "refused (exit 79) naming the collector, the store unchanged")
        reply["receipt"] = None
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
            highest = db.execute("SELECT highest_clock FROM sync_device").fetchone()[0]
        ok = highest <= 2**53 - 1
        ctx.record(klass, "device: the highest clock after every case", "at most 2^53-1 (the one accepted at the bound)", f"{highest}", ok)

        # A real collector afterwards: the device enrols and pushes, as if no hostile reply had come.
        run([ctx.binary, "simulate", "--sessions", "2", "--seed", "799", "--quiet", "--data-dir", data], ctx.env)
        run([ctx.binary, "sync", "remove", "--data-dir", data], ctx.env)
        code, _ = ctx.enrol_code("adv-after-hostile")
        real = f"http://{ctx.hosts.address(2)}:{ctx.servers['collector'].port}"
        added = ctx.cli("sync", "add", real, "--code", code or "?", "--board", "desktop", "--data-dir", data, namespace="c2")
        pushed = ctx.cli("sync", "now", "--data-dir", data, namespace="c2")
        ok = added.rc == 0 and pushed.rc == 0 and "0 pending" in pushed.out
        ctx.record(klass, "device: a push to a real collector after the hostile one", "exit 0, nothing pending",
                   f"sync add {added.describe()}, sync now {pushed.describe()} {pushed.out.strip()[-120:]!r}", ok)
    finally:
        server.shutdown()
