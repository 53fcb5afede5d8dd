"""What every class needs: the binaries, the work directory, the hosts, the three servers, the keys,
the captured batch template and the tally; and the one way a case is judged."""

import copy
import hashlib
import uuid

from lab import Dropped, http, run


class Context:
    def __init__(self, binary, collector_binary, work, hosts, tally, env):
        self.binary, self.collector_binary, self.work = binary, collector_binary, work
        self.hosts, self.tally, self.env = hosts, tally, env
        self.servers = {}            # daemon, companion, collector -> Server
        self.device_keys = {}        # daemon, companion -> a paired key usable from beyond loopback
        self.data = {}               # daemon, companion, collector, import, export -> data directory
        self.reader_key = None       # a reader key of `collector`
        self.reader_keys = {}        # collector, collector-b -> a reader key
        self.batch_template = None   # a batch `sync now` sent (captured), as parsed JSON
        self.batch_device = None     # (device id, device key, name) of the device the batch cases push as
        self.batch_devices = {}      # collector-b, collector-pg -> such a device
        self.damage_devices = {}     # collector-b, collector-pg -> the device class 6 pushes damage as
        self.databases = {}          # collector-pg -> its PostgreSQL URL (reachable inside srv)
        self.postgres_dir = None     # the throwaway PostgreSQL cluster's directory

    # -- requests ------------------------------------------------------------------------------
    def target(self, server, origin):
        """(ip, port) of SERVER as ORIGIN reaches it: loopback from srv, the veth address otherwise."""
        port = self.servers[server].port
        if origin == "srv":
            return ("127.0.0.1", port)
        return (self.hosts.address(int(origin[1:])), port)

    def request(self, server, origin, method, path, key=None, **options):
        headers = dict(options.pop("headers", {}) or {})
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return http(self.hosts, origin, self.target(server, origin), method, path, headers=headers, **options)

    # -- judging ---------------------------------------------------------------------------------
    def judge(self, klass, server, description, expected, send, accept, after=None):
        """Runs SEND (which returns an Answer or raises Dropped), judges the answer with ACCEPT
        (answer -> bool), then requires SERVER alive and answering. One case."""
        instance = self.servers[server]
        pid = instance.pid
        try:
            answer = send()
            got = repr(answer)
            ok = accept(answer)
        except Dropped as error:
            answer, got, ok = None, f"dropped: {error}", False
        if after is not None and ok:
            try:
                extra = after(answer)
            except Dropped as error:
                extra = f"the check after it was dropped ({error})"
            if extra:
                ok, got = False, f"{got}; {extra}"
        alive, detail = instance.alive()
        if not alive:
            ok, got = False, f"{got}; {detail}"
            instance.ensure(description)
        elif instance.pid != pid:
            ok, got = False, f"{got}; {server} was restarted meanwhile"
        self.tally.record(klass, f"{server}: {description}", expected, got, ok)
        return answer

    def record(self, klass, description, expected, got, ok):
        self.tally.record(klass, description, expected, got, ok)

    # -- the command line ------------------------------------------------------------------------
    def cli(self, *arguments, stdin=None, timeout=60, namespace=None):
        prefix = self.hosts.exec_prefix(namespace) if namespace else []
        return run(prefix + [self.binary, *arguments], self.env, stdin=stdin, timeout=timeout)

    def collector_cli(self, *arguments, timeout=60, server="collector"):
        if server in self.databases:  # PostgreSQL listens on loopback inside srv
            return run(self.hosts.exec_prefix("srv") + [self.collector_binary, *arguments, "--database", self.databases[server]],
                       self.env, timeout=timeout)
        return run([self.collector_binary, *arguments, "--data-dir", self.data[server]], self.env, timeout=timeout)

    # -- sync ------------------------------------------------------------------------------------
    def enrol_code(self, name, participant=None, server="collector"):
        extra = ["--participant", participant] if participant is not None else []
        done = self.collector_cli("enrol", name, *extra, server=server)
        for line in done.out.splitlines():
            text = line.strip()
            if len(text) == 14 and text.count("-") == 2:
                return text, done
        return None, done

    def enrol(self, name, board="desktop", participant=None, origin="c1", device_id=None, server="collector"):
        """Enrols a device over HTTP as a device would (POST /api/v1/sync/enrol); (device id, key) or
        (None, why)."""
        code, done = self.enrol_code(name, participant, server=server)
        if code is None:
            return None, f"collector enrol refused the name: {done.describe()}"
        device_id = device_id or str(uuid.uuid4())
        try:
            answer = self.request(server, origin, "POST", "/api/v1/sync/enrol",
                                  body={"protocol": 1, "code": code, "device_id": device_id, "board": board,
                                        "software_version": "adversarial"})
        except Dropped as error:
            return None, f"enrolment dropped: {error}"
        grant = answer.json() if answer.status in (200, 201) else None
        if not grant or "key" not in grant:
            return None, f"enrolment answered {answer!r}"
        return (device_id, grant["key"]), None

    def session(self, mode):
        """A fresh copy of a captured session of MODE with a new id."""
        for session in self.batch_template["sessions"]:
            if session["mode"] == mode:
                fresh = copy.deepcopy(session)
                fresh["id"] = str(uuid.uuid4()).upper()
                return fresh
        raise KeyError(mode)

    def batch(self, sessions, preferences=None, device=None):
        device_id = (device or self.batch_device)[0]
        return {"protocol": 1, "device_id": device_id, "cursor_after": 0, "cursor_through": 1,
                "sessions": sessions, "preferences": preferences or []}

    def push(self, raw_body, device=None, origin="c1", server=None):
        """POSTs a batch: by default as the batch device to the bounds collector (collector-b)."""
        key = (device or self.batch_device)[1]
        server = server or ("collector-b" if device is None else "collector")
        return self.request(server, origin, "POST", "/api/v1/sync/batches", key=key,
                            raw_body=raw_body if isinstance(raw_body, bytes) else raw_body.encode())


def sha256(path):
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except FileNotFoundError:
        return "absent"


def status_in(*ranges):
    def accept(answer):
        return any(low <= answer.status <= high for low, high in ranges)
    return accept

