#!/usr/bin/env python3
"""The first hour's checks, run by Tests/image/first-hour inside its network namespace, where the only
link is the tap of the VM booted from the card (qemu-system-aarch64 -M virt): nothing here reaches
beyond it. In the order a person meets them:

  1. mDNS: a real query for chronoception.local (an mDNS packet to 224.0.0.251:5353 on the tap, answered
     by the guest's avahi-daemon) gives the guest's address, the one DHCP gave it; the _http._tcp
     service the image announces points at port 8737.
  2. The page answers at http://chronoception.local:8737/ (the time from qemu's start is measured).
  3. SSH: the key the test wrote into chronoception.txt logs in as root; a password login is refused
     (the server offers public keys only). Over that login: the first-boot file applied (host name,
     time zone, board, companion on the network).
  4. Headless Chromium at phone width (390x844), with chronoception.local mapped to the address mDNS
     gave (--host-resolver-rules): the page asks to pair; Pair; the device announces the request
     (its state file, read over SSH); a long press of the VM's keyboard space bar through the qemu
     monitor (`sendkey spc 2500`: the board `keyboard`, evdev) approves it; the page continues paired.
  4b. The clock (over SSH, before the session; waited for when the sync has not come yet): the guest
     booted with a wrong one (the VM's RTC far in the past, then systemd's build time); systemd-networkd
     took the NTP server DHCP named (the namespace's chronyd) and handed it to systemd-timesyncd, which
     synchronised with it; the guest's clock is then within 2 s of the host's.
  5. Settings: Challenge, 10 s, one attempt, saved from the page; Home's start button starts it on the
     device; two taps of the space bar (start, then about 10 s later the answer) play the attempt; the
     live card shows the feedback and "Completed and saved.", Home's "Last session" the Time Acuity
     score, the same as the device's state file. The session's health record (SPEC §4), read over SSH:
     written, nothing held back for the wall clock, its start and end the host's time of the two taps.
Screenshots of each step at phone width into --artifacts. Prints `  ok    NAME` / `  FAIL  NAME` lines
and `  figure NAME: VALUE` lines; appends "PASSED FAILED" to --counts."""
import argparse, datetime, json, os, random, re, socket, struct, subprocess, sys, time, urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "web"))
from browser import js_errors, screenshot, wait_for  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from webparts import chromium_options, set_view  # noqa: E402

HOST = "chronoception.local"
PORT = 8737
MDNS = ("224.0.0.251", 5353)
PAIR_NAME = "First-hour phone"
HEALTH_LOG = "/var/lib/chronoception/health-log/mindful-sessions.jsonl"  # the service's store, docs/STORE.md
SYNC_TIMEOUT = 300  # s from the page paired to timesyncd's first synchronisation (usually already done)


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def __call__(self, name, condition, detail=""):
        if condition:
            self.passed += 1
            print(f"  ok    {name}", flush=True)
        else:
            self.failed += 1
            print(f"  FAIL  {name}", flush=True)
            for line in str(detail).splitlines()[:12]:
                print(f"        {line}", flush=True)
        return bool(condition)


check = Checks()


def figure(name, value):
    print(f"  figure {name}: {value}", flush=True)


# --- mDNS ----------------------------------------------------------------------------------------------
def encode_name(name):
    return b"".join(bytes([len(part)]) + part.encode() for part in name.rstrip(".").split(".")) + b"\0"


def read_name(packet, offset):
    """A DNS name at offset (with compression): (name, offset after it in the record)."""
    labels, end, jumps = [], None, 0
    while True:
        length = packet[offset]
        if length & 0xC0 == 0xC0:
            if end is None:
                end = offset + 2
            offset = ((length & 0x3F) << 8) | packet[offset + 1]
            jumps += 1
            if jumps > 20:
                raise ValueError("a compression loop")
            continue
        if length == 0:
            return ".".join(labels), (end if end is not None else offset + 1)
        labels.append(packet[offset + 1:offset + 1 + length].decode(errors="replace"))
        offset += 1 + length


def parse_records(packet):
    """Every resource record of an mDNS answer: (name, type, data) with A as a dotted address, PTR as a
    name and SRV as (port, target)."""
    _, _, questions, answers, authority, additional = struct.unpack(">HHHHHH", packet[:12])
    offset = 12
    for _ in range(questions):
        _, offset = read_name(packet, offset)
        offset += 4
    records = []
    for _ in range(answers + authority + additional):
        name, offset = read_name(packet, offset)
        kind, _, _, length = struct.unpack(">HHIH", packet[offset:offset + 10])
        offset += 10
        data = packet[offset:offset + length]
        if kind == 1 and length == 4:
            records.append((name, "A", socket.inet_ntoa(data)))
        elif kind == 12:
            records.append((name, "PTR", read_name(packet, offset)[0]))
        elif kind == 33:
            port = struct.unpack(">H", data[4:6])[0]
            records.append((name, "SRV", (port, read_name(packet, offset + 6)[0])))
        offset += length
    return records


def mdns_query(name, kind, interface_ip, wait=1.5):
    """One mDNS question sent to 224.0.0.251:5353 out of the tap, from an ephemeral port: a "legacy
    unicast" query (RFC 6762 §6.7), which a responder answers to the sender directly. The records of
    the answers that came within `wait` s."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(interface_ip))
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 255)
        sock.bind((interface_ip, 0))
        ident = random.randrange(1, 65536)
        sock.sendto(struct.pack(">HHHHHH", ident, 0, 1, 0, 0, 0) + encode_name(name) + struct.pack(">HH", kind, 1), MDNS)
        records, end = [], time.time() + wait
        while time.time() < end:
            sock.settimeout(max(0.05, end - time.time()))
            try:
                packet, _ = sock.recvfrom(9000)
            except socket.timeout:
                break
            if len(packet) >= 12 and struct.unpack(">H", packet[:2])[0] == ident:
                try:
                    records += parse_records(packet)
                except (ValueError, IndexError, struct.error):
                    pass
        return records
    finally:
        sock.close()


# --- the VM: its monitor (the button) and SSH -----------------------------------------------------------
def monitor(path, command):
    """One command to qemu's human monitor on its Unix socket."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        sock.connect(path)
        time.sleep(0.2)
        sock.recv(4096)  # the banner and prompt
        sock.sendall(command.encode() + b"\n")
        time.sleep(0.3)
        try:
            return sock.recv(4096).decode(errors="replace")
        except socket.timeout:
            return ""


class SSH:
    """ssh to the guest with the test's key; one master connection reused (a TCG guest takes seconds
    per handshake)."""

    def __init__(self, address, key, work):
        self.base = ["ssh", "-i", key, "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
                     "-o", f"UserKnownHostsFile={work}/known_hosts", "-o", "ConnectTimeout=60", "-o", "ControlMaster=auto",
                     "-o", f"ControlPath={work}/ssh-%C", "-o", "ControlPersist=600", f"root@{address}"]
        self.address = address

    def run(self, command, timeout=120):
        return subprocess.run(self.base + [command], capture_output=True, text=True, timeout=timeout)

    def state(self):
        done = self.run("cat /run/chronoception/state.json", timeout=60)
        try:
            return json.loads(done.stdout)
        except json.JSONDecodeError:
            return None

    def close(self):
        subprocess.run(self.base[:-1] + ["-O", "exit", f"root@{self.address}"], capture_output=True, timeout=30)


def appears(driver, script, timeout):
    """Whether SCRIPT returns something truthy within TIMEOUT seconds (a check's verdict, not a crash)."""
    try:
        wait_for(driver, script, timeout=timeout)
        return True
    except Exception:
        return False


def tap(driver, element):
    """A person's tap: the element scrolled to the middle of the screen first. At phone width the tab bar
    is fixed at the bottom, and Selenium's own scrolling can leave the element under it (the page's
    bottom padding lets a person scroll it clear, as here)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


# --- the browser --------------------------------------------------------------------------------------
def make_driver(address, work):
    """Chromium and its driver in this namespace, chronoception.local resolved to the address mDNS gave
    (Chromium asks the system resolver, which knows no .local names here)."""
    options = chromium_options([f"--host-resolver-rules=MAP {HOST} {address}"])
    service = webdriver.ChromeService(executable_path="/usr/bin/chromedriver", log_output=os.path.join(work, "chromedriver.log"))
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(180)
    set_view(driver, "phone", "light")
    return driver


def main_text(driver):
    return driver.execute_script("return document.getElementById('main') ? document.getElementById('main').innerText : ''")


def shot(driver, artifacts, name):
    set_view(driver, "phone", "light")
    time.sleep(0.3)
    path = os.path.join(artifacts, f"first-hour-{name}-phone.png")
    screenshot(driver, path)
    return path


def wait_state(ssh, predicate, timeout):
    """Polls the device's state file over SSH until predicate(state) holds: the state, or the last one read."""
    end, state = time.time() + timeout, None
    while time.time() < end:
        state = ssh.state()
        if state and predicate(state):
            return state
        time.sleep(0.5)
    return state


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tap-address", required=True)
    parser.add_argument("--leases", required=True)
    parser.add_argument("--monitor", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--artifacts", required=True)
    parser.add_argument("--started", type=float, required=True, help="qemu's start, host epoch seconds")
    parser.add_argument("--timeout", type=int, default=1200, help="seconds from qemu's start to the page")
    parser.add_argument("--timezone", required=True)
    parser.add_argument("--rtc-base", required=True, help="the VM's RTC at its start (qemu -rtc base=)")
    parser.add_argument("--counts", required=True)
    args = parser.parse_args()
    os.makedirs(args.artifacts, exist_ok=True)
    try:
        run(args)
    except Exception as error:  # a crash is one failure, and the counts are still written
        import traceback
        traceback.print_exc(limit=4)
        check(f"the checks ran to the end ({error.__class__.__name__})", False, str(error))
    with open(args.counts, "w") as file:
        file.write(f"{check.passed} {check.failed}\n")


def run(args):
    deadline = args.started + args.timeout
    since = lambda: time.time() - args.started  # noqa: E731

    # 1. mDNS: asked every 2 s until the guest's avahi answers (the boot is under way meanwhile).
    print("mDNS (from the namespace, on the tap):", flush=True)
    address = None
    while time.time() < deadline and not address:
        answers = [r for r in mdns_query(HOST, 1, args.tap_address) if r[1] == "A" and r[0].lower() == HOST]
        if answers:
            address = answers[0][2]
        else:
            time.sleep(2)
    if not check(f"{HOST} resolves over mDNS", address, f"no answer within {args.timeout} s of qemu's start"):
        return
    figure("boot to the mDNS answer (host wall clock from qemu's start)", f"{since():.0f} s")
    leases = open(args.leases).read().split() if os.path.exists(args.leases) else []
    check(f"to the guest's address, the one DHCP gave it ({address})", address in leases, f"leases: {leases}")
    services = mdns_query("_http._tcp.local", 12, args.tap_address, wait=3)
    instances = [r[2] for r in services if r[1] == "PTR" and r[0].lower() == "_http._tcp.local"]
    check("DNS-SD: the companion is announced as an _http._tcp service 'Chronoception on chronoception'",
          any(i.startswith("Chronoception on chronoception.") for i in instances), services)
    srv = [r for r in mdns_query(instances[0], 33, args.tap_address, wait=3) if r[1] == "SRV"] if instances else []
    check("its SRV record names port 8737 on chronoception.local", any(r[2] == (PORT, HOST) for r in srv), srv)

    # 2. The page: plain HTTP first (the time it begins to answer), with the Host and Accept a browser
    # sends (without text/html the root answers the API's JSON index).
    print("the page:", flush=True)
    answered, error = None, None
    while time.time() < deadline and answered is None:
        try:
            request = urllib.request.Request(f"http://{address}:{PORT}/", headers={"Host": f"{HOST}:{PORT}", "Accept": "text/html"})
            with urllib.request.urlopen(request, timeout=20) as response:
                body = response.read().decode(errors="replace")
                if response.status == 200 and "<script" in body:
                    answered = since()
        except Exception as caught:  # not listening yet
            error = caught
            time.sleep(2)
    if not check(f"http://{HOST}:{PORT}/ answers with the companion", answered is not None, error):
        return
    figure(f"boot to http://{HOST}:{PORT}/ answering (host wall clock from qemu's start)", f"{answered:.0f} s")

    # 3. SSH with the card's key; no password login.
    print("SSH:", flush=True)
    ssh = SSH(address, args.key, args.work)
    # sshd starts once the first boot has applied the key and made the host keys: it may come after the page.
    while time.time() < deadline:
        try:
            with socket.create_connection((address, 22), timeout=10):
                break
        except OSError:
            time.sleep(2)
    figure("boot to SSH accepting connections (host wall clock from qemu's start)", f"{since():.0f} s")
    login = ssh.run("hostname; readlink /etc/localtime; grep -E '^CHRONOCEPTION_(BOARD|LISTEN)=' /etc/default/chronoception; systemctl is-active chronoception; id -un")
    lines = login.stdout.split()
    check("SSH: the key from chronoception.txt logs in as root", login.returncode == 0 and lines[-1:] == ["root"], login.stderr + login.stdout)
    check("the host name is chronoception (chronoception.txt)", lines[:1] == ["chronoception"], lines)
    check(f"the time zone is {args.timezone} (chronoception.txt)", len(lines) > 1 and lines[1].endswith("/" + args.timezone), lines)
    check("the service runs on the board chronoception.txt names (keyboard), the companion on the network",
          "CHRONOCEPTION_BOARD=keyboard" in lines and "CHRONOCEPTION_LISTEN=0.0.0.0:8737" in lines and "active" in lines, lines)
    password = subprocess.run(["ssh", "-v", "-o", "PubkeyAuthentication=no", "-o", "PreferredAuthentications=password,keyboard-interactive",
                               "-o", "BatchMode=yes", "-o", "NumberOfPasswordPrompts=0", "-o", "StrictHostKeyChecking=no",
                               "-o", f"UserKnownHostsFile={args.work}/known_hosts", "-o", "ConnectTimeout=60", f"root@{address}", "true"],
                              capture_output=True, text=True, timeout=120)
    offered = re.findall(r"Authentications that can continue: (\S+)", password.stderr)
    check("a password login is refused: the server offers public keys only", password.returncode != 0 and offered and set(offered) == {"publickey"},
          f"exit {password.returncode}; offered: {offered}; {password.stderr[-400:]}")

    # 4. Pairing from the page, approved with a long press of the device's button.
    print("pairing from the page (Chromium at 390x844):", flush=True)
    driver = make_driver(address, args.work)
    clock = []

    def clock_in():
        """3b. The clock, brought in over the network while the page was paired: checked (and waited
        for) before the session starts, so the session is anchored to the synchronised clock."""
        print(f"the clock (systemd-timesyncd; chronyd at {args.tap_address}, named by DHCP):", flush=True)
        clock.append(clock_checks(ssh, args, deadline))

    try:
        timeline = pair_and_train(driver, ssh, args, address, before_session=clock_in)
        if not clock:  # pairing failed: the clock's checks still run and count
            clock_in()
        if timeline and timeline.get("completed"):
            print("the session's health record (read over SSH):", flush=True)
            health_checks(ssh, args, timeline)
    finally:
        errors = [e for e in js_errors(driver) if not re.search(r"status of 401", e["message"])]
        check("no script errors on the page (beyond the 401 that asks to pair)", not errors, errors[:3])
        driver.quit()
        ssh.close()


def key_values(text):
    """`timedatectl show`'s KEY=VALUE lines as a dict."""
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def json_lines(text):
    """Each line of TEXT that is a JSON value, parsed (the journal's -o json, the health log's JSON Lines);
    a line cut short or not JSON is left out."""
    values = []
    for line in text.splitlines():
        try:
            values.append(json.loads(line))
        except json.JSONDecodeError:
            pass
    return values


def journal(ssh, arguments):
    """The guest's journal entries (journalctl -o json) as dicts; [] when it does not answer."""
    return json_lines(ssh.run(f"journalctl -b -o json {arguments}", timeout=60).stdout)


def boot_moment(entry):
    """When the guest's wall clock placed its boot at the time of this journal entry (epoch seconds):
    its realtime stamp less its monotonic one, both taken together by journald."""
    return (int(entry["__REALTIME_TIMESTAMP"]) - int(entry["__MONOTONIC_TIMESTAMP"])) / 1e6


def clock_offset(ssh, samples=5):
    """The guest's clock less the host's (s), from the sample with the shortest SSH round trip, and that
    round trip: the guest's `date` is compared with the middle of the host's send and receive times."""
    best = None
    for _ in range(samples):
        before = time.time()
        done = ssh.run("date +%s.%N", timeout=60)
        after = time.time()
        try:
            guest = float(done.stdout.strip())
        except ValueError:
            continue
        if best is None or after - before < best[1]:
            best = (guest - (before + after) / 2, after - before)
    return best


def utc(seconds):
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def clock_checks(ssh, args, deadline):
    """The guest's clock: wrong at boot, then synchronised by systemd-timesyncd from the namespace's
    chronyd, which DHCP (option 42) named and systemd-networkd passed on."""
    server = args.tap_address
    oldest = ssh.run("journalctl -b -o json | head -n 1", timeout=60).stdout
    try:
        booted_as = boot_moment(json.loads(oldest))
    except (json.JSONDecodeError, KeyError, ValueError):
        booted_as = None
    rtc = re.findall(r"rtc-pl031 .*: setting system clock to (\S+)", open(os.path.join(args.work, "console.log"), errors="replace").read())
    figure("the guest's RTC at boot (the kernel's console)", rtc[0] if rtc else "not said")
    if booted_as is not None:
        behind = args.started - booted_as
        figure("the guest's clock at boot (its journal's first entry: systemd moved it to its build time)",
               f"{utc(booted_as)}, {behind / 86400:.1f} days behind the host's")
    check(f"the guest booted with a wrong clock: more than an hour off the host's (the VM's RTC at {args.rtc_base})",
          booted_as is not None and abs(args.started - booted_as) > 3600, oldest[:300])

    waited, end = time.time(), min(deadline, time.time() + SYNC_TIMEOUT)
    values = {}
    while True:
        done = ssh.run("timedatectl show -p NTPSynchronized; timedatectl show-timesync -p LinkNTPServers -p ServerName -p ServerAddress", timeout=60)
        values = key_values(done.stdout)
        if values.get("NTPSynchronized") == "yes" and values.get("ServerAddress") == server or time.time() > end:
            break
        time.sleep(1)
    figure("waited for the synchronisation after the page was paired", f"{time.time() - waited:.0f} s")
    check(f"DHCP's NTP server reached timesyncd through systemd-networkd (timedatectl show-timesync: LinkNTPServers={server})",
          values.get("LinkNTPServers", "").split() == [server], values)
    chrony_log = os.path.join(args.work, "chronyd.log")
    chrony = open(chrony_log, errors="replace").read()[-600:] if os.path.exists(chrony_log) else "no chronyd.log"
    check(f"timesyncd synchronised the clock with it: NTPSynchronized=yes, ServerAddress={server}",
          values.get("NTPSynchronized") == "yes" and values.get("ServerAddress") == server, f"{values}\nchronyd: {chrony}")
    said = journal(ssh, "SYSLOG_IDENTIFIER=systemd-timesyncd SYSLOG_IDENTIFIER=systemd-networkd")
    for entry in [e for e in said if re.search(r"DHCPv4 address|Contacted time server|Initial clock", str(e.get("MESSAGE")))][:3]:
        figure("the guest's journal (its monotonic clock: s since boot)", f"{int(entry['__MONOTONIC_TIMESTAMP']) / 1e6:.1f} s: {entry.get('MESSAGE')}")
    # For the logs: what networkd and timesyncd did, by the guest's monotonic clock.
    with open(os.path.join(args.work, "guest-clock.log"), "w") as file:
        file.write(ssh.run("journalctl -b -o short-monotonic --no-pager -u systemd-timesyncd -u systemd-networkd -u systemd-resolved; "
                           "networkctl status eth0 --no-pager; timedatectl show-timesync --all", timeout=60).stdout)
    measured = clock_offset(ssh)
    if measured:
        figure("the guest's clock less the host's after synchronisation", f"{measured[0]:+.3f} s (SSH round trip {measured[1]:.2f} s)")
    check("the guest's clock is within 2 s of the host's", measured is not None and abs(measured[0]) < 2, measured)
    return values


def health_checks(ssh, args, timeline):
    """The session's health record (SPEC §4): written at once (the clock was synchronised when the session
    started, so nothing is held back), with the synchronised clock's times: the host's time of the taps
    that started and answered the attempt, not the boot clock's months-old date."""
    state = ssh.state() or {}
    check("the health log holds nothing back for the wall clock (the device's state: health on)", state.get("health") == "on", state.get("health"))
    text = ssh.run(f"cat {HEALTH_LOG}", timeout=60).stdout
    lines = text.splitlines()
    records = json_lines(text)
    ours = [r for r in records if (r.get("metadata") or {}).get("HKMetadataKeySyncIdentifier") == timeline.get("session_id")]
    if not check(f"the session's health record is in {HEALTH_LOG} (by its id)", len(ours) == 1, f"{len(records)} records; session {timeline.get('session_id')}; {lines[-2:]}"):
        return
    record = ours[0]
    try:
        start = datetime.datetime.fromisoformat(record["startDate"]).timestamp()
        end = datetime.datetime.fromisoformat(record["endDate"]).timestamp()
    except (KeyError, ValueError) as error:
        check("its start and end are ISO 8601 times", False, f"{error}: {record}")
        return
    figure("health record start less the host's first tap", f"{start - timeline['first_tap']:+.1f} s ({record['startDate']})")
    figure("health record end less the host's answering tap", f"{end - timeline['answer_tap']:+.1f} s ({record['endDate']})")
    check("its start and end are the host's time of the two taps (within 30 s): the synchronised clock's, not the boot clock's",
          abs(start - timeline["first_tap"]) < 30 and abs(end - timeline["answer_tap"]) < 30, record)


def pair_and_train(driver, ssh, args, address, before_session):
    driver.get(f"http://{HOST}:{PORT}/")
    wait_for(driver, "return document.querySelector('[data-role=pair-form]')", timeout=120)
    heading = driver.execute_script("return document.querySelector('main h1').textContent")
    check(f"the page at http://{HOST}:{PORT}/ asks to pair this browser", heading == "Pair this browser", heading)
    shot(driver, args.artifacts, "1-pair")
    field = driver.find_element(By.ID, "pair-name")
    field.clear()
    field.send_keys(PAIR_NAME)
    tap(driver, driver.find_element(By.ID, "pair-button"))
    wait_for(driver, "return document.querySelector('[data-role=pair-waiting]')", timeout=30)
    check("Pair: the page says to approve on the device", "Approve on the device" in main_text(driver), main_text(driver)[:300])
    state = wait_state(ssh, lambda s: (s.get("pairing_request") or {}).get("name") == PAIR_NAME, 25)
    request = (state or {}).get("pairing_request") or {}
    # The companion binds 0.0.0.0 as an IPv4 socket without a name lookup, so a daemon that starts before
    # DHCP (as here, and on a Pi whose Wi-Fi comes up late) still listens on IPv4; a peer is always named by
    # its IPv4 address (an IPv4-mapped one is unmapped in one place, RequestPeer). Before that fix 2 runs of
    # 5 showed the socket IPv6, bound to ::ffff:0.0.0.0, and the request from ::ffff:10.77.0.1.
    check(f"the device announces the request: '{PAIR_NAME}' from {args.tap_address} (this namespace)",
          request.get("name") == PAIR_NAME and request.get("address") == args.tap_address, state)
    sockets = ssh.run("awk '$4 == \"0A\" && $2 ~ /:2221$/ {print FILENAME, $2}' /proc/net/tcp /proc/net/tcp6", timeout=60).stdout.split()
    check("the companion listens on an IPv4 socket, 0.0.0.0:8737 (none on IPv6)",
          sockets == ["/proc/net/tcp", "00000000:2221"], " ".join(sockets))
    shot(driver, args.artifacts, "2-approve")
    pressed = time.time()
    monitor(args.monitor, "sendkey spc 2500")  # a long press: the board's long_press_ms is 1500
    approved = appears(driver, "return document.querySelector('main h1') && document.querySelector('main h1').textContent === 'Welcome to Chronoception'", timeout=90)
    check("a long press of the device's button (qemu monitor: sendkey spc 2500) approves it: the page continues paired",
          approved, main_text(driver)[:400])
    if not approved:
        shot(driver, args.artifacts, "3-not-paired")
        return
    figure("long press to the page paired", f"{time.time() - pressed:.1f} s")
    check("the key is an HttpOnly cookie", any(c["name"] == "chronoception_key" and c.get("httpOnly") for c in driver.get_cookies())
          and "chronoception_key" not in driver.execute_script("return document.cookie"), driver.get_cookies())
    appears(driver, "return document.querySelector('#w2 + div p strong')", timeout=60)
    welcome = main_text(driver)
    check("Welcome reads the device with the key: idle, on the board keyboard", "Idle" in welcome and "keyboard" in welcome, welcome[:600])
    shot(driver, args.artifacts, "3-paired")
    tap(driver, driver.find_element(By.ID, "finish-onboarding"))
    before_session()

    # 5. A session from the page: Challenge, 10 s, one attempt, played with the space bar.
    print("a session from the page:", flush=True)
    driver.get(f"http://{HOST}:{PORT}/#/settings")
    wait_for(driver, "return document.getElementById('s-default-interval')", timeout=60)
    driver.execute_script("""const mode = document.getElementById('s-default-mode'); mode.value = 'challenge';
        const interval = document.getElementById('s-default-interval'); interval.value = '10s';
        document.getElementById('s-default-attempts').value = '1';""")
    driver.execute_script("document.getElementById('s-default-interval').form.querySelector('button[type=submit]').click()")
    saved = appears(driver, "return Array.from(document.querySelectorAll('.status.ok')).some(p => p.textContent === 'Saved.')", timeout=60)
    check("Settings: Challenge, 10 s, one attempt saved from the page", saved, main_text(driver)[:400])
    driver.get(f"http://{HOST}:{PORT}/#/home")
    driver.refresh()
    wait_for(driver, "return document.querySelector('[data-role=start-next]')", timeout=60)
    label = driver.execute_script("return document.querySelector('[data-role=start-next]').textContent")
    check("Home offers to start it on the device", label.startswith("Start Challenge") and "×1" in label and "10" in label, label)
    driver.execute_script("document.querySelector('[data-role=start-next]').click()")
    started = appears(driver, "const p = document.querySelector('#live-card [data-role=progress]'); return p && p.textContent.includes('press the button on the device to start')", timeout=60)
    check("started from the page: the live card says to press the device's button", started, main_text(driver)[:400])
    shot(driver, args.artifacts, "4-started")
    monitor(args.monitor, "sendkey spc 100")  # a tap: the attempt begins
    begun = time.time()
    running = wait_state(ssh, lambda s: s.get("state") == "AttemptRunning", 30)
    check("a tap of the button starts the attempt (the device's state: AttemptRunning)", (running or {}).get("state") == "AttemptRunning", running)
    timeline = {"first_tap": begun, "session_id": (running or {}).get("session_id")}
    time.sleep(max(0, 10 - (time.time() - begun)))
    monitor(args.monitor, "sendkey spc 100")  # the answer: "10 s have passed"
    timeline["answer_tap"] = time.time()
    completed = appears(driver, "const e = document.querySelector('#live-card [data-role=end]'); return e && e.textContent === 'Completed and saved.'", timeout=90)
    card = driver.execute_script("const c = document.getElementById('live-card'); return c ? c.innerText : ''")
    check("a second tap about 10 s later answers it: the live card says completed and saved", completed, card or main_text(driver)[:400])
    timeline["completed"] = completed
    feedback = driver.execute_script("return Array.from(document.querySelectorAll('#live-card [data-role=feedback] li')).map(li => li.innerText)")
    check("with the device's feedback for the attempt (1 of 1)", len(feedback) == 1 and feedback[0].startswith("1 of 1:"), feedback)
    shot(driver, args.artifacts, "5-completed")
    final = wait_state(ssh, lambda s: (s.get("last_session") or {}).get("time_acuity_score") is not None, 30) or {}
    score = (final.get("last_session") or {}).get("time_acuity_score")
    driver.get("about:blank")
    driver.get(f"http://{HOST}:{PORT}/#/home")
    appears(driver, "const s = document.querySelector('[aria-labelledby=h-last]'); return s && s.querySelector('.big')", timeout=60)
    last = driver.execute_script("const s = document.querySelector('[aria-labelledby=h-last]'); return s ? s.innerText : ''")
    check(f"Home's Last session shows the result: Time Acuity {score} (the device's), Challenge · 10s",
          score is not None and f"{score} Time Acuity" in last and "Challenge · 10s" in last, f"page: {last!r}; device: {final.get('last_session')}")
    shot(driver, args.artifacts, "6-result")
    links = driver.find_elements(By.CSS_SELECTOR, "[aria-labelledby=h-last] a")
    if not check("with a link to the session's attempts", links and links[0].text == "See its attempts", [l.text for l in links]):
        return timeline
    tap(driver, links[0])
    appears(driver, "return document.querySelector('main h1') && !Array.from(document.querySelectorAll('main p')).some(p => p.textContent === 'Loading…') && document.querySelector('main table')", timeout=60)
    page = main_text(driver)
    check("the session's page lists its one attempt against the 10 s target", "Challenge" in page and "10s" in page and driver.execute_script(
        "return document.querySelectorAll('main table tbody tr').length") == 1, page[:600])
    shot(driver, args.artifacts, "7-session")
    return timeline


main()
