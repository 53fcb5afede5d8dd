"""The adversarial tier's laboratory: network namespaces, a raw HTTP client that can send any Host
header from any namespace, the servers under test (device daemon, companion, collector) and the
tally of cases per class. Standard library only.

Topology (everything made here, deleted on exit): one namespace `srv` where the three servers listen
on 0.0.0.0 (so loopback inside `srv` is the local user), and client namespaces c1..cN, each joined to
`srv` by its own veth pair on 10.217.I.0/30. Nothing is routed to or from the machine's own network.
A socket is created inside a namespace by switching the calling thread into it with setns(2) just for
the socket() call (a socket keeps the namespace it was made in), so one Python process can speak from
loopback and from several remote addresses at once, from many threads.
"""

import ctypes
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TRAP_SIGNALS = {signal.SIGILL, signal.SIGTRAP, signal.SIGSEGV, signal.SIGBUS, signal.SIGABRT, signal.SIGFPE}

_libc = ctypes.CDLL(None, use_errno=True)
_CLONE_NEWNET = 0x40000000


# ---------------------------------------------------------------------------------------------------
# Tally

class Tally:
    """Cases per class, in the issue's numbering; failures printed at once, one line each."""

    def __init__(self, verbose=False):
        self.lock = threading.Lock()
        self.counts = {}
        self.failures = []
        self.verbose = verbose

    def record(self, klass, request, expected, got, ok):
        with self.lock:
            passed, failed = self.counts.get(klass, (0, 0))
            if ok:
                self.counts[klass] = (passed + 1, failed)
                if self.verbose:
                    print(f"adversarial: ok   [{klass}] {request} -> {got}", flush=True)
            else:
                self.counts[klass] = (passed, failed + 1)
                line = f"adversarial: FAIL [{klass}] {request} | expected {expected} | got {got}"
                self.failures.append(line)
                print(line[:900], flush=True)

    def totals(self):
        with self.lock:
            return sum(p for p, _ in self.counts.values()), sum(f for _, f in self.counts.values())


# ---------------------------------------------------------------------------------------------------
# Network namespaces

class Hosts:
    """srv plus clients c1..cN. `address(i)`: srv's address as client i sees it."""

    def __init__(self, clients):
        self.prefix = f"adv{os.getpid()}"
        self.clients = clients
        self.made = []
        self._fds = {}

    def name(self, host):
        return f"{self.prefix}-{host}"

    @staticmethod
    def address(i):
        return f"10.217.{i}.1"

    @staticmethod
    def client_address(i):
        return f"10.217.{i}.2"

    def create(self):
        srv = self.name("srv")
        self._ip("netns", "add", srv)
        self.made.append(srv)
        self._ip("-n", srv, "link", "set", "lo", "up")
        for i in range(1, self.clients + 1):
            ns = self.name(f"c{i}")
            self._ip("netns", "add", ns)
            self.made.append(ns)
            self._ip("-n", ns, "link", "set", "lo", "up")
            # Made straight into the namespaces: the machine's own interfaces never see these names.
            self._ip("link", "add", f"up{i}", "netns", ns, "type", "veth", "peer", "name", f"dn{i}", "netns", srv)
            self._ip("-n", ns, "addr", "add", f"{self.client_address(i)}/30", "dev", f"up{i}")
            self._ip("-n", srv, "addr", "add", f"{self.address(i)}/30", "dev", f"dn{i}")
            self._ip("-n", ns, "link", "set", f"up{i}", "up")
            self._ip("-n", srv, "link", "set", f"dn{i}", "up")

    def destroy(self):
        for fd in self._fds.values():
            try:
                os.close(fd)
            except OSError:
                pass
        self._fds = {}
        for ns in reversed(self.made):
            subprocess.run(["ip", "netns", "del", ns], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.made = []

    @staticmethod
    def _ip(*args):
        subprocess.run(["ip", *args], check=True, stdout=subprocess.DEVNULL)

    def fd(self, host):
        if host not in self._fds:
            self._fds[host] = os.open(f"/var/run/netns/{self.name(host)}", os.O_RDONLY)
        return self._fds[host]

    def socket_in(self, host):
        """A TCP socket created inside HOST's namespace (srv, c1, …)."""
        own = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
        try:
            if _libc.setns(self.fd(host), _CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), f"setns into {host}")
            try:
                return socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            finally:
                if _libc.setns(own, _CLONE_NEWNET) != 0:
                    raise OSError(ctypes.get_errno(), "setns back")
        finally:
            os.close(own)

    def exec_prefix(self, host):
        return ["ip", "netns", "exec", self.name(host)]


# ---------------------------------------------------------------------------------------------------
# A raw HTTP/1.1 client

class Dropped(Exception):
    """The server closed or reset the connection without a complete answer (or timed out)."""


class Answer:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def json(self):
        try:
            return json.loads(self.body)
        except ValueError:
            return None

    def text(self):
        return self.body.decode("utf-8", "replace")

    def __repr__(self):
        return f"{self.status} {self.text()[:160]!r}"


def http(hosts, origin, target, method, path, body=None, headers=None, host_header="default", timeout=15.0, raw_body=None):
    """One request on its own connection. ORIGIN is the namespace to speak from; TARGET (ip, port).
    BODY is JSON-encoded unless RAW_BODY (bytes) is given. HOST_HEADER None sends no Host header."""
    ip, port = target
    lines = [f"{method} {path} HTTP/1.1"]
    if host_header == "default":
        host_header = f"{ip}:{port}"
    if host_header is not None:
        lines.append(f"Host: {host_header}")
    data = b""
    if raw_body is not None:
        data = raw_body
    elif body is not None:
        data = json.dumps(body).encode()
    extra = dict(headers or {})
    if data or method in ("POST", "PATCH", "PUT"):
        extra.setdefault("Content-Type", "application/json")
        extra["Content-Length"] = str(len(data))
    extra.setdefault("Connection", "close")
    for name, value in extra.items():
        lines.append(f"{name}: {value}")
    request = ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8", "surrogateescape") + data
    sock = hosts.socket_in(origin)
    sock.settimeout(timeout)
    try:
        sock.connect((ip, port))
        sock.sendall(request)
        received = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                raise Dropped(f"no complete answer within {timeout:.0f} s")
            except ConnectionResetError:
                raise Dropped("connection reset")
            if not chunk:
                break
            received += chunk
            parsed = _parse(received, complete=False)
            if parsed is not None:
                return parsed
        parsed = _parse(received, complete=True)
        if parsed is None:
            raise Dropped("closed without an answer" if not received else f"closed mid-answer ({len(received)} bytes)")
        return parsed
    except (ConnectionRefusedError, BrokenPipeError, ConnectionResetError) as error:
        raise Dropped(type(error).__name__)
    except socket.timeout:
        raise Dropped(f"connect/send timed out after {timeout:.0f} s")
    finally:
        sock.close()


def _parse(data, complete):
    head_end = data.find(b"\r\n\r\n")
    if head_end < 0:
        return None
    head = data[:head_end].decode("latin-1").split("\r\n")
    parts = head[0].split(" ", 2)
    if len(parts) < 2 or not parts[1].isdigit():
        return None if not complete else Answer(-1, {}, data)
    status = int(parts[1])
    headers = {}
    for line in head[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    body = data[head_end + 4:]
    if "content-length" in headers:
        length = int(headers["content-length"])
        if len(body) >= length:
            return Answer(status, headers, body[:length])
        return None if not complete else None
    if headers.get("transfer-encoding", "").lower() == "chunked":
        decoded, ok = _dechunk(body)
        if ok:
            return Answer(status, headers, decoded)
        return None
    return Answer(status, headers, body) if complete else None


def _dechunk(body):
    out, position = b"", 0
    while True:
        end = body.find(b"\r\n", position)
        if end < 0:
            return out, False
        size = int(body[position:end].split(b";")[0] or b"0", 16)
        if size == 0:
            return out, True
        start = end + 2
        if len(body) < start + size + 2:
            return out, False
        out += body[start:start + size]
        position = start + size + 2


# ---------------------------------------------------------------------------------------------------
# Processes

def base_env(work):
    env = dict(os.environ)
    env["XDG_RUNTIME_DIR"] = os.path.join(work, "runtime")
    env["XDG_DATA_HOME"] = os.path.join(work, "xdg-data")
    env["CHRONOCEPTION_BOARDS_DIR"] = os.path.join(ROOT, "boards")
    env["LC_ALL"] = "C.UTF-8"
    # A trap still ends the process by its signal; symbolicating it would take minutes.
    env["SWIFT_BACKTRACE"] = "enable=no"
    env.pop("NO_COLOR", None)
    os.makedirs(env["XDG_RUNTIME_DIR"], exist_ok=True)
    return env


class Ran:
    def __init__(self, argv, rc, out, err):
        self.argv, self.rc, self.out, self.err = argv, rc, out, err

    @property
    def trapped(self):
        return (self.rc < 0 and -self.rc in TRAP_SIGNALS) or "Fatal error" in self.err

    def describe(self):
        first = (self.err.strip().splitlines() or [""])[0][:200]
        return f"exit {self.rc}" + (f" ({first})" if first else "")


def run(argv, env, stdin=None, timeout=60):
    try:
        done = subprocess.run([str(a) for a in argv], input=stdin, capture_output=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Ran(argv, -9, "", f"timed out after {timeout} s")
    return Ran(argv, done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"))


class Server:
    """One server process in the srv namespace, restarted when a case ends it (the case fails)."""

    def __init__(self, name, hosts, argv, port, env, log, health_path, stdin_fifo=None):
        self.name, self.hosts, self.argv, self.port, self.env = name, hosts, argv, port, env
        self.log_path, self.health_path, self.stdin_fifo = log, health_path, stdin_fifo
        self.process = None
        self.restarts = 0
        self.deaths = []
        self.lock = threading.Lock()

    def start(self):
        log = open(self.log_path, "ab")
        stdin = subprocess.DEVNULL
        if self.stdin_fifo:
            if not os.path.exists(self.stdin_fifo):
                os.mkfifo(self.stdin_fifo)
            # Opened read-write: the desktop board reads its button from standard input, and a FIFO
            # with a writer never ends.
            stdin = os.open(self.stdin_fifo, os.O_RDWR)
        # `ip netns exec` execs the program, so the Popen pid is the server itself.
        self.process = subprocess.Popen(self.hosts.exec_prefix("srv") + [str(a) for a in self.argv],
                                        stdin=stdin, stdout=log, stderr=subprocess.STDOUT, env=self.env, preexec_fn=_no_core)
        if self.stdin_fifo:
            os.close(stdin)
        log.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} ended at start (exit {self.process.returncode}); its log:\n" + self.tail())
            try:
                answer = http(self.hosts, "srv", ("127.0.0.1", self.port), "GET", self.health_path, timeout=2)
                if answer.status == 200:
                    return
            except Dropped:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"{self.name} did not answer within 60 s; its log:\n" + self.tail())

    def tail(self, lines=15):
        try:
            with open(self.log_path, "rb") as f:
                return b"\n".join(f.read().splitlines()[-lines:]).decode("utf-8", "replace")
        except OSError:
            return ""

    @property
    def pid(self):
        return self.process.pid if self.process else None

    def alive(self):
        """(ok, detail): the process runs and answers a simple GET from loopback right now."""
        if self.process.poll() is not None:
            return False, f"{self.name} died ({_signal_name(self.process.returncode)})"
        try:
            answer = http(self.hosts, "srv", ("127.0.0.1", self.port), "GET", self.health_path, timeout=10)
        except Dropped as error:
            return False, f"{self.name} does not answer GET {self.health_path} ({error})"
        if answer.status != 200:
            return False, f"{self.name} answers GET {self.health_path} with {answer.status}"
        return True, ""

    def ensure(self, reason):
        """After a failed liveness check: waits for a dying server to end (or ends one that no longer
        answers) and starts it again, so later cases test a running server."""
        with self.lock:
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                if self.alive()[0]:
                    return
                self.process.kill()
                self.process.wait()
            self.deaths.append((reason, self.process.returncode))
            self.restarts += 1
            self.start()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _no_core():
    # A trap in a 100 MB debug binary would otherwise spend seconds writing a core file.
    import resource
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    # The open-file soft limit a service gets without LimitNOFILE (1,024): each server must raise it.
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))


def _signal_name(code):
    if code is None:
        return "running"
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit {code}"


def log(*parts):
    print("adversarial: …", *parts, flush=True)


def fatal(message):
    print(f"adversarial: {message}", file=sys.stderr, flush=True)
    sys.exit(1)
