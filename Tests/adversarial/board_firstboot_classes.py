"""Classes 8 and 9: files the device is handed rather than sent (issue 34, items 3 and 4).

8-board-files      alias bombs (1 to 9 levels, in keys and values, merge keys), anchors, nesting past the
                   depth bound (block and flow), files at and past 64 KiB, against `board show`, `board
                   list` (the bad file among good ones), `run --board` and a running daemon's SIGHUP
                   reload: each answers within a few seconds with exit 78 and the reason (the daemon keeps
                   its board and answers), and `board list` still lists the good board; and
                   `chip:` paths that are no gpiochip (/dev/zero, /dev/null, /dev/watchdog, a FIFO, a
                   regular file, /proc/self/mem) under `board check`, traced with strace: refused, and never
                   opened for writing.
9-first-boot-file  first-boot files generated from its grammar (separators, case, line ends, byte order
                   marks) with secrets under near-miss keys, lines without `=`, pasted private keys, and
                   Unicode host names: after `first-boot apply` on a scratch ROOT no secret's value is left
                   on the card, in standard output or error, the report or the problem marker, and
                   /etc/hostname holds an RFC 1123 label.
"""

import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import time
import urllib.request

from lab import run

BOARD = """name: {name}
button:
  chip: {chip}
  line: 17
motor:
  chip: gpiochip0
  line: 27
  safe_max_on_ms: 800
"""
SECONDS = 5


def alias_bomb(levels, in_key=True):
    text = "name: {name}\na0: &a0 [x, x, x, x, x, x, x, x, x]\n"
    for level in range(1, levels + 1):
        text += f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]\n"
    return text + (f"? *a{levels}\n: boom\n" if in_key else f"last: *a{levels}\n")


def board_cases():
    """(description, text with {name}, what the refusal must mention)."""
    cases = []
    for levels in range(1, 10):
        cases.append((f"an alias bomb of {levels} levels in a key", alias_bomb(levels), "anchor"))
        cases.append((f"an alias bomb of {levels} levels in a value", alias_bomb(levels, in_key=False), "anchor"))
    base = BOARD.replace("{chip}", "gpiochip0")
    cases += [
        ("an alias with no anchor", base + "led: *pin\n", "alias"),
        ("a merge key", "defaults: &d {chip: gpiochip0, line: 17}\n" + base.replace("button:\n", "button:\n  <<: *d\n"), "anchor"),
        ("an anchor on a section", base.replace("motor:", "motor: &m"), "anchor"),
        ("an anchor on a scalar", base.replace("line: 17", "line: &l 17"), "anchor"),
        ("a long anchor name", base.replace("line: 17", "line: &" + "n" * 500 + " 17"), "anchor"),
    ]
    for depth in (9, 20, 200):
        block = "".join("  " * i + f"k{i}:\n" for i in range(depth)) + "  " * depth + "v: 1\n"
        cases.append((f"block mappings {depth} deep", base + block, "nests"))
    for depth in (10, 1000, 30000):
        cases.append((f"flow lists {depth} deep", base + "extra: " + "[" * depth + "]" * depth + "\n", "nest"))
    padding = "# " + "p" * 76 + "\n"
    cases.append(("64 KiB and one byte", base + padding * ((65536 - len(base)) // len(padding) + 1), "64 KiB"))
    cases.append(("1 MiB", base + padding * ((1 << 20) // len(padding)), "64 KiB"))
    return cases


def class8_board_files(ctx):
    klass = "8-board-files"
    folder = os.path.join(ctx.work, "board-files")
    os.makedirs(folder, exist_ok=True)
    env = dict(ctx.env)
    for index, (description, text, mention) in enumerate(board_cases()):
        name = f"bad{index}"
        case_dir = os.path.join(folder, name)
        os.makedirs(case_dir, exist_ok=True)
        path = os.path.join(case_dir, name + ".yaml")
        with open(path, "w") as f:
            f.write(text.replace("{name}", name))
        with open(os.path.join(case_dir, "good.yaml"), "w") as f:
            f.write(BOARD.format(name="good", chip="gpiochip0"))
        shown = run([ctx.binary, "board", "show", path], env, timeout=SECONDS)
        ctx.tally.record(klass, f"board show ({description})", f"exit 78 naming '{mention}' within {SECONDS} s", shown.describe(),
                         shown.rc == 78 and mention in shown.err and not shown.trapped)
        listed = run([ctx.binary, "board", "list"], dict(env, CHRONOCEPTION_BOARDS_DIR=case_dir), timeout=SECONDS)
        good = re.search(r"^good\s+(?!\s|INVALID)", listed.out, re.M) is not None
        bad = re.search(rf"^{name}\s+INVALID", listed.out, re.M) is not None
        ctx.tally.record(klass, f"board list ({description})", f"exit 0 within {SECONDS} s, good listed, {name} INVALID",
                         f"{listed.describe()}, good {'listed' if good else 'missing'}, bad {'INVALID' if bad else 'not marked'}",
                         listed.rc == 0 and good and bad)
        if index % 4 == 0 or "9 levels" in description:
            data = os.path.join(ctx.work, f"board-run-{index}")
            ran = run([ctx.binary, "run", "--board", path, "--data-dir", data], env, timeout=SECONDS * 2)
            ctx.tally.record(klass, f"run --board ({description})", f"exit 78 within {SECONDS * 2} s", ran.describe(),
                             ran.rc == 78 and not ran.trapped)
    # 64 KiB exactly is still a board file.
    base = BOARD.format(name="full", chip="gpiochip0")
    padding = "# " + "p" * 76 + "\n"
    full = base + padding * ((65536 - len(base)) // len(padding))
    full += "#" * (65536 - len(full) - 1) + "\n"
    path = os.path.join(folder, "full.yaml")
    with open(path, "w") as f:
        f.write(full)
    shown = run([ctx.binary, "board", "show", path], env, timeout=SECONDS)
    ctx.tally.record(klass, "board show (exactly 64 KiB)", "exit 0", shown.describe(), shown.rc == 0 and len(full) == 65536)
    class8_chips(ctx, folder, env)
    class8_reload(ctx, folder, env)


def class8_reload(ctx, folder, env):
    """SIGHUP with the board file replaced by the 9-level alias bomb: the daemon refuses it at once,
    keeps the board it had, and answers on loopback."""
    klass = "8-board-files"
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "boards", "desktop.yaml")) as f:
        desktop = f.read()
    board = os.path.join(folder, "reload", "reload.yaml")
    os.makedirs(os.path.dirname(board), exist_ok=True)
    with open(board, "w") as f:
        f.write(desktop.replace("name: desktop", "name: reload"))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log_path = os.path.join(folder, "reload", "daemon.log")
    # By name, from a boards folder: the reload looks the board up by its name.
    env = dict(env, CHRONOCEPTION_BOARDS_DIR=os.path.dirname(board))
    argv = [ctx.binary, "run", "--board", "reload", "--no-realtime", "--data-dir", os.path.join(folder, "reload", "data"),
            "--listen", f"127.0.0.1:{port}", "--no-socket", "--no-state-file"]
    with open(log_path, "wb") as log:
        daemon = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/api/v1/openapi.json"

    def answers(timeout):
        try:
            with urllib.request.urlopen(url, timeout=timeout) as reply:
                return reply.status == 200
        except OSError:
            return False
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and daemon.poll() is None and not answers(1):
            time.sleep(0.2)
        up = daemon.poll() is None and answers(2)
        ctx.tally.record(klass, "run --board FILE before the reload", "up and answering", "up" if up else f"exit {daemon.poll()}", up)
        if not up:
            return
        with open(board, "w") as f:
            f.write(alias_bomb(9).replace("{name}", "reload"))
        daemon.send_signal(signal.SIGHUP)
        refused = False
        deadline = time.monotonic() + SECONDS
        while time.monotonic() < deadline and not refused:
            time.sleep(0.2)
            with open(log_path, errors="replace") as f:
                refused = "SIGHUP: the board file" in f.read()
        with open(log_path, errors="replace") as f:
            said = [line for line in f if "SIGHUP" in line]
        alive = daemon.poll() is None and answers(2)
        ctx.tally.record(klass, "SIGHUP with the 9-level alias bomb in place", f"refused within {SECONDS} s naming the anchor, still answering",
                         (said[0].strip()[:200] if said else "nothing said") + ("" if alive else "; not answering"),
                         refused and alive and any("anchor" in line for line in said))
    finally:
        if daemon.poll() is None:
            daemon.terminate()
            try:
                daemon.wait(timeout=10)
            except subprocess.TimeoutExpired:
                daemon.kill()
                daemon.wait()


def class8_chips(ctx, folder, env):
    klass = "8-board-files"
    strace = shutil.which("strace")
    fifo = os.path.join(folder, "fifo-chip")
    if not os.path.exists(fifo):
        os.mkfifo(fifo, 0o600)
    regular = os.path.join(folder, "regular-chip")
    with open(regular, "w") as f:
        f.write("not a chip\n")
    for chip in ["/dev/zero", "/dev/null", "/dev/watchdog", "/dev/watchdog0", "/dev/mem", "/dev/tty", "/proc/self/mem", fifo, regular, "/dev"]:
        name = "chip" + re.sub(r"[^a-z0-9]", "", chip.lower())[-20:]
        path = os.path.join(folder, name + ".yaml")
        with open(path, "w") as f:
            f.write(BOARD.format(name=name, chip=chip))
        log = os.path.join(folder, name + ".strace")
        argv = [ctx.binary, "board", "check", path, "--no-press", "--no-sound"]
        if strace:
            argv = [strace, "-f", "-qq", "-e", "trace=open,openat,openat2", "-o", log] + argv
        checked = run(argv, env, timeout=SECONDS * 3)
        refused = checked.rc != 0 and "is not a gpiochip" in (checked.out + checked.err) and not checked.trapped
        ctx.tally.record(klass, f"board check (chip: {chip})", "refused: is not a gpiochip", checked.describe(), refused)
        if strace:
            with open(log, errors="replace") as f:
                opened = [line.strip() for line in f if f'"{chip}"' in line and re.search(r"O_RDWR|O_WRONLY", line)]
            ctx.tally.record(klass, f"board check (chip: {chip}) under strace", "never opened for writing",
                             opened[0][:160] if opened else "not opened", not opened)


# -- 9: the first-boot file -------------------------------------------------------------------------

NEAR_MISSES = ["password", "passwd", "psk", "wifi_password", "wifi_passphrse", "wifi_pasphrase", "WiFi-Password",
               "wifi_psk", "wifi_key", "wpa_passphrase", "wpa-psk", "secret", "token", "api_key", "ssh_private_key",
               "private_key", "pass", "pwd", "Wifi Passphrase", "wifi_passprase", "passphrase", "network_key"]
HOSTNAMES = {
    "a combining mark": "pi\u0301",
    "a zero-width joiner": "pi\u200dx",
    "VS16": "pi\ufe0f",
    "İ": "\u0130stanbul",
    "dotless ı": "k\u0131tchen",
    "the Kelvin sign": "\u212aitchen",
    "fullwidth letters": "\uff4b\uff49\uff54\uff43\uff48\uff45\uff4e",
    "Cyrillic а": "kitchen\u0430",
    "a soft hyphen": "kit\u00adchen",
    "a no-break space": "kit\u00a0chen",
    "a right-to-left override": "kit\u202echen",
    "an emoji": "kitchen\U0001f600",
    "6,004 bytes of combining marks": "a" + "\u0301" * 3001 + "b",
    "64 ASCII letters": "a" * 64,
    "an underscore": "kitchen_pi",
}
LABEL = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\n$")


class Card:
    def __init__(self, work, index):
        self.folder = os.path.join(work, f"first-boot-{index}")
        self.boot, self.root = os.path.join(self.folder, "boot"), os.path.join(self.folder, "root")
        for sub in ("boot", "root/etc/ssh", "root/etc/default", "root/usr/share/zoneinfo"):
            os.makedirs(os.path.join(self.folder, sub), exist_ok=True)
        self.write("root/etc/hosts", "127.0.0.1\tlocalhost\n127.0.1.1\tbuilder\n")
        self.write("root/etc/hostname", "chronoception\n")
        self.write("root/etc/ssh/sshd_not_to_be_run", "")
        self.write("root/usr/share/zoneinfo/UTC", "TZif")

    def write(self, relative, text):
        with open(os.path.join(self.folder, relative), "wb") as f:
            f.write(text.encode("utf-8") if isinstance(text, str) else text)

    def read(self, relative):
        try:
            with open(os.path.join(self.folder, relative), "rb") as f:
                return f.read().decode("utf-8", "replace")
        except FileNotFoundError:
            return ""


def first_boot_files():
    """(description, file text, the secret values that must vanish, whether the hostname is checked)."""
    files = []
    separators = ["=", " = ", "\t=  ", "= "]
    endings = ["\n", "\r\n"]
    for index, key in enumerate(NEAR_MISSES):
        secret = f"S3cret-{index:02d}-{key[:3]}-value"
        ending = endings[index % 2]
        bom = "\ufeff" if index % 5 == 0 else ""
        text = bom + ending.join(["wifi_country = GB", "wifi_ssid = Home", f"{key}{separators[index % 4]}{secret}", "hostname = kitchen", ""])
        files.append((f"a secret under `{key}`", text, [secret]))
        files.append((f"a secret under `{key}` with no '='", f"wifi_ssid = Home\n{key}: {secret}\n", [secret]))
    for key in ["wifi_passphrase", "WIFI-PASSPHRASE", "ssh_key"]:
        secret = "Bad-7" if key != "ssh_key" else "ssh-ed25519 AAAAnotbase64!!secretish"
        files.append((f"a refused value under `{key}`", f"wifi_ssid = Home\n{key} = {secret}\n", [secret]))
        files.append((f"`{key}:` with no '='", f"wifi_ssid = Home\n{key}: correct-horse-battery\n", ["correct-horse-battery"]))
    body = ["b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
            "QyNTUxOQAAACD1UDBajdO7NiadxjUFQWVkK4V6X5MZ2yE/xjNCi+a+hgAAAJgAAAAAAAAA==",
            "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKjMzEfYyji"]
    for kind in ["OPENSSH PRIVATE KEY", "RSA PRIVATE KEY", "PRIVATE KEY", "ENCRYPTED PRIVATE KEY"]:
        for lines in (1, 3):
            block = [f"-----BEGIN {kind}-----"] + body[:lines] + [f"-----END {kind}-----"]
            for ending in ("\n", "\r\n"):
                text = ending.join(["hostname = kitchen"] + block + ["board = desktop", ""])
                files.append((f"a {lines}-line {kind} ({ending!r})", text, body[:lines]))
            files.append((f"a {lines}-line {kind} under ssh_key", "ssh_key = " + "\n".join(block) + "\nhostname = kitchen\n", body[:lines]))
            files.append((f"a {lines}-line {kind} cut short", "\n".join(block[:-1]) + "\n\nhostname = kitchen\n", body[:lines]))
    for description, hostname in HOSTNAMES.items():
        files.append((f"hostname with {description}", f"hostname = {hostname}\npassword = Unicode-case-secret\n", ["Unicode-case-secret"]))
    return files


def class9_first_boot_file(ctx):
    klass = "9-first-boot-file"
    for index, (description, text, secrets) in enumerate(first_boot_files()):
        card = Card(ctx.work, index)
        card.write("boot/chronoception.txt", text)
        applied = run([ctx.binary, "first-boot", "apply", "--boot", card.boot, "--root", card.root], ctx.env, timeout=SECONDS * 2)
        ctx.tally.record(klass, f"apply ({description})", "exit 0", applied.describe(), applied.rc == 0 and not applied.trapped)
        places = {"the card": card.read("boot/chronoception.txt"), "stdout": applied.out, "stderr": applied.err,
                  "the report": card.read("root/var/lib/chronoception/first-boot.txt"),
                  "the marker": card.read("root/var/lib/chronoception/first-boot-problems")}
        left = [f"{secret[:12]}… in {place}" for secret in secrets for place, found in places.items() if secret[:16] in found]
        ctx.tally.record(klass, f"secrets after apply ({description})", "no secret's value anywhere", ", ".join(left) or "none left", not left)
        hostname = card.read("root/etc/hostname")
        ctx.tally.record(klass, f"/etc/hostname ({description})", "an RFC 1123 label", repr(hostname[:40]), LABEL.match(hostname) is not None)
    # A FIFO where /etc/hosts should be: refused at once, not waited on.
    card = Card(ctx.work, "fifo")
    os.unlink(os.path.join(card.root, "etc/hosts"))
    os.mkfifo(os.path.join(card.root, "etc/hosts"), 0o644)
    card.write("boot/chronoception.txt", "hostname = kitchen\n")
    applied = run([ctx.binary, "first-boot", "apply", "--boot", card.boot, "--root", card.root], ctx.env, timeout=SECONDS)
    mode = os.lstat(os.path.join(card.root, "etc/hosts")).st_mode
    ctx.tally.record(klass, "apply with a FIFO at ROOT/etc/hosts", f"exit 74 within {SECONDS} s naming the FIFO, left in place",
                     applied.describe(), applied.rc == 74 and "FIFO" in applied.err and stat.S_ISFIFO(mode))
    checked = run([ctx.binary, "first-boot", "check", os.path.join(card.root, "etc/hosts")], ctx.env, timeout=SECONDS)
    ctx.tally.record(klass, "check on a FIFO", f"exit 66 within {SECONDS} s", checked.describe(), checked.rc == 66)
