"""Class 3-descriptor-flood (issue 34, item 1): no peer can exhaust a server.

During a running Passive session on the daemon, 5,000 idle TCP connections from 36 remote addresses
(client 1's own plus 24 more on its link, and clients 2–12), 1,000 a second, are opened to the
daemon, the companion and the collector and kept open, while the owner's `GET /api/v1/device` (the
companion's too, and the collector's `GET /`) is timed every 100 ms over loopback TCP and over each
server's Unix socket. What must hold:

- every owner request is answered within 100 ms, throughout;
- each server raised its open-file soft limit to the hard one (/proc/PID/limits);
- each server holds at most its caps (`ConnectionLimits`: 64 a remote address, a quarter of the
  open-file limit, at most 1,024, from all remote addresses) and closes the rest at once: the
  attacker's census counts exactly what the caps admit, the rest closed by the server;
- every server is alive afterwards, none restarted, and no log says "Too many open files";
- the session is saved, completed, with every boundary fired within 50 ms of its due time
  (`CueTiming.tolerance`) and no timing flag.

The attacker runs as a process of its own (this file run as a script), so that opening 5,000
sockets never holds the interpreter lock the owner's timing threads need.
"""

import json
import os
import select
import socket
import subprocess
import sys
import threading
import time

KLASS = "3-descriptor-flood"
OWNER_BOUND_SECONDS = 0.100
EXTRA_SOURCES = [f"10.219.1.{i}" for i in range(10, 34)]  # 24 more addresses on client 1's link
# (server, clients whose base address floods it, connections from each source)
PLAN = [("daemon", [1, 2, 3, 4, 5, 6], None), ("companion", [7, 8, 9], 500), ("collector", [10, 11, 12], 500)]
DAEMON_CONNECTIONS = 2000  # spread over client 1's 25 addresses and clients 2–6: 5,000 in all
# 1,000 new connections a second, far more than a household's network brings a Pi, enough to use up
# a 1,024 soft limit within a second; a kernel-speed burst instead measures the attacker's CPU share.
FLOOD_SECONDS = 5.0


def class3_flood(ctx):
    hosts = ctx.hosts
    _extra_addresses(hosts)
    sources = _sources(ctx)
    limits = {}
    for name in ("daemon", "companion", "collector"):
        limits[name] = _limits(ctx, name)

    started = _start_session(ctx)
    if started is None:
        return
    session_id, began = started

    timings = {(name, via): [] for name in ("daemon", "companion", "collector") for via in ("loopback", "socket")}
    stop = threading.Event()
    paths = {"daemon": "/api/v1/device", "companion": "/api/v1/device", "collector": "/"}
    timers = [threading.Thread(target=_time_owner, args=(ctx, name, via, paths[name], timings[(name, via)], stop), daemon=True)
              for name, via in timings]
    for timer in timers:
        timer.start()

    attacker = subprocess.Popen([sys.executable, os.path.abspath(__file__), "attack", hosts.prefix, json.dumps(sources)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=ctx.env)
    opened = json.loads(attacker.stdout.readline() or "{}")
    _wait_for_accepted(ctx)
    attacker.stdin.write("census\n")
    attacker.stdin.flush()
    census = json.loads(attacker.stdout.readline() or "{}")

    # The flood is held while the session runs to its end (3 × 10 s).
    _wait_for_idle(ctx, began + 40)
    stop.set()
    for timer in timers:
        timer.join()
    attacker.stdin.write("close\n")
    attacker.stdin.flush()
    try:
        attacker.wait(30)
    except subprocess.TimeoutExpired:
        attacker.kill()

    total = sum(opened.get(key, {}).get("opened", 0) for key in opened)
    failed = sum(opened.get(key, {}).get("failed", 0) for key in opened)
    ctx.record(KLASS, "the attacker opened 5,000 idle connections from 36 addresses", "5,000 connected",
               f"{total} connected, {failed} refused or timed out", total == 5000)

    for name in ("daemon", "companion", "collector"):
        _judge_caps(ctx, name, limits[name], sources, census)
        for via in ("socket", "loopback"):
            _judge_timings(ctx, name, via, timings[(name, via)])
        server = ctx.servers[name]
        alive, detail = server.alive()
        ctx.record(KLASS, f"{name}: alive and answering after the flood", "alive", detail or "alive", alive)
        if not alive:
            server.ensure(f"{KLASS} flood")
        ctx.record(KLASS, f"{name}: not restarted during the flood", "same process",
                   f"restarted {server.restarts} times" if server.restarts else "same process", not server.restarts)
        text = _log_text(server)
        ctx.record(KLASS, f"{name}: its log never says 'Too many open files'", "absent",
                   "present" if "Too many open files" in text else "absent", "Too many open files" not in text)
    _judge_session(ctx, session_id)


# -- set-up -------------------------------------------------------------------------------------

def _extra_addresses(hosts):
    """24 more source addresses on client 1's link, routed back by srv, so one flood can come from
    more addresses than the remote cap needs (25 × 64 > 1,024)."""
    for address in EXTRA_SOURCES:
        subprocess.run(["ip", "-n", hosts.name("c1"), "addr", "add", f"{address}/32", "dev", "up1"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(["ip", "-n", hosts.name("srv"), "route", "replace", "10.219.1.0/24", "via", hosts.client_address(1), "dev", "dn1"],
                   check=True, stdout=subprocess.DEVNULL)


def _sources(ctx):
    """{key: [namespace, source address or None, (ip, port), connections]} for the attacker."""
    sources = {}
    daemon_sources = [("c1", address) for address in EXTRA_SOURCES] + [(f"c{i}", None) for i in PLAN[0][1]]
    each, extra = divmod(DAEMON_CONNECTIONS, len(daemon_sources))
    for position, (namespace, address) in enumerate(daemon_sources):
        origin = ctx.target("daemon", namespace)
        sources[f"daemon {address or ctx.hosts.client_address(int(namespace[1:]))}"] = \
            [namespace, address, list(origin), each + (1 if position < extra else 0)]
    for name, clients, count in PLAN[1:]:
        for i in clients:
            sources[f"{name} {ctx.hosts.client_address(i)}"] = [f"c{i}", None, list(ctx.target(name, f"c{i}")), count]
    return sources


def _limits(ctx, name):
    """(soft, hard, per address, remote total) of SERVER's process, the caps as ConnectionLimits
    derives them from the soft limit."""
    soft = hard = None
    try:
        with open(f"/proc/{ctx.servers[name].pid}/limits") as f:
            for line in f:
                if line.startswith("Max open files"):
                    parts = line.split()
                    soft, hard = parts[3], parts[4]
    except OSError:
        pass
    ok = soft is not None and soft == hard
    ctx.record(KLASS, f"{name}: the open-file soft limit raised to the hard one at start", "soft == hard",
               f"soft {soft}, hard {hard}", ok)
    limit = int(soft) if soft and soft.isdigit() else 1 << 20
    return limit, min(64, max(1, limit // 16)), max(1, min(limit // 4, 1024))


def _idle_daemon(ctx):
    """Earlier classes (schemathesis's starts, the bounds' running session) may leave a session on the
    daemon: it is discarded, and its summary window waited out, before the flood's own session."""
    for _ in range(100):
        device = (ctx.request("daemon", "srv", "GET", "/api/v1/device").json() or {}).get("device") or {}
        if device.get("state") == "Idle":
            return
        if device.get("session_in_progress"):
            ctx.request("daemon", "srv", "POST", "/api/v1/device/discard", body={})
        time.sleep(0.2)


def _start_session(ctx):
    try:
        _idle_daemon(ctx)
        answer = ctx.request("daemon", "srv", "POST", "/api/v1/device/start", body={"mode": "passive", "interval": "10s", "count": 3})
        for _ in range(50):
            device = (ctx.request("daemon", "srv", "GET", "/api/v1/device").json() or {}).get("device") or {}
            if device.get("session_id") and device.get("state") == "PassiveRunning":
                ctx.record(KLASS, "daemon: a Passive session of 3 × 10 s runs before the flood", "PassiveRunning", "running", True)
                return device["session_id"], time.monotonic()
            time.sleep(0.1)
        got = f"{answer!r}; {device}"
    except Exception as error:  # Dropped, or a harness fault: the class cannot go on
        got = repr(error)
    ctx.record(KLASS, "daemon: a Passive session of 3 × 10 s runs before the flood", "202 and PassiveRunning", got, False)
    return None


def _wait_for_accepted(ctx):
    """Until each server has taken every connection waiting in its listen queue (ss's Recv-Q of a
    listening socket), at most 20 s: the census then sees what the server kept, not what the kernel
    still holds for it."""
    deadline = time.monotonic() + 20
    ports = {str(ctx.servers[name].port) for name in ("daemon", "companion", "collector")}
    while time.monotonic() < deadline:
        done = subprocess.run(ctx.hosts.exec_prefix("srv") + ["ss", "-Hltn"], capture_output=True, text=True)
        waiting = 0
        for line in done.stdout.splitlines():
            parts = line.split()
            if len(parts) >= 4 and parts[3].rsplit(":", 1)[-1] in ports:
                waiting += int(parts[1])
        if done.returncode == 0 and waiting == 0:
            break
        time.sleep(0.1)
    time.sleep(0.5)  # the last ones accepted are closed or kept within a moment


def _wait_for_idle(ctx, deadline):
    while time.monotonic() < deadline:
        try:
            device = (ctx.request("daemon", "srv", "GET", "/api/v1/device", timeout=2).json() or {}).get("device") or {}
            if device.get("state") and not device.get("session_in_progress"):
                return
        except Exception:
            pass
        time.sleep(0.5)


# -- the owner --------------------------------------------------------------------------------------

def _time_owner(ctx, name, via, path, timings, stop):
    """Every 100 ms until STOP: one request on a connection of its own, over loopback TCP or the
    server's Unix socket, timed."""
    from lab import Dropped
    while not stop.is_set():
        began = time.monotonic()
        try:
            if via == "socket":
                status = _unix_get(os.path.join(ctx.work, f"{name}.sock"), path)
            else:
                status = ctx.request(name, "srv", "GET", path, timeout=5).status
            timings.append((time.monotonic() - began, status, None))
        except (Dropped, OSError) as error:
            timings.append((time.monotonic() - began, None, str(error)))
        rest = 0.1 - (time.monotonic() - began)
        if rest > 0:
            stop.wait(rest)


def _unix_get(path, target):
    """The status of one GET over the Unix socket at PATH (Connection: close)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(5)
    try:
        sock.connect(path)
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())
        received = b""
        while b"\r\n" not in received:
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += chunk
        while True:  # the whole answer, as the owner would read it
            chunk = sock.recv(65536)
            if not chunk:
                break
        parts = received.split(b" ", 2)
        return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
    finally:
        sock.close()


def _judge_timings(ctx, name, via, timings):
    where = "Unix socket" if via == "socket" else "loopback"
    for position, (seconds, status, error) in enumerate(timings):
        ok = status == 200 and seconds <= OWNER_BOUND_SECONDS
        got = f"{status} in {seconds * 1000:.0f} ms" if status is not None else f"dropped after {seconds * 1000:.0f} ms ({error})"
        ctx.record(KLASS, f"{name}: the owner's {where} request {position + 1} during the flood", "200 within 100 ms", got, ok)


# -- the caps ----------------------------------------------------------------------------------------

def _judge_caps(ctx, name, limits, sources, census):
    _, per_address, remote_total = limits
    mine = {key: value for key, value in census.items() if key.startswith(name + " ")}
    held = {key: value["held"] for key, value in mine.items()}
    over = {key: count for key, count in held.items() if count > per_address}
    ctx.record(KLASS, f"{name}: no remote address holds more than {per_address} connections", f"≤ {per_address} each",
               f"over: {over}" if over else f"at most {max(held.values(), default=0)}", not over)
    # What the caps admit of what was connected: each address its share, all of them the total.
    admitted = sum(min(value["opened"], per_address) for value in mine.values())
    expected = min(admitted, remote_total)
    got = sum(held.values())
    ctx.record(KLASS, f"{name}: holds what its caps admit ({per_address} an address, {remote_total} in all) and closed the rest at once",
               f"{expected} held, {sum(v['opened'] for v in mine.values()) - expected} closed within 1 s",
               f"{got} held, {sum(v['closed'] for v in mine.values())} closed", got == expected)


def _log_text(server):
    try:
        with open(server.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


# -- the session -------------------------------------------------------------------------------------

def _judge_session(ctx, session_id):
    try:
        answer = ctx.request("daemon", "srv", "GET", f"/api/v1/sessions/{session_id}", timeout=10)
        session = answer.json() or {}
        session = session.get("session", session)
    except Exception as error:
        ctx.record(KLASS, "daemon: the flooded session is saved", "200 and the session", repr(error), False)
        return
    status = session.get("status")
    boundaries = session.get("boundaries") or []
    ctx.record(KLASS, "daemon: the flooded session is saved, completed, with its 3 boundaries", "completed, 3 boundaries",
               f"{answer.status} {status}, {len(boundaries)} boundaries", answer.status == 200 and status == "completed" and len(boundaries) == 3)
    ctx.record(KLASS, "daemon: the flooded session carries no timing flag", "timing_late_ms null",
               f"timing_late_ms {session.get('timing_late_ms')}", session.get("timing_late_ms") is None)
    for boundary in boundaries:
        due, fired = _milliseconds(boundary.get("due_at")), _milliseconds(boundary.get("fired_at"))
        late = None if due is None or fired is None else fired - due
        ok = late is not None and abs(late) <= 50
        ctx.record(KLASS, f"daemon: boundary {boundary.get('index')} fired on time during the flood", "within 50 ms of due",
                   f"due {boundary.get('due_at')}, fired {boundary.get('fired_at')}", ok)


def _milliseconds(text):
    """Milliseconds since the epoch of the API's ISO 8601 time (YYYY-MM-DDTHH:MM:SS.mmm+HH:MM)."""
    if not text:
        return None
    import datetime
    try:
        return round(datetime.datetime.fromisoformat(text).timestamp() * 1000)
    except ValueError:
        return None


# -- the attacker (its own process) ---------------------------------------------------------------

def _attack(prefix, sources):
    import resource
    from lab import Hosts
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    hosts = Hosts(clients=12)
    hosts.prefix = prefix
    held = {key: [] for key in sources}
    failed = {key: 0 for key in sources}
    lock = threading.Lock()

    def flood(key):
        namespace, address, target, count = sources[key]
        began = time.monotonic()
        for position in range(count):
            # Paced: every source spreads its connections over FLOOD_SECONDS (5,000 in 5 s together).
            rest = began + FLOOD_SECONDS * position / count - time.monotonic()
            if rest > 0:
                time.sleep(rest)
            try:
                with lock:  # setns is per thread, but the namespace fd cache is shared
                    sock = hosts.socket_in(namespace)
                sock.settimeout(5)
                if address:
                    sock.bind((address, 0))
                sock.connect(tuple(target))
                held[key].append(sock)
            except OSError:
                failed[key] += 1
    threads = [threading.Thread(target=flood, args=(key,)) for key in sources]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(json.dumps({key: {"opened": len(held[key]), "failed": failed[key]} for key in sources}), flush=True)
    for line in sys.stdin:
        if line.strip() == "census":
            print(json.dumps({key: _census(held[key]) for key in sources}), flush=True)
        elif line.strip() == "close":
            break
    for socks in held.values():
        for sock in socks:
            sock.close()


def _census(socks):
    """How many of SOCKS the server still holds (no end-of-file, no reset) and how many it closed."""
    poller = select.poll()
    by_fd = {}
    for sock in socks:
        poller.register(sock.fileno(), select.POLLIN | select.POLLHUP | select.POLLERR)
        by_fd[sock.fileno()] = sock
    closed = 0
    for fd, _ in poller.poll(0):
        try:
            if by_fd[fd].recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b"":
                closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
    return {"opened": len(socks), "held": len(socks) - closed, "closed": closed}


if __name__ == "__main__" and len(sys.argv) == 4 and sys.argv[1] == "attack":
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    _attack(sys.argv[2], json.loads(sys.argv[3]))
