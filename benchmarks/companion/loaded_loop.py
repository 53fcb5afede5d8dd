#!/usr/bin/env python3
"""The daemon part of benchmarks/companion (issue 11): `chronoception run` in test mode running Passive
sessions on the desktop board, measured in one run:

- the loop's boundary lateness (fired - due, both CLOCK_MONOTONIC, as the store keeps them per boundary
  in `passive_boundary`) without load and with load, sessions alternating so both see the same machine;
- the load: wrk at a fixed rate (paced.lua: an absolute CLOCK_MONOTONIC schedule per wrk thread) on the
  companion mix, plus SSE clients on /api/v1/events, all on loopback;
- event-to-client latency: for each boundary k, the time from its fired instant (device side,
  CLOCK_MONOTONIC, from the store) to the arrival at each SSE client of the `state` event saying
  repetitions_done = k (time.monotonic_ns(), the same clock);
- the API's extra memory: VmRSS of `run --no-api` against `run`, idle and during a session (max).

Prints a human-readable report; exit 0 (the goals are reported, not enforced).
"""
import argparse
import json
import math
import os
import selectors
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time


def percentile(values, fraction):
    """Nearest-rank percentile: the smallest sample with at least `fraction` of the samples at or below it."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Daemon:
    """`chronoception run` on the desktop board; the button is its standard input (a space is a tap)."""

    def __init__(self, args, data, work, api):
        self.data = data
        self.port = free_port() if api else None
        argv = [args.binary, "run", "--board", "desktop", "--mode", "passive",
                "--test-interval-ms", str(args.interval_ms), "--repetitions", str(args.repetitions),
                "--no-state-file", "--data-dir", data]
        argv += ["--listen", f"127.0.0.1:{self.port}", "--socket", os.path.join(work, "api.sock")] if api else ["--no-api"]
        env = dict(os.environ, CHRONOCEPTION_TEST_MODE="1", CHRONOCEPTION_BOARDS_DIR=os.path.abspath("boards"))
        self.log = open(os.path.join(work, "daemon-api.log" if api else "daemon-no-api.log"), "wb")
        self.started_unix_ns = time.time_ns()
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.pid = self.process.pid
        if api:
            self.wait_for_api()
        else:
            time.sleep(1)
        if self.process.poll() is not None:
            sys.exit("the daemon exited early:\n" + open(self.log.name).read())

    def wait_for_api(self):
        limit = time.monotonic() + 30
        while time.monotonic() < limit:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(f"GET /api/v1/device HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nConnection: close\r\n\r\n".encode())
                    if s.recv(16).startswith(b"HTTP/1.1 200"):
                        return
            except OSError:
                pass
            time.sleep(0.1)
        sys.exit("the daemon's API did not answer:\n" + open(self.log.name).read())

    def finished_sessions(self):
        with sqlite3.connect(f"file:{self.data}/chronoception.sqlite?mode=ro", uri=True, timeout=10) as db:
            return db.execute("SELECT COUNT(*) FROM session WHERE mode = 'passive' AND status != 'running' AND started_unix_ns >= ?",
                              (self.started_unix_ns,)).fetchone()[0]

    def running(self):
        with sqlite3.connect(f"file:{self.data}/chronoception.sqlite?mode=ro", uri=True, timeout=10) as db:
            return db.execute("SELECT COUNT(*) FROM session WHERE status = 'running' AND started_unix_ns >= ?",
                              (self.started_unix_ns,)).fetchone()[0]

    def session(self, sample_rss=False):
        """Taps, waits for the Passive session to end; returns the highest VmRSS seen (KiB)."""
        before = self.finished_sessions()
        peak = 0
        self.tap()
        tapped = time.monotonic()
        limit = tapped + 30 + self.expected_seconds
        while self.finished_sessions() == before:
            if time.monotonic() > limit:
                sys.exit("a session did not finish in time:\n" + open(self.log.name).read())
            if time.monotonic() - tapped > 3 and self.running() == 0 and self.finished_sessions() == before:
                self.tap()  # the tap was not taken (the button not ready yet): tap again
                tapped = time.monotonic()
            if sample_rss:
                peak = max(peak, rss_kib(self.pid))
            time.sleep(0.1)
        return peak

    def tap(self):
        self.process.stdin.write(b" ")
        self.process.stdin.flush()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)
        self.log.close()

    def sessions_since_start(self):
        """(id, [(index, due, fired)]) of this daemon's Passive sessions, in order."""
        with sqlite3.connect(f"file:{self.data}/chronoception.sqlite?mode=ro", uri=True, timeout=10) as db:
            ids = [row[0] for row in db.execute(
                "SELECT id FROM session WHERE mode = 'passive' AND started_unix_ns >= ? ORDER BY started_mono_ns",
                (self.started_unix_ns,))]
            return [(sid, db.execute("SELECT boundary_index, due_mono_ns, fired_mono_ns FROM passive_boundary "
                                     "WHERE session_id = ? ORDER BY boundary_index", (sid,)).fetchall()) for sid in ids]


class EventClients:
    """`count` SSE clients on /api/v1/events, read by one thread with a selector; every `state` event is
    stamped with time.monotonic_ns() as its last byte arrives."""

    def __init__(self, port, count):
        self.received = []  # (client, monotonic ns, event json)
        self.sockets = []
        self.selector = selectors.DefaultSelector()
        for client in range(count):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(f"GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
            s.setblocking(False)
            self.selector.register(s, selectors.EVENT_READ, [client, b""])
            self.sockets.append(s)
        self.stopping = False
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        while not self.stopping:
            for key, _ in self.selector.select(timeout=0.2):
                try:
                    chunk = key.fileobj.recv(65536)
                except BlockingIOError:
                    continue
                stamp = time.monotonic_ns()
                if not chunk:
                    self.selector.unregister(key.fileobj)
                    continue
                state = key.data
                state[1] += chunk
                # Chunked transfer framing aside, each SSE message is "event: …\ndata: {…}\n\n".
                while b"\n\n" in state[1]:
                    message, state[1] = state[1].split(b"\n\n", 1)
                    lines = message.decode("utf-8", "replace").splitlines()
                    event = next((l[7:] for l in lines if l.startswith("event: ")), None)
                    data = next((l[6:] for l in lines if l.startswith("data: ")), None)
                    if event == "state" and data:
                        self.received.append((state[0], stamp, json.loads(data)))

    def close(self):
        self.stopping = True
        self.thread.join()
        for s in self.sockets:
            s.close()


def wrk_load(args, port, seconds):
    env = dict(os.environ, RATE=str(args.rate), THREADS=str(args.wrk_threads))
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "paced.lua")
    return subprocess.Popen(["wrk", "--latency", "-t", str(args.wrk_threads), "-c", str(args.wrk_connections),
                             "-d", f"{seconds}s", "-s", script, f"http://127.0.0.1:{port}"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)


def wrk_summary(output):
    def field(prefix, position):
        for line in output.splitlines():
            parts = line.split()
            if parts and parts[0] == prefix:
                return parts[position]
        return "?"
    non2xx = next((l.split(":")[1].strip() for l in output.splitlines() if "Non-2xx" in l), "0")
    errors = next((l.strip() for l in output.splitlines() if "Socket errors" in l), "no socket errors")
    return {"rate": field("Requests/sec:", 1), "p50": field("50%", 1), "p99": field("99%", 1),
            "requests": next((l.split()[0] for l in output.splitlines() if "requests in" in l), "?"),
            "non2xx": non2xx, "errors": errors}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--store", required=True, help="a data directory to copy (the 100,000-session store)")
    # The interval must outlast the boundary's pattern: in the 100,000-session store the test interval is
    # the ninth and gets H(I) = `S L S` (760 ms); a shorter interval would measure the motor still busy.
    parser.add_argument("--interval-ms", type=int, default=1000)
    parser.add_argument("--repetitions", type=int, default=40)
    parser.add_argument("--sessions", type=int, default=4, help="sessions per condition (unloaded, loaded)")
    parser.add_argument("--rate", type=int, default=200)
    parser.add_argument("--wrk-threads", type=int, default=2)
    parser.add_argument("--wrk-connections", type=int, default=4)
    parser.add_argument("--sse-clients", type=int, default=20)
    parser.add_argument("--verbose", action="store_true", help="name the boundaries each SSE client missed")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="chronoception-companion-")
    try:
        run(args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(args, work):
    data = os.path.join(work, "data")
    shutil.copytree(args.store, data)
    session_seconds = args.interval_ms * args.repetitions / 1000
    print(f"daemon: Passive at {args.interval_ms} ms x {args.repetitions} boundaries per session, "
          f"{args.sessions} unloaded and {args.sessions} loaded sessions alternating, after one warm-up; realtime as granted to this user")

    # Memory without the API: idle, then the highest seen during one session.
    bare = Daemon(args, data, work, api=False)
    bare.expected_seconds = session_seconds
    time.sleep(2)
    bare_idle = rss_kib(bare.pid)
    bare_session = bare.session(sample_rss=True)
    bare_lateness = [f - d for _, rows in bare.sessions_since_start() for _, d, f in rows if f is not None]
    bare.stop()

    daemon = Daemon(args, data, work, api=True)
    daemon.expected_seconds = session_seconds
    time.sleep(2)
    api_idle = rss_kib(daemon.pid)
    daemon.session()  # warm-up, not counted
    conditions = []
    loaded_runs = []
    api_loaded_peak = 0
    unloaded_runs = []
    for _ in range(args.sessions):
        conditions.append("unloaded")
        # One SSE client (one event a second) gives the event latency of an otherwise idle API.
        probe = EventClients(daemon.port, 1)
        daemon.session()
        time.sleep(1)
        probe.close()
        unloaded_runs.append(probe.received)
        conditions.append("loaded")
        clients = EventClients(daemon.port, args.sse_clients)
        # The load starts a second before the tap and outlasts the session (its start cue, the save).
        load = wrk_load(args, daemon.port, int(session_seconds + 6))
        time.sleep(1)
        api_loaded_peak = max(api_loaded_peak, daemon.session(sample_rss=True))
        output, _ = load.communicate()
        time.sleep(1)  # the last boundary's event may still be on its way when the save is seen
        clients.close()
        loaded_runs.append((wrk_summary(output), clients.received))
    api_after = rss_kib(daemon.pid)
    sessions = daemon.sessions_since_start()
    daemon.stop()

    if len(sessions) != 1 + len(conditions):
        sys.exit(f"expected {1 + len(conditions)} sessions, found {len(sessions)}")
    lateness = {"unloaded": [], "loaded": []}
    event_latency = {"unloaded": [], "loaded": []}
    missing = {"unloaded": 0, "loaded": 0}
    runs = {"unloaded": iter(unloaded_runs), "loaded": iter(received for _, received in loaded_runs)}
    for condition, (sid, rows) in zip(conditions, sessions[1:]):
        lateness[condition] += [f - d for _, d, f in rows if f is not None]
        fired = {index: f for index, _, f in rows if f is not None}
        received = next(runs[condition])
        first = {}
        for client, stamp, state in received:
            k = state.get("repetitions_done")
            if state.get("session_id") == sid and k in fired and (client, k) not in first:
                first[(client, k)] = stamp
        clients = args.sse_clients if condition == "loaded" else 1
        missing[condition] += len(fired) * clients - len(first)
        if args.verbose:
            for client in range(clients):
                lost = sorted(k for k in fired if (client, k) not in first)
                if lost:
                    print(f"  {condition} session {sid}: client {client} did not get boundaries {lost}")
        event_latency[condition] += [stamp - fired[k] for (client, k), stamp in first.items()]

    ms = lambda ns: ns / 1e6
    unloaded_p99 = percentile(lateness["unloaded"], 0.99)
    loaded_p99 = percentile(lateness["loaded"], 0.99)
    print("boundary lateness (fired - due, from passive_boundary):")
    for label, values in (("run --no-api", bare_lateness), ("run, no load", lateness["unloaded"]), ("run, under load", lateness["loaded"])):
        print(f"  {label:<16} n={len(values):<4} p50 {ms(percentile(values, 0.5)):.3f} ms  p99 {ms(percentile(values, 0.99)):.3f} ms  "
              f"max {ms(max(values)):.3f} ms")
    change = (loaded_p99 - unloaded_p99) / unloaded_p99 * 100
    print(f"  loaded p99 vs unloaded p99: {change:+.1f} % (goal: at most +20 %): {'PASS' if change <= 20 else 'NOT MET'}")
    print(f"load ({args.rate} req/s target, wrk -t {args.wrk_threads} -c {args.wrk_connections} paced.lua, + {args.sse_clients} SSE clients), per loaded session:")
    for summary, _ in loaded_runs:
        print(f"  {summary['requests']} requests, {summary['rate']} req/s achieved, p50 {summary['p50']} p99 {summary['p99']}, "
              f"non-2xx {summary['non2xx']}, {summary['errors']}")
    print("event to client (boundary fired -> its SSE `state` event read by the client, both CLOCK_MONOTONIC; goal p99 < 100 ms):")
    for condition, label in (("unloaded", "1 client, no other load"), ("loaded", f"{args.sse_clients} clients + wrk")):
        values = event_latency[condition]
        print(f"  {label:<24} n={len(values):<5} p50 {ms(percentile(values, 0.5)):.2f} ms  p99 {ms(percentile(values, 0.99)):.2f} ms  "
              f"max {ms(max(values)):.2f} ms; events not received: {missing[condition]}")
    print("memory (VmRSS):")
    print(f"  run --no-api: idle {bare_idle / 1024:.1f} MiB, during a session (max) {bare_session / 1024:.1f} MiB")
    print(f"  run (API):    idle {api_idle / 1024:.1f} MiB, during a loaded session (max) {api_loaded_peak / 1024:.1f} MiB, after {api_after / 1024:.1f} MiB")
    extra_idle, extra_load = (api_idle - bare_idle) * 1024, (api_loaded_peak - bare_session) * 1024
    print(f"  the API's extra: idle {extra_idle / 1e6:+.1f} MB, under load {extra_load / 1e6:+.1f} MB (goal < 15 MB)")


if __name__ == "__main__":
    main()
