"""What every part of the browser tier (Tests/web/*_test.py) does the same way: counting its checks
and writing them for Tests/web/run's summary, its command line, running commands, free loopback
ports, headless Chromium, the API over HTTP, the processes it starts (companion, collector, daemon)
and the phone/desktop × light/dark views it takes screenshots in. One copy, so a fix reaches every part."""
import argparse, json, os, socket, subprocess, sys, time, traceback, urllib.request

from browser import wait_for
from selenium import webdriver

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
THEMES = ("light", "dark")
# The flags every part starts Chromium with: headless, one CSS pixel a device pixel, no translation bar.
CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                  "--force-device-scale-factor=1", "--disable-features=Translate")


class Checks:
    """A part's checks, counted: `check(name, condition, detail)` counts a pass or prints
    `FAIL part: name: detail` (`FAIL name: detail` when made without a part's name, as the companion
    and pairing parts print); `finish(counts)` appends "PASSED FAILED" to the counts file and exits
    non-zero when any failed."""

    def __init__(self, part=None):
        self.part, self.passed, self.failed = part, 0, 0

    def __call__(self, name, condition, detail=""):
        if condition:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL {self.part + ': ' if self.part else ''}{name}{': ' + str(detail) if detail else ''}")

    def crash(self, name, error, limit=3):
        """A test that raised is one failure named `name`, with the error's first line (and a short trace)."""
        traceback.print_exc(limit=limit)
        self(name, False, str(error).splitlines()[0] if str(error) else repr(error))

    def attempt(self, heading, test, prefix="", limit=3):
        """Runs one test under its heading, timed; a raise is one failure named `prefix` and the error's
        class, and the caller's next test still runs. Answers what the test answers (None if it raised)."""
        print(f"{heading}:")
        begun = time.time()
        try:
            return test()
        except Exception as error:  # a crashed test is a failure
            self.crash(prefix + error.__class__.__name__, error, limit)
        finally:
            print(f"  ({time.time() - begun:.1f} s)")

    def finish(self, counts):
        if counts:
            with open(counts, "a") as file:
                file.write(f"{self.passed} {self.failed}\n")
        sys.exit(1 if self.failed else 0)


def parser(only=False):
    """The command line Tests/web/run gives every part (more options may be added to it)."""
    arguments = argparse.ArgumentParser()
    arguments.add_argument("--binary", required=True)
    arguments.add_argument("--artifacts", required=True)
    arguments.add_argument("--counts", help="append 'PASSED FAILED' to this file for Tests/web/run's summary")
    if only:
        arguments.add_argument("--only", help="run only the tests whose name contains this (development)")
    return arguments


def arguments(with_parser=None):
    """The parsed command line, with the screenshots' directory made."""
    args = (with_parser or parser()).parse_args()
    os.makedirs(args.artifacts, exist_ok=True)
    return args


def run(*command, **options):
    """A command's standard output; a non-zero exit raises with its error output."""
    done = subprocess.run(list(command), capture_output=True, text=True, timeout=120, **options)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout


def free_port(host="127.0.0.1"):
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def api(base, path, method="GET", body=None, **options):
    """The JSON answer of /api/v1`path` at `base` (a JSON `body` when given); a non-2xx raises
    urllib.error.HTTPError."""
    request = urllib.request.Request(base + "/api/v1" + path, method=method,
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json"} if body is not None else {})
    with urllib.request.urlopen(request, **options) as response:
        return json.load(response)


def chromium_options(flags=()):
    """Headless Chromium's options, with the browser's console kept for `js_errors`."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in (*CHROMIUM_FLAGS, *flags):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return options


def make_driver(downloads=None, flags=(), scripts=()):
    """Headless Chromium driven locally; `downloads` is where its downloads land, `flags` more
    command-line flags, `scripts` run before any page script on every new document."""
    options = chromium_options(flags)
    if downloads:
        options.add_experimental_option("prefs", {"download.default_directory": downloads, "download.prompt_for_download": False})
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path="/usr/bin/chromedriver"))
    if downloads:
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads, "eventsEnabled": True})
    for source in scripts:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": source})
    return driver


def set_size(driver, size):
    width, height = SIZES[size]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == "phone"})


def set_view(driver, size, theme="light"):
    set_size(driver, size)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": theme}]})


def views(driver):
    """Sets each view in turn (phone and desktop, light and dark) and yields its (size, theme)."""
    for size in SIZES:
        for theme in THEMES:
            set_view(driver, size, theme)
            yield size, theme


def loaded(driver):
    """The page has its heading and no "Loading…" left (pages show it until their API answers)."""
    wait_for(driver, "return document.querySelector('main h1') && !Array.from(document.querySelectorAll('main p')).some(p => p.textContent === 'Loading…')")


def open_page(driver, base, hash_):
    driver.get("about:blank")
    driver.get(base + "/" + hash_)
    loaded(driver)


def onboard(driver, base):
    """Onboarding marked done for the origin at `base`, so pages open where the test asks (not at Welcome)."""
    driver.get(base + "/")
    driver.execute_script("localStorage.setItem('chronoception.onboarded', '1')")


def download(driver, link, downloads, timeout=15):
    """Empties `downloads`, clicks `link` and answers the path of the CSV it downloads (Chromium names
    it .csv once complete), or None when none came within `timeout` s."""
    for leftover in os.listdir(downloads):
        os.remove(os.path.join(downloads, leftover))
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    deadline = time.time() + timeout
    while time.time() < deadline:
        files = [f for f in os.listdir(downloads) if f.endswith(".csv")]
        if files:
            return os.path.join(downloads, files[0])
        time.sleep(0.05)
    return None


def press(driver, element):
    """A person scrolls to a button before pressing it (on a phone the tab bar covers the bottom)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def end(process, grace=5):
    """Stops a process this part started: terminate, and kill it if it is still there after `grace` s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Process:
    """A server this part started: its log file, and stopping it (terminate, then kill after `grace` s)."""

    def start(self, command, log_path, ready, what, env=None, stdin=None, grace=5):
        self.log_path, self.grace = log_path, grace
        self.log = open(log_path, "wb")
        self.process = subprocess.Popen(command, stdin=stdin, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        for _ in range(200):
            try:
                if ready():
                    return
            except (OSError, ValueError, KeyError):
                pass
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the {what} did not start: " + open(log_path, errors="replace").read()[-2000:])

    def stop(self):
        end(self.process, self.grace)
        if not self.log.closed:
            self.log.close()


class Companion(Process):
    """`chronoception companion` on a free loopback port over `data`."""

    def __init__(self, binary, data, log_path):
        self.binary, self.data = binary, data
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        self.start([binary, "companion", "--data-dir", data, "--listen", f"127.0.0.1:{port}", "--no-socket"], log_path,
                   lambda: urllib.request.urlopen(self.base + "/api/v1/openapi.json", timeout=1).read(), "companion",
                   env=dict(os.environ, SWIFT_BACKTRACE="enable=no"))

    def api(self, path, method="GET", body=None):
        return api(self.base, path, method, body)


class Collector(Process):
    """A real collector (`chronoception collector serve`) on a free loopback port, its SQLite store in `work`."""

    def __init__(self, binary, work):
        self.binary, self.data = binary, os.path.join(work, "collector")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.start([binary, "collector", "serve", "--data-dir", self.data, "--listen", f"127.0.0.1:{self.port}", "--no-socket"],
                   os.path.join(work, "collector.log"), lambda: urllib.request.urlopen(self.url + "/api/v1/devices", timeout=1).read(), "collector")

    def cli(self, *arguments):
        return run(self.binary, "collector", *arguments, "--data-dir", self.data)

    def api(self, path):
        return api(self.url, path)


def idle(device):
    return device["device"]["state"] == "Idle"


class Daemon(Process):
    """`chronoception run` on the desktop board in test mode over `data`, serving the API on a free
    port of `host`; on a Unix socket too when `socket_path` is given; writing a state file when
    `state_file` is given; `feedback_ms` sets the summary's length; `extra` are more `run` arguments.
    Ready once GET /device answers `ready` (Idle unless told)."""

    def __init__(self, binary, data, log_path, *extra, host="127.0.0.1", socket_path=None, state_file=None,
                 feedback_ms=None, auto_start=False, ready=idle):
        self.binary, self.data, self.socket_path = binary, data, socket_path
        port = free_port(host)
        self.base = f"http://{host}:{port}"
        env = dict(os.environ, CHRONOCEPTION_TEST_MODE="1", CHRONOCEPTION_BOARDS_DIR=os.path.abspath("boards"),
                   XDG_RUNTIME_DIR=os.path.dirname(log_path), SWIFT_BACKTRACE="enable=no")
        command = [binary, "run", "--board", "desktop", "--key-hold-ms", "100", "--no-realtime",
                   *(["--state-file", state_file] if state_file else ["--no-state-file"]),
                   *(["--feedback-ms", str(feedback_ms)] if feedback_ms is not None else []),
                   *([] if auto_start else ["--no-auto-start"]),
                   "--data-dir", data, "--listen", f"{host}:{port}",
                   *(["--socket", socket_path] if socket_path else ["--no-socket"]), *extra]
        self.start(command, log_path, lambda: ready(self.api("/device")), "daemon", env=env, stdin=subprocess.PIPE, grace=10)

    def api(self, path, method="GET", body=None):
        return api(self.base, path, method, body, timeout=10)

    def until_device(self, condition, what, timeout=30):
        """GET /device's `device` once `condition` holds for it (polled every 50 ms); `what` names the wait."""
        end = time.time() + timeout
        while time.time() < end:
            device = self.api("/device")["device"]
            if condition(device):
                return device
            time.sleep(0.05)
        raise RuntimeError(f"the device never {what}: {self.api('/device')}")

    def press(self):
        """A press of the device's button: a space on the daemon's stdin (the desktop board)."""
        self.process.stdin.write(b" ")
        self.process.stdin.flush()

    def long_press(self, seconds=1.9):
        """Holds space: a terminal sends a held key as repeats (every 40 ms here), past the long-press time (1.5 s)."""
        end = time.time() + seconds
        while time.time() < end:
            self.press()
            time.sleep(0.04)
