"""Classes 12 and 13 (issue 34 item 5, issue 33 item 6): secrets at rest and the paths the programs write.

12-files-at-rest  after `run`, `passive` and `challenge` on a fresh directory (under umask 000 too), on a
                  pre-made 0755 directory holding 0644 files, and on the directory `first-boot apply` makes,
                  the data directory is 0700 and the database, its -wal and -shm, the lock and the health log
                  0600; a directory this user cannot make private (not its owner) is refused naming the fix
13-write-paths    a symlink, a FIFO or a device node at every path the programs write (the state file, its
                  temporary's old name, `export -o`, the health log, the store's files and its lock): refused
                  with a message or written in place as documented, never followed into a victim, never
                  replaced, never blocking
"""

import os
import pwd
import shutil
import signal
import stat
import subprocess
import tempfile
import time

from lab import run

STORE_FILES = ["chronoception.sqlite", "chronoception.sqlite-wal", "chronoception.sqlite-shm", "chronoception.lock",
               "health-log/mindful-sessions.jsonl"]


def modes(data):
    """The data directory's mode and each store file's, for the files that exist."""
    found = {".": stat.S_IMODE(os.stat(data).st_mode)}
    for name in STORE_FILES + ["health-log"]:
        path = os.path.join(data, name)
        if os.path.lexists(path):
            found[name] = stat.S_IMODE(os.lstat(path).st_mode)
    return found


def private(found):
    """Problems with FOUND: the directory and folders 0700, files 0600."""
    bad = []
    for name, mode in sorted(found.items()):
        want = 0o700 if name in (".", "health-log") else 0o600
        if mode != want:
            bad.append(f"{name} {oct(mode)} (want {oct(want)})")
    return bad


def session(ctx, command, data, umask=None, extra=()):
    """One real session of COMMAND on DATA (desktop board, test interval, a tap on standard input), or
    `run` started, tapped once, and stopped with SIGTERM."""
    env = dict(ctx.env, CHRONOCEPTION_TEST_MODE="1")
    state = os.path.join(ctx.work, "runtime", f"rest-{os.path.basename(data)}-{command}.json")
    common = ["--board", "desktop", "--no-realtime", "--test-interval-ms", "20", "--data-dir", data, "--state-file", state, *extra]
    if command == "run":
        argv = [ctx.binary, "run", "--no-api", "--mode", "passive", "--repetitions", "1", *common]
    elif command == "challenge":
        argv = [ctx.binary, "challenge", "--attempts", "1", *common]
    else:
        argv = [ctx.binary, command, "--repetitions", "1", *common]
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                               umask=-1 if umask is None else umask)
    time.sleep(0.6)
    try:
        process.stdin.write(b" ")
        process.stdin.flush()
        if command == "challenge":
            time.sleep(1.0)  # past --key-hold-ms (700): a second press, not the key still held
            process.stdin.write(b" ")
            process.stdin.flush()
    except OSError:
        pass
    time.sleep(0.8)
    if command == "run":
        process.send_signal(signal.SIGTERM)
    try:
        _, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
    return process.returncode, err.decode("utf-8", "replace")


def class12_rest(ctx):
    klass = "12-files-at-rest"
    base = os.path.join(ctx.work, "rest")
    os.makedirs(base, exist_ok=True)

    for command in ("run", "passive", "challenge"):
        for umask in (None, 0):
            data = os.path.join(base, f"fresh-{command}-{'umask0' if umask == 0 else 'umask'}")
            rc, err = session(ctx, command, data, umask=umask)
            bad = private(modes(data)) if os.path.isdir(data) else ["no data directory"]
            ctx.record(klass, f"{command} on a new directory{' under umask 000' if umask == 0 else ''}",
                       "directory 0700, store files 0600", f"exit {rc}; {', '.join(bad) or 'all private'}", rc == 0 and not bad)

    # A directory made 0755 beforehand, holding files an older release left 0644.
    for command in ("run", "passive", "challenge"):
        data = os.path.join(base, f"open-{command}")
        seeded = run([ctx.binary, "simulate", "--sessions", "3", "--seed", "12", "--quiet", "--data-dir", data], ctx.env)
        for name in STORE_FILES:
            path = os.path.join(data, name)
            if not os.path.exists(path):
                open(path, "a").close()
            os.chmod(path, 0o644)
        os.chmod(os.path.join(data, "health-log"), 0o755)
        os.chmod(data, 0o755)
        rc, err = session(ctx, command, data)
        bad = private(modes(data))
        ctx.record(klass, f"{command} on a pre-made 0755 directory with 0644 files", "tightened: 0700 and 0600",
                   f"seed exit {seeded.rc}, exit {rc}; {', '.join(bad) or 'all private'}", seeded.rc == 0 and rc == 0 and not bad)

    # The directory `first-boot apply` makes on the card's root (0755), then the device's first start.
    card = os.path.join(base, "card")
    for path in ("boot", "root/etc/ssh", "root/etc/default", "root/usr/share/zoneinfo"):
        os.makedirs(os.path.join(card, path), exist_ok=True)
    with open(os.path.join(card, "root/etc/hosts"), "w") as f:
        f.write("127.0.0.1\tlocalhost\n127.0.1.1\tbuilder\n")
    with open(os.path.join(card, "root/etc/hostname"), "w") as f:
        f.write("chronoception\n")
    with open(os.path.join(card, "root/etc/default/chronoception"), "w") as f:
        f.write("CHRONOCEPTION_BOARD=\n")
    with open(os.path.join(card, "root/usr/share/zoneinfo/UTC"), "w") as f:
        f.write("TZif-utc")
    os.symlink("/usr/share/zoneinfo/UTC", os.path.join(card, "root/etc/localtime"))
    template = run([ctx.binary, "first-boot", "template"], ctx.env)
    with open(os.path.join(card, "boot/chronoception.txt"), "w") as f:
        f.write(template.out)
    applied = run([ctx.binary, "first-boot", "apply", "--boot", os.path.join(card, "boot"), "--root", os.path.join(card, "root")], ctx.env)
    data = os.path.join(card, "root/var/lib/chronoception")
    made = oct(stat.S_IMODE(os.stat(data).st_mode)) if os.path.isdir(data) else "none"
    if not os.path.isdir(data):
        os.makedirs(data, 0o755)
        os.chmod(data, 0o755)
    rc, err = session(ctx, "run", data)
    bad = private(modes(data))
    ctx.record(klass, f"run on the data directory first-boot apply made ({made})", "tightened: 0700 and 0600",
               f"apply exit {applied.rc}, run exit {rc}; {', '.join(bad) or 'all private'}", rc == 0 and not bad)

    # Not the owner: nobody writes into a 0777 directory of root's and cannot make it private.
    nobody = pwd.getpwnam("nobody")
    shared = os.path.join(base, "not-mine")
    os.makedirs(shared)
    os.chmod(base, 0o755)
    os.chmod(shared, 0o777)
    # A copy nobody can run: the build folder may be a link into root's own 0700 home (scripts/test's cache).
    runnable = os.path.join(ctx.work, "chronoception-for-nobody")
    if not os.path.exists(runnable):
        shutil.copy2(ctx.binary, runnable)
        os.chmod(runnable, 0o755)
    done = subprocess.run([runnable, "simulate", "--sessions", "1", "--quiet", "--data-dir", shared], capture_output=True,
                          env=dict(ctx.env, HOME="/nonexistent"), user=nobody.pw_uid, group=nobody.pw_gid, timeout=60)
    err = done.stderr.decode("utf-8", "replace")
    ok = done.returncode == 77 and "cannot make it private" in err and "chown" in err and not os.listdir(shared)
    ctx.record(klass, "a directory of another user's that this user cannot make private", "exit 77 naming chown/chmod, nothing written",
               f"exit {done.returncode}: {err.strip()[:200]!r}; files {sorted(os.listdir(shared))}", ok)


def class13_write_paths(ctx):
    klass = "13-write-paths"
    base = os.path.join(ctx.work, "paths")
    os.makedirs(base, exist_ok=True)
    victim = os.path.join(base, "victim")

    def fresh_victim():
        with open(victim, "w") as f:
            f.write("keep\n")

    def victim_kept():
        with open(victim) as f:
            return f.read() == "keep\n"

    def fifo(path):
        if os.path.lexists(path):
            os.unlink(path)
        os.mkfifo(path)
        return path

    def link(path, target):
        if os.path.lexists(path):
            os.unlink(path)
        os.symlink(target, path)
        return path

    data = os.path.join(base, "data")
    seeded = run([ctx.binary, "simulate", "--sessions", "4", "--seed", "13", "--quiet", "--data-dir", data], ctx.env)
    if seeded.rc != 0:
        ctx.record(klass, "seed a store", "exit 0", seeded.describe(), False)
        return

    # The state file: a link to a victim, a FIFO, a device node: exit 73 before any session, all kept.
    for kind in ("symlink", "fifo", "/dev/null", "/dev/zero"):
        fresh_victim()
        path = os.path.join(base, f"state-{kind.strip('/').replace('/', '-')}.json")
        if kind == "symlink":
            link(path, victim)
        elif kind == "fifo":
            fifo(path)
        else:
            path = kind
        for command in ("passive", "run"):
            argv = [command, "--board", "desktop", "--no-realtime", "--data-dir", data, "--state-file", path] + (["--no-api"] if command == "run" else [])
            done = ctx.cli(*argv, stdin=b"", timeout=20)
            kept = victim_kept() and (os.path.islink(path) if kind == "symlink" else stat.S_ISFIFO(os.lstat(path).st_mode) if kind == "fifo"
                                      else stat.S_ISCHR(os.stat(path).st_mode))
            ok = done.rc == 73 and "will not be written" in done.err and kept
            ctx.record(klass, f"{command} --state-file at a {kind}", "exit 73, the path and any victim kept",
                       f"{done.describe()}; kept {kept}", ok)

    # The state file's temporary: links planted at the old names (<state>.<pid>.tmp) for the next pids.
    fresh_victim()
    state = os.path.join(base, "state.json")
    with open("/proc/sys/kernel/ns_last_pid") as f:
        last = int(f.read())
    planted = [link(f"{state}.{pid}.tmp", victim) for pid in range(last + 1, last + 200)]
    env = dict(ctx.env, CHRONOCEPTION_TEST_MODE="1")
    done = run([ctx.binary, "passive", "--board", "desktop", "--no-realtime", "--test-interval-ms", "10", "--repetitions", "1",
                "--data-dir", data, "--state-file", state], env, stdin=b" ", timeout=30)
    written = os.path.isfile(state) and not os.path.islink(state)
    ctx.record(klass, "links planted at the state file's old temporary names", "never followed; the state file written beside them",
               f"{done.describe()}; victim kept {victim_kept()}; state file regular {written}", victim_kept() and written)
    for path in planted:
        os.unlink(path)

    # Exports: a dangling link refused; a device written in place; a FIFO nobody reads refused, never a hang.
    cases = [("a dangling symlink", link(os.path.join(base, "dangling.csv"), os.path.join(base, "nowhere")), {73}),
             ("/dev/null", "/dev/null", {0}),
             ("a FIFO nobody reads", fifo(os.path.join(base, "export.fifo")), {73})]
    for name, path, allowed in cases:
        started = time.monotonic()
        done = ctx.cli("export", "csv", "--all", "--data-dir", data, "-o", path, timeout=15)
        seconds = time.monotonic() - started
        ok = done.rc in allowed and seconds < 10 and not os.path.exists(os.path.join(base, "nowhere"))
        ctx.record(klass, f"export csv -o {name}", f"exit {sorted(allowed)}, at once", f"{done.describe()} in {seconds:.1f} s", ok)

    # The health log set to a device or a FIFO: the session is saved, the log said failing, nothing blocks.
    for name, path in (("/dev/full", "/dev/full"), ("a FIFO", fifo(os.path.join(base, "health.fifo")))):
        logdata = os.path.join(base, f"health-{len(path)}")
        os.makedirs(logdata, exist_ok=True)
        setting = ctx.cli("settings", "set", "health-log-file", path, "--data-dir", logdata)
        started = time.monotonic()
        sim = ctx.cli("simulate", "--sessions", "3", "--seed", "14", "--quiet", "--data-dir", logdata, timeout=30)
        seconds = time.monotonic() - started
        sessions = ctx.cli("sessions", "--json", "--data-dir", logdata)
        status = ctx.cli("health", "status", "--data-dir", logdata)
        ok = setting.rc == 0 and sim.rc in (0, 1) and seconds < 20 and '"session_id"' in sessions.out and "not a regular file" in status.out + status.err
        ctx.record(klass, f"health-log-file at {name}", "sessions saved, logging failing with the reason, no hang",
                   f"set {setting.rc}, simulate {sim.describe()} in {seconds:.1f} s, health status {status.out.strip()[:160]!r}", ok)

    # The store's own files and its lock: a link or a FIFO there is refused (77), never followed, never a hang.
    for name in ("chronoception.sqlite-wal", "chronoception.sqlite-shm", "chronoception.lock", "health-log/mindful-sessions.jsonl", "chronoception.sqlite"):
        for kind in ("symlink", "fifo"):
            store = os.path.join(base, f"store-{name.replace('/', '-')}-{kind}")
            copied = run([ctx.binary, "simulate", "--sessions", "2", "--seed", "15", "--quiet", "--data-dir", store], ctx.env)
            fresh_victim()
            path = os.path.join(store, name)
            link(path, victim) if kind == "symlink" else fifo(path)
            for command in (["sessions", "--json"], ["passive", "--board", "desktop", "--no-realtime", "--no-state-file"]):
                started = time.monotonic()
                done = ctx.cli(*command, "--data-dir", store, stdin=b"", timeout=15)
                seconds = time.monotonic() - started
                still = os.path.islink(path) if kind == "symlink" else stat.S_ISFIFO(os.lstat(path).st_mode)
                ok = copied.rc == 0 and done.rc in (76, 77) and seconds < 10 and victim_kept() and still
                ctx.record(klass, f"{command[0]} with a {kind} as {name}", "refused (76/77) at once, the victim and the path kept",
                           f"{done.describe()} in {seconds:.1f} s; victim kept {victim_kept()}; path kept {still}", ok)
