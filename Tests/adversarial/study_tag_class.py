"""Class 14: a device's study tags at ingest (issue 34, item 6). A session's study tag is the device's
claim that it was run for its participant's plan; a device enrolled for P1 cannot complete P2's plan,
nor a protocol P1 was never assigned. The collector refuses such a session on its own (the rest of the
batch is stored), names it in the receipt's `refused` with the rule and the reason, counts it on the
device (`collector devices`, GET /api/v1/devices), and P2's `protocol status` stays as it was. A tag
whose condition or participant holds a text-direction mark (U+202E) is refused by the one text rule,
the whole batch with 422 like any invalid session. On SQLite and, when it runs, on PostgreSQL."""

import json
import os

from lab import Dropped, ROOT

EXAMPLE = os.path.join(ROOT, "examples", "protocols", "sleep-2026.json")
KLASS = "14-study-tags"


def tag(participant="P1", version=1, condition="feedback-off", position=0):
    return {"protocol_name": "sleep-2026", "protocol_version": version, "participant": participant, "block_index": 0,
            "block_name": "pre", "plan_position": position, "condition": condition, "feedback_shown": False}


def foreign(study):
    """Whether a tag is not P1's own assignment (sleep-2026@1)."""
    return study is not None and (study["participant"] != "P1" or study["protocol_version"] != 1)


def tagged(ctx, study):
    session = ctx.session("challenge")
    if study is not None:
        session["study"] = study
    return session


def class14_study_tags(ctx, server):
    for step in (("protocol", "load", EXAMPLE), ("protocol", "assign", "sleep-2026", "--participant", "P1"),
                 ("protocol", "assign", "sleep-2026", "--participant", "P2")):
        done = ctx.collector_cli(*step, server=server)
        if done.rc != 0 and "unchanged" not in done.out + done.err and "already" not in done.out + done.err:
            ctx.record(KLASS, f"{server}: collector {' '.join(step[:2])}", "exit 0", done.describe(), False)
            return
    device, why = ctx.enrol("adv-tags-p1", participant="P1", server=server)
    if device is None:
        ctx.record(KLASS, f"{server}: enrolling a device for P1", "enrolled", why, False)
        return
    device = (device[0], device[1], "adv-tags-p1")
    cursor = [0]

    def status_done(participant):
        done = ctx.collector_cli("protocol", "status", server=server)
        for line in done.out.splitlines():
            cells = line.split()
            if cells and cells[0] == participant:
                return cells[3]
        return f"no row ({done.describe()})"

    def refused_count():
        done = ctx.collector_cli("devices", server=server)
        header = None
        for line in done.out.splitlines():
            cells = line.split()
            if cells and cells[0] == "Name":
                header = cells
            elif cells and cells[0] == "adv-tags-p1" and header and "Refused" in header:
                return cells[header.index("Refused")]
        return f"no count ({done.describe()})"

    def push(sessions):
        body = ctx.batch(sessions, device=device)
        body["cursor_after"], body["cursor_through"] = cursor[0], cursor[0] + len(sessions)
        cursor[0] += len(sessions)
        return ctx.request(server, "c1", "POST", "/api/v1/sync/batches", key=device[1], raw_body=json.dumps(body).encode())

    def case(description, sessions, expected, accept):
        try:
            answer = push(sessions)
            got, ok = repr(answer)[:300], accept(answer, sessions)
        except Dropped as error:
            got, ok = f"dropped: {error}", False
        ctx.record(KLASS, f"{server}: {description}", expected, got, ok)

    def refused_as(rule, accepted):
        def accept(answer, sessions):
            if answer.status != 200:
                return False
            receipt = answer.json() or {}
            refused = receipt.get("refused") or []
            tagged_ids = {s["id"].upper() for s in sessions if foreign(s.get("study"))}
            return (receipt.get("accepted") == accepted and {r["session_id"].upper() for r in refused} == tagged_ids
                    and all(r["rule"] == rule and r["reason"] for r in refused))
        return accept

    before = status_done("P2")
    participant = "session_study_participant"
    case("P2's tag from P1's device", [tagged(ctx, tag("P2"))], "200, the session refused (session_study_participant), nothing stored",
         refused_as(participant, 0))
    case("two of P2's sessions beside P1's own and an untagged one", [tagged(ctx, tag("P2", position=1)), tagged(ctx, tag("P1")),
                                                                      tagged(ctx, None), tagged(ctx, tag("P2", position=2))],
         "200: 2 accepted, P2's 2 refused", refused_as(participant, 2))
    for lookalike in ("p1", "P1\u200b", "\u0420" + "1", "P01", "P2"):
        case(f"a tag for participant {lookalike!r}", [tagged(ctx, tag(lookalike))], "200, refused per session",
             refused_as(participant, 0))
    case("P1's tag of a protocol version never assigned", [tagged(ctx, tag("P1", version=2))],
         "200, refused (session_study_protocol)", refused_as("session_study_protocol", 0))
    for where, study in (("condition", tag("P1", condition="feedback\u202eoff")), ("participant", tag("P1\u202e"))):
        case(f"a tag whose {where} holds U+202E", [tagged(ctx, study)], "422 invalid_batch (the one text rule)",
             lambda answer, sessions: answer.status == 422 and "session_study" in answer.text())
    after = status_done("P2")
    ctx.record(KLASS, f"{server}: P2's protocol status after P1's device pushed P2's tags", f"done {before}", f"done {after}",
               after == before and before == "0")
    count = refused_count()
    ctx.record(KLASS, f"{server}: the refused sessions counted in `collector devices`", "Refused 9", f"Refused {count}", count == "9")
    try:
        answer = ctx.request(server, "c1", "GET", "/api/v1/devices", key=ctx.reader_keys[server])
        listed = [d for d in (answer.json() or {}).get("devices", []) if d.get("name") == "adv-tags-p1"]
        got = listed[0].get("refused_sessions") if listed else f"not listed: {answer!r}"[:200]
    except Dropped as error:
        got = f"dropped: {error}"
    ctx.record(KLASS, f"{server}: GET /api/v1/devices counts them", "refused_sessions 9", f"refused_sessions {got}", got == 9)
