"""The HTTP classes: 1 (numeric and time bounds on every route and the sync batch), 2 (the Host
header), 4 (local-only settings) and 11 (idle connections, failed-authentication limits)."""

import json
import os
import re
import socket
import subprocess
import threading
import time

import generate
from context import status_in
from generate import IN, ODD, OUT
from lab import Dropped


def verdict_accept(verdict, method):
    if verdict == OUT:
        return status_in((400, 499))
    if verdict == IN and method == "GET":
        return status_in((200, 200))
    return status_in((100, 499))


def verdict_text(verdict, method):
    return {OUT: "4xx", ODD: "no 5xx"}.get(verdict, "200" if method == "GET" else "no 5xx")


# ---------------------------------------------------------------------------------------------------
# Class 1: bounds

def class1_device(ctx, server, document):
    """Every generated query/body value of every route of the OpenAPI document, and the numeric and
    time settings of PATCH /settings, from loopback and from client 1 with a paired key."""
    cases = generate.openapi_cases(document)
    settings = generate.setting_values()
    # A path's {id} names a real session of this store, so a body (a note) reaches its validator.
    listed = ctx.request(server, "srv", "GET", "/api/v1/sessions?limit=1")
    session_id = (((listed.json() or {}).get("sessions") or [{}])[0]).get("session_id", "no-session")
    for origin, key in (("srv", None), ("c1", ctx.device_keys[server])):
        where = "loopback" if origin == "srv" else "remote+key"
        for method, path, kind, name, value, verdict in cases:
            full = "/api/v1" + path.replace("/sessions/{id}", "/sessions/" + session_id)
            if kind == "query":
                target = full + generate.query([(name, value)])
                description = f"{where} {method} {target[:140]}"

                def send(target=target, method=method):
                    return ctx.request(server, origin, method, target, key=key)
            else:
                raw = "{%s: %s}" % (json.dumps(name), value)
                description = f"{where} {method} {full} {raw[:120]}"

                def send(raw=raw, method=method, full=full):
                    return ctx.request(server, origin, method, full, key=key, raw_body=raw.encode())

            def after(answer, path=path):
                # A session a valid start began is discarded, so the next case finds the device idle.
                if path == "/device/start" and answer.status == 202:
                    try:
                        ctx.request(server, origin, "POST", "/api/v1/device/discard", key=key, body={})
                    except Dropped:
                        pass
                return None
            ctx.judge("1-bounds", server, description, verdict_text(verdict, method), send, verdict_accept(verdict, method), after)
        for setting, raw, verdict in settings:
            description = f"{where} PATCH /api/v1/settings {setting}={raw[:60]}"

            def send(setting=setting, raw=raw):
                current = ctx.request(server, origin, "GET", "/api/v1/settings", key=key)
                version = (current.json() or {}).get("version", "")
                body = '{"version": %s, "values": {%s: %s}}' % (json.dumps(version), json.dumps(setting), raw)
                return ctx.request(server, origin, "PATCH", "/api/v1/settings", key=key, raw_body=body.encode())
            ctx.judge("1-bounds", server, description, verdict_text(verdict, "PATCH"), send, verdict_accept(verdict, "PATCH"))


def class1_running_session(ctx):
    """The issue's first finding as it happened: a session running on the daemon, then the requests
    that ended it (no key needed from loopback). The same session must still run afterwards."""
    try:
        started = ctx.request("daemon", "srv", "POST", "/api/v1/device/start",
                              body={"mode": "passive", "interval": "10m", "count": 3})
        for _ in range(50):  # the loop publishes its new state a moment after the 202
            before = (ctx.request("daemon", "srv", "GET", "/api/v1/device").json() or {}).get("device") or {}
            if before.get("session_id") and before.get("state") == "PassiveRunning":
                break
            time.sleep(0.1)
    except Dropped as error:
        ctx.record("1-bounds", "daemon: start a Passive session for the running-session cases", "202", str(error), False)
        return
    if started.status != 202 or not before.get("session_id"):
        ctx.record("1-bounds", "daemon: start a Passive session for the running-session cases", "202 and a session id",
                   f"{started!r}; {before}", False)
        return
    for target in ("/api/v1/sessions?from=2262-04-13", "/api/v1/sessions?to=9999-12-31", "/api/v1/sessions?from=1677-09-20",
                   "/api/v1/progress/daily?days=9223372036854775807", "/api/v1/export.csv?days=-9223372036854775808"):
        def after(answer):
            now = (ctx.request("daemon", "srv", "GET", "/api/v1/device").json() or {}).get("device") or {}
            if now.get("session_id") != before["session_id"] or now.get("state") != before.get("state"):
                return f"the session did not survive: {before.get('state')} {before['session_id']} -> {now.get('state')} {now.get('session_id')}"
            return None
        ctx.judge("1-bounds", "daemon", f"loopback GET {target} during a Passive session", "4xx or 200; the session still running",
                  lambda target=target: ctx.request("daemon", "srv", "GET", target), status_in((200, 499)), after)
    try:
        ctx.request("daemon", "srv", "POST", "/api/v1/device/discard", body={})
    except Dropped:
        pass


# The collector has no OpenAPI document; its two numeric parameters (docs/COLLECTOR.md,
# CollectorReadRoutes: limit 1–10,000, days 1–36,600).
COLLECTOR_PARAMETERS = [("/api/v1/sessions", "limit", 1, 10_000), ("/api/v1/sessions", "days", 1, 36_600)]


def class1_collector_queries(ctx, server):
    for origin, key in (("srv", None), ("c1", ctx.reader_keys[server])):
        where = "loopback" if origin == "srv" else "remote+reader key"
        for path, name, low, high in COLLECTOR_PARAMETERS:
            for value, verdict in generate.integer_values(low, high):
                target = path + generate.query([(name, value)])
                ctx.judge("1-bounds", server, f"{where} GET {target[:140]}", verdict_text(verdict, "GET"),
                          lambda target=target, origin=origin, key=key: ctx.request(server, origin, "GET", target, key=key),
                          verdict_accept(verdict, "GET"))


# The study analysis and tidy export (StudyAnalysisRoutes, docs/STUDIES.md): `table` is cells or estimates;
# `participant=` and `device=` must name one enrolled here (otherwise 404); the codebook ignores its query.
ANALYSIS_ROUTES = ("/api/v1/analysis", "/api/v1/analysis.csv", "/api/v1/export-tidy.csv")
CODEBOOK_ROUTE = "/api/v1/export-tidy-codebook.csv"


def analysis_scope_values(known_device):
    """(query parameters, verdict) for the analysis routes' scope: none, the enrolled device, and
    hostile names (unknown, huge, control characters, NUL, formulas, both scopes at once)."""
    hostile = ["nobody-enrolled", "x" * 5000, "\u0000", "a\nb", "\x1b[2J", "abc\u202efed", "%",
               '=HYPERLINK("http://evil.example/","x")', "../../etc/passwd", "' OR 1=1 --", "\ud7ff" * 50]
    cases = [([], IN), ([("participant", "")], IN), ([("device", "")], IN)]
    cases += [([(name, value)], OUT) for name in ("participant", "device") for value in hostile]
    if known_device:
        cases += [([("device", known_device)], IN), ([("device", known_device), ("participant", "nobody-enrolled")], OUT)]
    return cases


def table_values():
    return [("cells", IN), ("estimates", IN), ("", OUT), ("CELLS", OUT), ("cells ", OUT), ("x" * 5000, OUT),
            ("\u0000", OUT), ("estimates\ncells", OUT), ("1", OUT)]


def class1_collector_analysis(ctx, server):
    """Hostile queries on the analysis routes, from loopback and from a namespace with a reader key, after
    class 1's damaged batches reached the store: a refusal or an answer, never a 5xx. Without a key
    from beyond loopback every one of them is 401."""
    known = ctx.batch_devices.get(server)
    known_device = known[2] if known else None
    for origin, key in (("srv", None), ("c1", ctx.reader_keys[server])):
        where = "loopback" if origin == "srv" else "remote+reader key"
        cases = [(route, scope, verdict) for route in ANALYSIS_ROUTES for scope, verdict in analysis_scope_values(known_device)]
        cases += [("/api/v1/analysis.csv", [("table", value)], verdict) for value, verdict in table_values()]
        cases += [(CODEBOOK_ROUTE, scope, ODD) for scope, _ in analysis_scope_values(known_device)]
        for route, scope, verdict in cases:
            target = route + (generate.query(scope) if scope else "")
            ctx.judge("1-bounds", server, f"{where} GET {target[:140]}", verdict_text(verdict, "GET"),
                      lambda target=target, origin=origin, key=key: ctx.request(server, origin, "GET", target, key=key),
                      verdict_accept(verdict, "GET"))
    for route in ANALYSIS_ROUTES + (CODEBOOK_ROUTE,):
        ctx.judge("1-bounds", server, f"remote GET {route} without a key", "401",
                  lambda route=route: ctx.request(server, "c1", "GET", route), status_in((401, 401)))


def mutated_batch(ctx, field, raw, device=None):
    """The batch's JSON text with FIELD set to the raw JSON text RAW (in its first session, attempt,
    boundary or preference), everything else as `sync now` sent it."""
    where = generate.BATCH_FIELDS[field][0]
    marker = "__ADVERSARIAL__"
    if where == "boundary":
        session = ctx.session("passive")
    else:
        session = ctx.session("challenge")
    preferences = [{"key": "default-attempts", "value": "5", "clock": 1, "origin": "device"}]
    batch = ctx.batch([session], preferences, device=device)
    name = field.split(".")[-1]
    if where == "batch":
        batch[name] = marker
    elif where == "session":
        session[name] = marker
    elif where == "attempt":
        session["attempts"][0][name] = marker
    elif where == "boundary":
        session["boundaries"][0][name] = marker
    elif where == "preference":
        preferences[0][name] = marker
    return json.dumps(batch).replace(json.dumps(marker), raw), session["id"]


def class1_batch(ctx, server):
    """Every numeric field of a valid batch at and past its bounds; after a preference clock case,
    `collector preferences set` for the device must not trap either (it did at clock 2^63-1)."""
    device = ctx.batch_devices[server]
    name = device[2]
    for field in generate.BATCH_FIELDS:
        for raw, verdict in generate.batch_values(field):
            body, _ = mutated_batch(ctx, field, raw, device)
            description = f"remote POST /api/v1/sync/batches {field}={raw[:45]}"
            expected = {OUT: "4xx", ODD: "no 5xx", IN: "no 5xx"}[verdict]
            after = None
            if field == "preferences.clock":
                def after(answer, raw=raw):
                    done = ctx.collector_cli("preferences", "set", name, "default-attempts", "7", server=server)
                    if done.trapped or done.rc not in (0, 64, 65, 75, 76):
                        return f"then `collector preferences set {name} default-attempts 7`: {done.describe()}"
                    return None
            ctx.judge("1-bounds", server, description, expected, lambda body=body: ctx.push(body, device=device, server=server),
                      verdict_accept(verdict, "POST"), after)


# ---------------------------------------------------------------------------------------------------
# Class 2: the Host header

REMOTE_HOSTS = [
    "127.evil.example.com", "127.0.0.1.nip.io", "localhost.evil", "0x7f.1", "2130706433", "[::ffff:127.0.0.1]",
    "127.1", "0177.0.0.1", "0x7f000001", "127.0.0.1.", "localhost.", "localhost.localdomain.evil.com",
    "127.0.0.1:8737.evil.com", "127.0.0.1@evil.com", "evil.com@127.0.0.1", "evil.com#127.0.0.1", "127.0.0.1 evil.com",
    "evil.com", "example.com:8737", "127.0.0.1:99999", "127.0.0.1:-1", "127.0.0.1:", "localhost:abc",
    "127.0.0.256", "127.0.0.1.1", "1.0.0.127.in-addr.arpa", "[::ffff:7f00:1]", "[::1]evil", "[::1].evil.com",
    "::1", "%6c%6f%63%61%6c%68%6f%73%74", "xn--localhost-evil", "localhost\\@evil.com", "lo\u0441alhost",
    "127.0.0.1, evil.com", "", "0.0.0.0", "0", "[::]", "10.217.1.1",
]
LOCAL_HOSTS = ["127.0.0.1", "127.0.0.1:8737", "localhost", "localhost:8737", "[::1]:8737", "[::1]", "127.0.0.2"]


def class2_hosts(ctx):
    """From loopback: a Host that is not literally loopback is remote (401 on the device's local-only
    POST /keys and /login-links, on the collector's export and device list); the literal loopback
    names stay local. Also a second Host header, none at all, and an absolute-form target."""
    routes = [("daemon", "POST", "/api/v1/keys", {"name": "host-check"}, (200, 201)),
              ("daemon", "POST", "/api/v1/login-links", {}, (200, 201)),
              ("companion", "POST", "/api/v1/keys", {"name": "host-check"}, (200, 201)),
              ("companion", "POST", "/api/v1/login-links", {}, (200, 201)),
              ("collector", "GET", "/api/v1/export.csv", None, (200, 200)),
              ("collector", "GET", "/api/v1/devices", None, (200, 200))]
    for server, method, path, body, local_ok in routes:
        for host in REMOTE_HOSTS:
            ctx.judge("2-host", server, f"loopback {method} {path} Host: {host!r}", "401 (treated as remote)",
                      lambda host=host: ctx.request(server, "srv", method, path, body=body, host_header=host),
                      status_in((400, 401), (403, 403)))
        for host in LOCAL_HOSTS:
            ctx.judge("2-host", server, f"loopback {method} {path} Host: {host!r}", "2xx (local)",
                      lambda host=host: ctx.request(server, "srv", method, path, body=body, host_header=host),
                      status_in(local_ok))
        for first, second in (("127.0.0.1", "127.evil.example.com"), ("127.evil.example.com", "127.0.0.1")):
            ctx.judge("2-host", server, f"loopback {method} {path} two Host headers {first!r}, {second!r}", "4xx (not local)",
                      lambda first=first, second=second: ctx.request(server, "srv", method, path, body=body, host_header=first,
                                                                     headers={"Host": second}),
                      status_in((400, 403)))
        ctx.judge("2-host", server, f"loopback {method} {path} without a Host header", "4xx (not local)",
                  lambda: ctx.request(server, "srv", method, path, body=body, host_header=None), status_in((400, 403)))
        # Absolute-form target naming another host, Host loopback: the target's authority counts.
        ctx.judge("2-host", server, f"loopback {method} http://127.evil.example.com{path} (absolute form)", "4xx (not local)",
                  lambda: ctx.request(server, "srv", method, "http://127.evil.example.com" + path, body=body,
                                      host_header="127.evil.example.com"),
                  status_in((400, 403)))
        # From beyond loopback a loopback Host does not make the peer local.
        for host in ("127.0.0.1", "localhost:8737", "[::1]:8737"):
            ctx.judge("2-host", server, f"remote (c1) {method} {path} Host: {host!r} without a key", "401",
                      lambda host=host: ctx.request(server, "c1", method, path, body=body, host_header=host),
                      status_in((401, 401)))


# ---------------------------------------------------------------------------------------------------
# Class 4: local-only settings

def store_paths(data):
    base = os.path.join(data, "chronoception.sqlite")
    return [base, base + "-wal", base + "-shm"]


def class4_settings(ctx):
    def patch(server, origin, key, values):
        current = ctx.request(server, origin, "GET", "/api/v1/settings", key=key)
        version = (current.json() or {}).get("version", "")
        return ctx.request(server, origin, "PATCH", "/api/v1/settings", key=key, body={"version": version, "values": values})

    def setting(server, name):
        answer = ctx.request(server, "srv", "GET", "/api/v1/settings")
        values = (answer.json() or {}).get("values", answer.json() or {})
        found = values.get(name) if isinstance(values, dict) else None
        if isinstance(found, dict):
            return found.get("value")
        return found

    for server in ("daemon", "companion"):
        key = ctx.device_keys[server]
        data = ctx.data[server]
        # Control: a paired key may change an ordinary setting from beyond loopback.
        ctx.judge("4-local-settings", server, "remote+key PATCH default-attempts=6 (control)", "200",
                  lambda: patch(server, "c1", key, {"default-attempts": 6}), status_in((200, 200)))
        remote_values = [("health-log-file", f"{ctx.work}/remote-health.jsonl"), ("health-log-file", "/etc/passwd"),
                         ("health-log-file", store_paths(data)[0]), ("wall-clock-check", "off"), ("wall-clock-check", False),
                         ("wall-clock-check", "on"), ("health-log-file", 0)]
        for name, value in remote_values:
            before = setting(server, name)

            def after(answer, name=name, before=before):
                now = setting(server, name)
                return None if now == before else f"the setting changed: {before!r} -> {now!r}"
            ctx.judge("4-local-settings", server, f"remote+key PATCH {name}={value!r}", "403 (local only), setting unchanged",
                      lambda name=name, value=value: patch(server, "c1", key, {name: value}), status_in((400, 499)), after)
            # Mixed with an allowed key: the whole PATCH is refused, nothing written.
            ctx.judge("4-local-settings", server, f"remote+key PATCH default-attempts=4 with {name}={value!r}",
                      "4xx, setting unchanged",
                      lambda name=name, value=value: patch(server, "c1", key, {"default-attempts": 4, name: value}),
                      status_in((400, 499)), after)
        # The store's own files, even from loopback, spelt many ways.
        link = os.path.join(ctx.work, f"{server}-db-link")
        if not os.path.lexists(link):
            os.symlink(store_paths(data)[0], link)
        hard = os.path.join(data, "hardlink.sqlite")
        if not os.path.exists(hard):
            try:
                os.link(store_paths(data)[0], hard)
            except OSError:
                hard = None
        os.makedirs(os.path.join(data, "sub"), exist_ok=True)
        targets = store_paths(data) + [
            os.path.join(data, "sub", "..", "chronoception.sqlite"), os.path.join(data, ".", "chronoception.sqlite-wal"),
            data + "//chronoception.sqlite", link, os.path.join(data, ".chronoception.sqlite.verified"),
        ] + ([hard] if hard else [])
        for target in targets:
            before_hash = {p: _size_inode(p) for p in store_paths(data)}
            before = setting(server, "health-log-file")

            def after(answer, before=before):
                now = setting(server, "health-log-file")
                return None if now == before else f"health-log-file changed: {before!r} -> {now!r}"
            ctx.judge("4-local-settings", server, f"loopback PATCH health-log-file={target}", "4xx, setting unchanged",
                      lambda target=target: patch(server, "srv", None, {"health-log-file": target}), status_in((400, 499)), after)
            ctx.judge("4-local-settings", server, f"loopback POST /health/backfill after the refused {os.path.basename(target)}",
                      "the store's files not appended to",
                      lambda: ctx.request(server, "srv", "POST", "/api/v1/health/backfill", body={}), status_in((100, 499)),
                      lambda answer, before_hash=before_hash: _appended(before_hash))
        # The same through the command line.
        for target in store_paths(data)[:1] + [link]:
            done = ctx.cli("settings", "set", "health-log-file", target, "--data-dir", data)
            ok = done.rc not in (0,) and not done.trapped
            ctx.record("4-local-settings", f"{server}: settings set health-log-file {target}", "refused (non-zero exit)",
                       done.describe(), ok)


def _size_inode(path):
    try:
        st = os.stat(path)
        return (st.st_ino, st.st_size)
    except FileNotFoundError:
        return None


def _appended(before):
    for path, value in before.items():
        now = _size_inode(path)
        if path.endswith(".sqlite") and value and now and value[0] != now[0]:
            return f"{os.path.basename(path)} was replaced"
    # JSON appended to the database would show as text at its end.
    base = [p for p in before if p.endswith(".sqlite")][0]
    try:
        with open(base, "rb") as f:
            f.seek(max(0, os.path.getsize(base) - 4096))
            tail = f.read()
        if b'"session_id"' in tail or b'"HKQuantityType' in tail or b'"start"' in tail and b'"end"' in tail:
            return "JSON appended to the database"
    except OSError:
        pass
    return None


# ---------------------------------------------------------------------------------------------------
# Class 11: idle connections and failed-authentication limits

# The servers' read timeouts are 30 s; a connection must be gone a few seconds after that.
IDLE_LIMIT_SECONDS = 35
SLOW_LIMIT_SECONDS = 45


def class11_idle(ctx):
    """Parallel threads: per server and origin, a connection that sends nothing, one that sends its
    headers one byte a second, and one left idle after a complete keep-alive request. Each must be
    closed by the server within the limit."""
    threads = []
    for server in ("daemon", "companion", "collector"):
        for origin in ("srv", "c1"):
            for kind in ("silent", "byte-per-second", "idle-keep-alive"):
                thread = threading.Thread(target=_idle_case, args=(ctx, server, origin, kind), daemon=True)
                thread.start()
                threads.append(thread)
    return threads


def _idle_case(ctx, server, origin, kind):
    instance = ctx.servers[server]
    pid = instance.pid
    limit = SLOW_LIMIT_SECONDS if kind == "byte-per-second" else IDLE_LIMIT_SECONDS
    description = f"{server}: {'loopback' if origin == 'srv' else 'remote'} connection {kind}"
    sock = ctx.hosts.socket_in(origin)
    start = time.monotonic()
    closed, how = False, ""
    try:
        sock.connect(ctx.target(server, origin))
        if kind == "idle-keep-alive":
            host = "127.0.0.1" if origin == "srv" else "x"
            sock.sendall(f"GET {instance.health_path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        request = f"GET {instance.health_path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: {'a' * 200}\r\n".encode()
        position = 0
        sock.settimeout(1.0)
        while time.monotonic() - start < limit + 5:
            if kind == "byte-per-second" and position < len(request):
                try:
                    sock.send(request[position:position + 1])
                    position += 1
                except OSError:
                    closed, how = True, "send failed (closed)"
                    break
            try:
                chunk = sock.recv(65536)
                if not chunk:
                    closed, how = True, "closed"
                    break
            except socket.timeout:
                continue
            except OSError as error:
                closed, how = True, f"reset ({error.__class__.__name__})"
                break
    except OSError as error:
        closed, how = True, f"connect failed: {error}"
    finally:
        sock.close()
    seconds = time.monotonic() - start
    survived = instance.pid == pid and instance.process.poll() is None
    ok = closed and seconds <= limit and survived
    got = f"{how or 'still open'} after {seconds:.1f} s" + ("" if survived else f"; {server} died or was restarted meanwhile")
    ctx.record("11-idle-and-limits", description, f"closed by the server within {limit} s", got, ok)


RATE_LIMIT_AFTER = 30   # failed attempts from one address before a 429 must have appeared
RATE_LIMIT_TRIES = 40


def class11_limits(ctx):
    """From one client address per attack (clients 4…): wrong keys and spent or guessed login tokens
    until a 429; after each, client 3 (another address) is unaffected: its right key works and its
    wrong attempt gets 401/403, not 429."""
    attacks = [
        ("daemon", "wrong bearer keys on GET /device", lambda i: ("GET", "/api/v1/device", f"cck_{'A' * 40}{i:03d}", None)),
        ("daemon", "guessed login tokens", lambda i: ("GET", f"/api/v1/login?token=guess{i:04d}{'x' * 30}", None, None)),
        ("companion", "wrong bearer keys on GET /sessions", lambda i: ("GET", "/api/v1/sessions", f"cck_{'B' * 40}{i:03d}", None)),
        ("companion", "guessed login tokens", lambda i: ("GET", f"/api/v1/login?token=guess{i:04d}{'y' * 30}", None, None)),
        ("collector", "wrong reader keys on GET /export.csv", lambda i: ("GET", "/api/v1/export.csv", f"ccr_{'C' * 40}{i:03d}", None)),
        ("collector", "wrong reader keys on POST /login", lambda i: ("POST", "/api/v1/login", None, {"key": f"ccr_{'D' * 40}{i:03d}"})),
        ("collector", "wrong device keys on POST /sync/batches", lambda i: ("POST", "/api/v1/sync/batches", f"ccd_{'E' * 40}{i:03d}", {})),
    ]
    # Spent tokens: real login links, each spent once from loopback, then each tried once by the
    # attacker (the same credential presented again counts once per window, by design: an honest
    # browser with a stale link must not lock itself out; guessing needs new values).
    for server in ("daemon", "companion"):
        links, problem = [], None
        for _ in range(RATE_LIMIT_TRIES):
            try:
                made = ctx.request(server, "srv", "POST", "/api/v1/login-links", body={})
                link = (made.json() or {}).get("path") or ""
                spent = ctx.request(server, "srv", "GET", link) if link else made
            except Dropped as error:
                problem = str(error)
                break
            if spent.status != 303:
                problem = f"{made!r}; {spent!r}"
                break
            links.append(link)
        if problem:
            ctx.record("11-idle-and-limits", f"{server}: login links spent once from loopback", "303 each", problem, False)
            continue
        attacks.append((server, "spent login tokens (each once)", lambda i, links=links: ("GET", links[i % len(links)], None, None)))
    for number, (server, what, make) in enumerate(attacks):
        # Each attack from an address of its own (clients 4…), so each shows its own threshold.
        attacker = 4 + number
        statuses = []
        first_429 = None
        for i in range(RATE_LIMIT_TRIES):
            method, path, key, body = make(i)
            headers = {"Origin": f"http://{ctx.hosts.address(attacker)}:{ctx.servers[server].port}"} if method == "POST" else {}
            try:
                answer = ctx.request(server, f"c{attacker}", method, path, key=key, body=body, headers=headers)
                statuses.append(answer.status)
                if answer.status == 429:
                    first_429 = i + 1
                    break
            except Dropped as error:
                statuses.append(f"dropped ({error})")
                break
        ok = first_429 is not None and first_429 <= RATE_LIMIT_AFTER + 1
        got = f"429 at attempt {first_429}" if first_429 else f"no 429 in {len(statuses)} attempts: {sorted(set(map(str, statuses)))}"
        ctx.record("11-idle-and-limits", f"{server}: remote (c{attacker}) {what}, {RATE_LIMIT_TRIES} at most",
                   f"429 within {RATE_LIMIT_AFTER} failures", got, ok)
        # Client 3 is another address: not limited by client 2's guesses.
        if server == "collector":
            right = ("GET", "/api/v1/devices", ctx.reader_key)
        else:
            right = ("GET", "/api/v1/device", ctx.device_keys[server])
        ctx.judge("11-idle-and-limits", server, f"remote (c3) with the right key after c{attacker}'s guesses ({what})", "200",
                  lambda right=right: ctx.request(server, "c3", right[0], right[1], key=right[2]), status_in((200, 200)))
        method, path, key, body = make(999)
        ctx.judge("11-idle-and-limits", server, f"remote (c3) one wrong attempt after c{attacker}'s guesses ({what})", "401/403, not 429",
                  lambda: ctx.request(server, "c3", method, path, key=key, body=body), status_in((400, 428), (430, 499)))


# ---------------------------------------------------------------------------------------------------
# Class 1 (property-based): schemathesis against the daemon, from a client address with a key

SCHEMATHESIS_VERSION = "4.32.5"  # the one scripts/test-api uses: one cached virtualenv for both


def schemathesis_binary(ctx):
    """The cached schemathesis (installed like scripts/test-api does when missing); None if it cannot be."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    venv = os.path.join(cache, "chronoception", f"schemathesis-{SCHEMATHESIS_VERSION}")
    binary = os.path.join(venv, "bin", "schemathesis")
    if not os.access(binary, os.X_OK):
        for command in (["python3", "-m", "venv", venv], [os.path.join(venv, "bin", "pip"), "install", "--quiet",
                                                           f"schemathesis=={SCHEMATHESIS_VERSION}"]):
            if subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
                return None
    return binary


def class1_schemathesis(ctx, client):
    """Schemathesis's coverage, fuzzing and stateful phases on every operation of the daemon but the
    endless event stream, the ones that wait (pairing), wipe (delete-all), revoke our key or count as
    failed sign-ins (login): no 5xx (check not_a_server_error), and the daemon alive afterwards. Its
    generated cases are counted as their own line, 1-schemathesis."""
    binary = schemathesis_binary(ctx)
    if binary is None:
        ctx.record("1-schemathesis", "install schemathesis", f"schemathesis {SCHEMATHESIS_VERSION} in the cache", "pip failed", False)
        return
    daemon = ctx.servers["daemon"]
    pid = daemon.pid
    url = f"http://{ctx.hosts.address(client)}:{daemon.port}/api/v1/openapi.json"
    log_path = os.path.join(ctx.work, "logs", "schemathesis.log")
    command = ctx.hosts.exec_prefix(f"c{client}") + [
        binary, "run", url, "-H", f"Authorization: Bearer {ctx.device_keys['daemon']}",
        "--checks", "not_a_server_error", "--exclude-path", "/events", "--exclude-path", "/delete-all",
        "--exclude-path", "/delete-all/confirm", "--exclude-path", "/pairing", "--exclude-path", "/login",
        "--exclude-path-regex", "^/keys/", "--max-examples", "30", "--seed", "1", "-w", "2", "--no-color",
        "--request-timeout", "15"]
    with open(log_path, "w") as log:
        done = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, cwd=ctx.work, env=ctx.env, timeout=300)
    text = open(log_path, encoding="utf-8", errors="replace").read()
    counts = re.search(r"(\d+) generated(?:, (\d+) passed)?(?:, (\d+) failed)?", text)
    generated = int(counts.group(1)) if counts else 0
    failed = int(counts.group(3) or 0) if counts else 0
    alive, detail = daemon.alive()
    with ctx.tally.lock:
        passed_before, failed_before = ctx.tally.counts.get("1-schemathesis", (0, 0))
        ctx.tally.counts["1-schemathesis"] = (passed_before + max(generated - failed, 0), failed_before + failed)
    problems = []
    if done.returncode != 0 or failed or not counts:
        section = text[text.find("FAILURES"):] if "FAILURES" in text else text[-1500:]
        problems.append(f"exit {done.returncode}: " + " / ".join(line.strip() for line in section.splitlines()[:25] if line.strip())[:800])
    if not alive or daemon.pid != pid:
        problems.append(detail or "the daemon was restarted meanwhile")
        daemon.ensure("schemathesis")
    ctx.record("1-schemathesis", f"daemon: schemathesis from c{client} with a key ({generated} generated cases)",
               "no 5xx, the daemon alive", "; ".join(problems) or "ok", not problems)
