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
