"""The inventory of inputs (docs/ARCHITECTURE.md, "One inventory of inputs"): every input that either
program accepts from outside, in both directions, with its one validator, the adversarial class that
attacks it and the fuzzer that covers it (or why none is needed).

It is checked against the source, so a new input cannot arrive unlisted:
- every route either server registers (Sources/ChronoAPI/Routes, Web and Server; Sources/ChronoCollector/Server)
  must be an entry's route;
- every source file that decodes text from outside (JSONDecoder, JSONSerialization, LocatedJSON, Yams,
  a `public static func parse`) must be one of an entry's readers;
- every class named must be one of Tests/adversarial/run's CLASSES (or a tier named `tier:NAME` that
  scripts/test runs), every fuzzer one of Tests/fuzz/run's FUZZERS, and every validator a name that
  occurs in Sources.

    python3 Tests/adversarial/inventory.py      # standalone: one line per failure, then N passed, M failed
"""

import json
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# Each entry: what the input is, where it arrives (routes as "SERVER METHOD /path"), the files that read
# it, the one validator (a name in Sources), the adversarial classes, the fuzzer ("" with `why`).
DEVICE_API = [
    ("GET", "/openapi.json"), ("GET", "/device"), ("POST", "/device/start"), ("POST", "/device/end"),
    ("POST", "/device/discard"), ("GET", "/events"), ("GET", "/sessions"), ("GET", "/sessions/:id"),
    ("PATCH", "/sessions/:id"), ("GET", "/progress"), ("GET", "/progress/daily"), ("GET", "/settings"),
    ("PATCH", "/settings"), ("GET", "/health"), ("POST", "/health/backfill"), ("GET", "/sync"),
    ("GET", "/export.csv"), ("POST", "/delete-all"), ("POST", "/delete-all/confirm"), ("GET", "/learn"),
    ("GET", "/keys"), ("POST", "/keys"), ("DELETE", "/keys/:id"), ("POST", "/login-links"),
    ("POST", "/pairing"), ("GET", "/login"), ("GET", "/study/consent"), ("POST", "/study/consent"),
]

INVENTORY = [
    {"input": "the device API's routes (daemon and companion; Unix socket and TCP)",
     "routes": [f"device {method} {path}" for method, path in DEVICE_API] + ["device GET /", "device GET /index.html", "device GET (page assets)"],
     "readers": ["Sources/ChronoAPI/Support/JSONResponse.swift", "Sources/ChronoAPI/Server/MethodNotAllowedMiddleware.swift",
                 "Sources/ChronoAPI/Routes/SessionRoutes.swift"],
     "validator": "AccessMiddleware",
     "classes": ["1-bounds", "1-schemathesis", "2-host", "4-local-settings", "10-text-as-text", "11-idle-and-limits", "3-descriptor-flood"],
     "fuzzer": "", "why": "schemathesis fuzzes every route from the OpenAPI document (class 1-schemathesis)"},
    {"input": "a sync batch (device → collector)",
     "routes": ["collector POST SyncProtocol.batchesPath"],
     "readers": ["Sources/ChronoCollector/Server/SyncRoutes.swift"],
     "validator": "SessionValidation",
     "classes": ["1-bounds", "6-one-validator", "14-study-tags"],
     "fuzzer": "sync-batch"},
    {"input": "an enrolment request (device → collector)",
     "routes": ["collector POST SyncProtocol.enrolPath"],
     "readers": ["Sources/ChronoCollector/Server/SyncRoutes.swift"],
     "validator": "EnrolmentRequest",
     "classes": ["1-bounds", "11-idle-and-limits"],
     "fuzzer": "", "why": "three short strings, each checked by the enrolment code's own format rule; attacked by class 11's wrong codes"},
    {"input": "the collector's reader API and pages",
     "routes": ["collector GET /", "collector GET /api/v1/devices", "collector GET /api/v1/sessions", "collector GET /api/v1/progress",
                "collector GET /api/v1/export.csv", "collector GET analysis", "collector GET analysis.csv",
                "collector GET export-tidy.csv", "collector GET export-tidy-codebook.csv", "collector POST (login)",
                "collector GET (page assets)"],
     "readers": ["Sources/ChronoCollector/Server/CollectorLoginRoute.swift", "Sources/ChronoCollector/Server/CollectorHTTP.swift"],
     "validator": "CollectorAccessMiddleware",
     "classes": ["1-bounds", "2-host", "10-text-as-text", "11-idle-and-limits", "3-descriptor-flood"],
     "fuzzer": "", "why": "query parameters only, generated at and past their bounds by class 1-bounds"},
    {"input": "a sync receipt, enrolment grant and study assignment (collector → device)",
     "routes": [],
     "readers": ["Sources/ChronoDevice/Sync/SyncExchange.swift"],
     "validator": "SyncReplyValidation",
     "classes": ["6-one-validator", "7-hostile-collector"],
     "fuzzer": "receipt"},
    {"input": "a study protocol document (`chronoception-collector protocol load`, and inside an assignment)",
     "routes": [],
     "readers": ["Sources/ChronoCore/Study/StudyProtocolParsing.swift", "Sources/ChronoCore/Study/LocatedJSON.swift"],
     "validator": "StudyProtocol",
     "classes": ["6-one-validator", "7-hostile-collector"],
     "fuzzer": "", "why": "reached through the receipt fuzzer's assignments; the protocol's own tests cover its grammar"},
    {"input": "a board file (boards/, /etc/chronoception/boards, --board FILE, SIGHUP reload)",
     "routes": [],
     "readers": ["Sources/ChronoHardware/Boards/BoardFileParser.swift", "Sources/ChronoHardware/Boards/YAMLMappingReader.swift"],
     "validator": "BoardFileParser",
     "classes": ["8-board-files"],
     "fuzzer": "board-file"},
    {"input": "the first-boot file (chronoception.txt on the card's FAT partition)",
     "routes": [],
     "readers": ["Sources/ChronoCore/FirstBoot/FirstBootFile.swift", "Sources/ChronoCore/FirstBoot/SSHPublicKey.swift"],
     "validator": "FirstBootFile",
     "classes": ["9-first-boot-file"],
     "fuzzer": "", "why": "generated from its grammar by class 9-first-boot-file, with near-miss keys and Unicode hostnames"},
    {"input": "a fallback file and `import`",
     "routes": [],
     "readers": ["Sources/ChronoStore/Sessions/UnsavedSessionFile.swift", "Sources/ChronoStore/Sessions/UnsavedSessionFileLegacy.swift",
                 "Sources/ChronoDevice/Session/UnsavedSession.swift"],
     "validator": "SessionValidation",
     "classes": ["1-bounds", "6-one-validator"],
     "fuzzer": "fallback-file"},
    {"input": "settings (`settings set`, PATCH /settings, synced preferences)",
     "routes": [],
     "readers": [],
     "validator": "SettingKey",
     "classes": ["1-bounds", "4-local-settings"],
     "fuzzer": "settings"},
    {"input": "an interval as text (every --interval, presets, the page)",
     "routes": [],
     "readers": ["Sources/ChronoCore/Intervals/TrainingInterval.swift"],
     "validator": "TrainingInterval",
     "classes": ["1-bounds"],
     "fuzzer": "interval"},
    {"input": "the state file (read by `status`, the waybar module and the companion)",
     "routes": [],
     "readers": ["Sources/ChronoCLI/Commands/StatusCommand.swift", "Sources/ChronoCLI/Commands/WaybarStatus.swift"],
     "validator": "StateFileText",
     "classes": ["13-write-paths"],
     "fuzzer": "state-file"},
    {"input": "the files at rest in a data directory (the store, its WAL, the health log, the lock)",
     "routes": [],
     "readers": [],
     "validator": "StoreOwnedFiles",
     "classes": ["5-store-outputs", "12-files-at-rest", "13-write-paths"],
     "fuzzer": "", "why": "a damaged database is the fault tier's (tier:faults); their paths and modes are these classes'"},
    {"input": "an edge file (`replay`)",
     "routes": [],
     "readers": ["Sources/ChronoSimulation/ReplayScript.swift"],
     "validator": "ReplayScript",
     "classes": ["tier:faults"],
     "fuzzer": "edge-file"},
    {"input": "the device API's replies, read by the control verbs (`start`, `end`, `companion keys`)",
     "routes": [],
     "readers": ["Sources/ChronoCLI/Commands/Companion/DeviceAPIClient.swift"],
     "validator": "DeviceAPIClient",
     "classes": ["10-text-as-text"],
     "fuzzer": "", "why": "our own daemon over a Unix socket only its user can open; shown as escaped text"},
    {"input": "the collector's serve record (a second `serve` on the same directory)",
     "routes": [],
     "readers": ["Sources/ChronoCollectorCLI/ServeRecord.swift"],
     "validator": "ServeRecord",
     "classes": ["13-write-paths"],
     "fuzzer": "", "why": "a pid and a port in a file of the collector's own data directory"},
    {"input": "a PostgreSQL URL (`--postgres`, CHRONOCEPTION_POSTGRES_URL)",
     "routes": [],
     "readers": ["Sources/ChronoCollector/Postgres/PostgresURL.swift"],
     "validator": "PostgresURL",
     "classes": ["tier:faults"],
     "fuzzer": "", "why": "given by the collector's operator on its command line"},
    {"input": "the battery's readings (/sys/class/power_supply/NAME, a hwmon input; the power-supply uevents)",
     "routes": [],
     "readers": ["Sources/ChronoHardware/Battery/PowerSupplyValues.swift", "Sources/ChronoHardware/Battery/PowerSupplyEvents.swift"],
     "validator": "PowerSupplyValues",
     "classes": [],
     "fuzzer": "", "why": "short files of the kernel's, each value bounded (64 bytes) and range-checked; BatteryGaugeTests feeds garbage, out-of-range, missing and oversized values"},
    {"input": "the card's update record (chronoception-update.json beside the store; `update status`, the daemon, the boot units)",
     "routes": [],
     "readers": ["Sources/ChronoCore/Update/UpdateRecord+File.swift", "Sources/ChronoDevice/Update/UpdateRecordFile.swift"],
     "validator": "UpdateRecord",
     "classes": [],
     "fuzzer": "update-record"},
    {"input": "RAUC's words about a bundle (`rauc info --output-format=json`, `rauc install`'s progress lines)",
     "routes": [],
     "readers": ["Sources/ChronoCore/Update/BundleInfo.swift", "Sources/ChronoDevice/Update/RaucSystem.swift"],
     "validator": "BundleInfo",
     "classes": [],
     "fuzzer": "update-record"},
    {"input": "a bundle given to `update install` (a file's path or an http(s):// URL)",
     "routes": [],
     "readers": ["Sources/ChronoCLI/Commands/Update/UpdateCommand.swift"],
     "validator": "bundleSource",
     "classes": [],
     "fuzzer": "", "why": "a regular file's path or an http(s) URL of printable characters, passed to RAUC as one argument (no shell), which checks the bundle's signature before anything in it is used; UpdateBundleSourceTests refuses the rest"},
    {"input": "a click on a desktop notification (ActionInvoked on the user's session bus)",
     "routes": [],
     "readers": ["Sources/CDesktopNotify/chrono_desktop_notify.c"],
     "validator": "DesktopNotifier",
     "classes": ["tier:dbus"],
     "fuzzer": "", "why": "only the \"default\" action of an id this process was given counts; the body of the signal is never shown or stored"},
    {"input": "the kernel's descriptor supply (connections held open by peers)",
     "routes": [],
     "readers": [],
     "validator": "ConnectionLimit",
     "classes": ["3-descriptor-flood", "11-idle-and-limits"],
     "fuzzer": "", "why": "a resource, not a text"},
]

# Files that decode only our own output or a load generator's (not inputs from outside).
NOT_INPUTS = {
    "Sources/chronoception-sync-bench/CollectorClient.swift": "the sync benchmark's load generator (not shipped)",
    "Sources/ChronoCollector/Postgres": "rows of the collector's own database",
    "Sources/ChronoCore/Text/JSONValue.swift": "JSONValue(parsing:) is the core's depth-bounded reader (LocatedJSON); each caller is listed as a reader or here",
    "Sources/ChronoStore/Sessions/SessionRecordJSON.swift": "JSONValue(parsing:) of the JSON this program's own encoder just wrote (a session record)",
}

DECODING = re.compile(r"JSONValue\(parsing:|JSONDecoder\(\)\.decode\(|JSONSerialization\.jsonObject\(|LocatedJSON\.parse\(|Yams\.|\bcompose\(yaml|public static func parse\(")
ROUTE = re.compile(r"\b(?:router|group|versioned|open|keyed)\.(get|post|put|patch|delete)\(\s*(?:RouterPath\()?\s*(\"[^\"]*\"|[A-Za-z_.]+)")


def _sources(*folders):
    for folder in folders:
        for directory, _, files in os.walk(os.path.join(ROOT, folder)):
            for name in files:
                if name.endswith(".swift") and ".generated." not in name:
                    yield os.path.relpath(os.path.join(directory, name), ROOT)


def _read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def registered_routes():
    """(server, method, path) for every route registration in the two servers' sources."""
    found = set()
    for server, folders in (("device", ["Sources/ChronoAPI"]), ("collector", ["Sources/ChronoCollector/Server"])):
        for path in _sources(*folders):
            for method, target in ROUTE.findall(_read(path)):
                target = target.strip('"')
                if target == "path":
                    target = "(page assets)" if "Web" in path else "(login)"
                if server == "device" and target.startswith(("device", "sessions", "progress", "settings", "health", "sync",
                                                             "export", "delete-all", "learn", "keys", "login", "pairing",
                                                             "openapi", "events", "study")):
                    target = "/" + target
                found.add((server, method.upper(), target, path))
    return found


def _listed_route(entry_routes, server, method, target):
    if f"{server} {method} {target}" in entry_routes:
        return True
    if server == "collector":
        return f"collector {method} /api/v1/{target}" in entry_routes
    return False


def check(record):
    """record(klass, request, expected, got, ok) — the adversarial tier's Tally.record."""
    classes_text = _read("Tests/adversarial/run")
    classes = {c for listed in re.findall(r"^CLASSES \+?= \[(.*)\]", classes_text, re.M) for c in re.findall(r'"([^"]+)"', listed)}
    fuzzers = set(re.findall(r'^\s*"([a-z-]+)":\s*"Fuzz', _read("Tests/fuzz/run"), re.M))
    tiers = set(re.findall(r"Tests/([a-z-]+)/run", _read("scripts/test")))
    every_source = "\n".join(_read(p) for p in _sources("Sources"))
    klass = "0-inventory"

    for entry in INVENTORY:
        name = entry["input"]
        for c in entry["classes"]:
            ok = c[5:] in tiers if c.startswith("tier:") else c in classes
            record(klass, f"{name}: class {c}", "a class of the tier (or a tier scripts/test runs)", "present" if ok else "missing", ok)
        if entry["fuzzer"]:
            ok = entry["fuzzer"] in fuzzers
            record(klass, f"{name}: fuzzer {entry['fuzzer']}", "a fuzzer of Tests/fuzz/run", "present" if ok else "missing", ok)
        else:
            ok = bool(entry.get("why"))
            record(klass, f"{name}: no fuzzer", "a reason", entry.get("why", "none"), ok)
        ok = re.search(r"\b" + re.escape(entry["validator"]) + r"\b", every_source) is not None
        record(klass, f"{name}: validator {entry['validator']}", "a name in Sources", "found" if ok else "not found", ok)
        for reader in entry["readers"]:
            ok = os.path.isfile(os.path.join(ROOT, reader))
            record(klass, f"{name}: reader {reader}", "a file", "exists" if ok else "missing", ok)

    every_route = {r for entry in INVENTORY for r in entry["routes"]}
    for server, method, target, path in sorted(registered_routes()):
        ok = _listed_route(every_route, server, method, target)
        record(klass, f"route {server} {method} {target} ({path})", "listed in the inventory", "listed" if ok else "unlisted", ok)

    with open(os.path.join(ROOT, "Sources/ChronoAPI/Resources/openapi.json"), encoding="utf-8") as f:
        document = json.load(f)
    for path, operations in sorted(document["paths"].items()):
        for method in sorted(m for m in operations if m in ("get", "post", "put", "patch", "delete")):
            route = "device " + method.upper() + " " + re.sub(r"\{([a-z_]+)\}", r":\1", path)
            ok = route in every_route
            record(klass, f"documented route {route}", "listed in the inventory", "listed" if ok else "unlisted", ok)

    readers = {r for entry in INVENTORY for r in entry["readers"]}
    for path in sorted(_sources("Sources")):
        if path.startswith("Sources/ChronoTesting/") or any(path.startswith(p) for p in NOT_INPUTS):
            continue
        if DECODING.search(_read(path)):
            ok = path in readers
            record(klass, f"decoder {path}", "an inventory entry's reader", "listed" if ok else "unlisted: add it to Tests/adversarial/inventory.py with its class and fuzzer", ok)


def main():
    counts = [0, 0]

    def record(klass, request, expected, got, ok):
        counts[0 if ok else 1] += 1
        if not ok:
            print(f"inventory: FAIL {request} | expected {expected} | got {got}")
    check(record)
    print(f"{counts[0]} passed, {counts[1]} failed")
    sys.exit(1 if counts[1] else 0)


if __name__ == "__main__":
    main()
