#!/usr/bin/env python3
"""Checks the collector's study analysis against an independent computation and against the truth.

Reads every device's own store (SQLite: its attempts' raw monotonic marks, its sessions' targets and
study tags), computes the figures of docs/STUDIES.md "Analysis" again with numpy — per participant,
group (protocol, version, condition, mode) and interval: n, mean, ratio, SD, CV; the Weber fraction
(OLS slope of SD on mean) with its 95 % t interval; bias (mean relative error) with its interval;
learning (each session's mean |relative error| against its order); feedback withheld − shown (Welch)
— with its own t quantile (numerical integration of Student's density, not a table), and compares
them with the collector's JSON (GET /api/v1/analysis and `collector analysis --json`), its CSVs, and
its tidy export (read by pandas without options) and codebook. Then compares the estimates with the
Weber fraction and bias each simulated participant was given (--truth).

Prints one `ok`/`FAIL` line per check and the recovery figures; exits 1 on any failure.
"""
import argparse
import glob
import json
import math
import os
import sqlite3
import sys

import numpy as np
import pandas as pd

# How close the estimates must come to the truth (docs/STUDIES.md, "How the analysis is checked").
# Relative for the Weber fraction; absolute (fraction of the target) for the bias. The reproduction
# and feedback-off blocks have 60 attempts per interval, the feedback-on block 90.
WEBER_TOLERANCE = {"reproduction-off": 0.45, "feedback-off": 0.45, "feedback-on": 0.35}
BIAS_TOLERANCE = {"reproduction-off": 0.04, "feedback-off": 0.04, "feedback-on": 0.035}

failures = 0


def check(name, ok, detail=""):
    global failures
    print(("ok   " if ok else "FAIL ") + name + (f" ({detail})" if detail else ""))
    if not ok:
        failures += 1


# --- Student's t, independently: the density integrated numerically, the quantile by bisection ---
_t_cache = {}


def t975(df):
    if df in _t_cache:
        return _t_cache[df]
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)

    def cdf_upper(t):  # P(0 <= T <= t) by Simpson's rule
        x = np.linspace(0.0, t, 4001)
        y = np.exp(log_c - (df + 1) / 2 * np.log1p(x * x / df))
        h = t / 4000
        return h / 3 * (y[0] + y[-1] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum())

    lo, hi = 0.0, 20.0 if df >= 1 else 1e3
    for _ in range(80):
        mid = (lo + hi) / 2
        if cdf_upper(mid) < 0.475:
            lo = mid
        else:
            hi = mid
    _t_cache[df] = (lo + hi) / 2
    return _t_cache[df]


def line_fit(x, y):
    x, y = np.asarray(x, float), np.asarray(y, float)
    if len(x) < 2 or np.ptp(x) == 0:
        return None
    mx, my = x.mean(), y.mean()
    sxx = ((x - mx) ** 2).sum()
    slope = ((x - mx) * (y - my)).sum() / sxx
    intercept = my - slope * mx
    fit = {"points": len(x), "slope": slope, "intercept": intercept, "lower": None, "upper": None}
    if len(x) >= 3:
        resid = y - (intercept + slope * x)
        se = math.sqrt((resid @ resid) / (len(x) - 2) / sxx)
        half = t975(len(x) - 2) * se
        fit.update(lower=slope - half, upper=slope + half)
    return fit


def mean_ci(values):
    v = np.asarray(values, float)
    m = v.mean()
    if len(v) < 2:
        return m, None, None
    half = t975(len(v) - 1) * v.std(ddof=1) / math.sqrt(len(v))
    return m, m - half, m + half


def welch(a, b):
    a, b = np.asarray(a, float), np.asarray(b, float)
    d = a.mean() - b.mean()
    if len(a) < 2 or len(b) < 2:
        return d, None, None
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    df = (va + vb) ** 2 / (va * va / (len(a) - 1) + vb * vb / (len(b) - 1))
    half = t975(df) * math.sqrt(va + vb)
    return d, d - half, d + half


# --- The devices' own data ---------------------------------------------------------------------
def read_devices(folder):
    """One row per attempt of every completed attempt-mode session, from each device's store."""
    rows = []
    for path in sorted(glob.glob(os.path.join(folder, "*", "chronoception.sqlite"))):
        participant = os.path.basename(os.path.dirname(path))
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        for sid, mode, target_ms, started_unix, protocol, version, condition, feedback, block, block_index, position, idx, start, tap in db.execute("""
                SELECT s.id, s.mode, s.target_interval_ms, s.started_unix_ns, t.protocol_name, t.protocol_version,
                       t.condition_label, t.feedback_shown, t.block_name, t.block_index, t.plan_position,
                       a.attempt_index, a.start_mono_ns, a.tap_mono_ns
                FROM session s JOIN attempt a ON a.session_id = s.id LEFT JOIN session_study t ON t.session_id = s.id
                WHERE s.status = 'completed' AND s.mode <> 'passive'"""):
            rows.append(dict(participant=participant, session=sid, mode=mode, target_ns=target_ms * 1_000_000, started=started_unix,
                             protocol=protocol, version=version, condition=condition, feedback=True if feedback is None else bool(feedback),
                             block=block, block_index=block_index, position=position, index=idx, start=start, tap=tap,
                             produced_ns=tap - start))
        db.close()
    return pd.DataFrame(rows)


def analyse(df):
    """The figures per participant and group, keyed as the collector's JSON."""
    df = df.sort_values(["participant", "started", "session", "index"], kind="mergesort")
    df = df.assign(rel=(df.produced_ns - df.target_ns).astype(float) / df.target_ns.astype(float), produced_s=df.produced_ns / 1e9)
    out = {}
    for participant, p in df.groupby("participant", sort=True):
        groups = {}
        for key, g in p.groupby(["protocol", "version", "condition", "mode"], dropna=False, sort=False):
            cells = []
            for target, c in sorted(g.groupby("target_ns"), key=lambda kv: kv[0]):
                x = c.produced_s.to_numpy()
                sd = x.std(ddof=1) if len(x) >= 2 else None
                cells.append(dict(target_ns=int(target), n=len(x), mean_s=x.mean(), ratio=x.mean() / (target / 1e9), sd_s=sd,
                                  cv=None if sd is None else sd / x.mean()))
            spread = [c for c in cells if c["sd_s"] is not None]
            per_session = g.groupby("session", sort=False).agg(started=("started", "first"), err=("rel", lambda r: np.abs(r).mean()))
            per_session = per_session.reset_index().sort_values(["started", "session"], kind="mergesort")
            groups[tuple(None if (isinstance(k, float) and math.isnan(k)) else k for k in key)] = dict(
                sessions=g.session.nunique(), attempts=len(g), cells=cells, bias=mean_ci(g.rel.to_numpy()),
                weber=line_fit([c["mean_s"] for c in spread], [c["sd_s"] for c in spread]),
                learning=line_fit(np.arange(1, len(per_session) + 1), per_session.err.to_numpy()))
        feedback = {}
        for mode, m in p.groupby("mode"):
            shown, withheld = m[m.feedback], m[~m.feedback]
            if len(shown) and len(withheld):
                feedback[mode] = dict(abs=welch(np.abs(withheld.rel), np.abs(shown.rel)), bias=welch(withheld.rel, shown.rel),
                                      shown=len(shown), withheld=len(withheld))
        out[participant] = dict(groups=groups, feedback=feedback)
    return out


def close(a, b, rel=1e-9):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= rel * max(1.0, abs(b)) + 1e-15


def ulp_close(a, b):
    """Equal to 1e-14: pandas' default float parser is a few ulps off round-trip (R's is exact)."""
    return abs(a - b) <= 1e-14 * abs(b)


def interval_close(ours, theirs, rel):
    """A 95 % interval's bounds, within `rel` of its half-width (the t quantile's own precision)."""
    value, lower, upper = ours
    if lower is None:
        return theirs["lower"] is None and theirs["upper"] is None
    if theirs["lower"] is None:
        return False
    half = (upper - lower) / 2
    return (abs(theirs["value"] - value) <= 1e-9 * max(1, abs(value))
            and abs(theirs["lower"] - lower) <= rel * half + 1e-12 and abs(theirs["upper"] - upper) <= rel * half + 1e-12)


def main():
    parser = argparse.ArgumentParser()
    for name in ["devices", "truth", "analysis", "analysis-cli", "cells", "estimates", "tidy", "codebook", "label"]:
        parser.add_argument("--" + name, required=True)
    args = parser.parse_args()
    label = args.label

    # The t quantile the collector uses (table, Cornish–Fisher, interpolation) against the integral.
    df = read_devices(args.devices)
    ours = analyse(df)
    with open(args.analysis) as f:
        theirs = json.load(f)
    with open(args.analysis_cli) as f:
        check(f"{label}: `collector analysis --json` gives the API's figures", json.load(f) == theirs)

    # --- 1. The collector's figures are the independent ones -----------------------------------
    by_name = {p["participant"]: p for p in theirs["participants"]}
    check(f"{label}: the same participants ({len(ours)})", sorted(by_name) == sorted(ours), f"collector {sorted(by_name)[:3]}…")
    mismatches = []
    compared = 0
    for participant, mine in ours.items():
        report = by_name.get(participant)
        if report is None:
            continue
        groups = {(g["protocol"], g["protocol_version"], g["condition"], g["mode"]): g for g in report["groups"]}
        if sorted(groups, key=str) != sorted(mine["groups"], key=str):
            mismatches.append(f"{participant}: groups {sorted(groups, key=str)} vs {sorted(mine['groups'], key=str)}")
            continue
        for key, g in mine["groups"].items():
            t = groups[key]
            where = f"{participant} {key}"
            if (t["sessions"], t["attempts"], len(t["cells"])) != (g["sessions"], g["attempts"], len(g["cells"])):
                mismatches.append(f"{where}: counts"); continue
            for c, tc in zip(g["cells"], t["cells"]):
                compared += 1
                if tc["target_ns"] != c["target_ns"] or tc["n"] != c["n"] or not all(close(tc[k], c[k]) for k in ["mean_s", "ratio", "sd_s", "cv"]):
                    mismatches.append(f"{where} cell {c['target_ns']}: {tc} vs {c}")
            if not interval_close(g["bias"], t["bias"], 1e-6):
                mismatches.append(f"{where}: bias {t['bias']} vs {g['bias']}")
            for name, fit, their in [("weber", g["weber"], t["weber_fraction"]), ("learning", g["learning"], (t["learning"] or {}).get("slope"))]:
                if fit is None:
                    if their is not None: mismatches.append(f"{where}: {name} should be null")
                elif their is None or not interval_close((fit["slope"], fit["lower"], fit["upper"]), their, 1e-6):
                    mismatches.append(f"{where}: {name} {their} vs {fit}")
        feedback = {c["mode"]: c for c in report["feedback"]}
        if sorted(feedback) != sorted(mine["feedback"]):
            mismatches.append(f"{participant}: feedback modes {sorted(feedback)} vs {sorted(mine['feedback'])}")
        for mode, comparison in mine["feedback"].items():
            t = feedback.get(mode)
            # Welch's df is fractional below 30, where the collector interpolates its table (error < 1e-3).
            if t is None or not interval_close(comparison["abs"], t["abs_error_difference"], 2e-3) or not interval_close(comparison["bias"], t["bias_difference"], 2e-3):
                mismatches.append(f"{participant} {mode}: feedback {t} vs {comparison}")
    check(f"{label}: every figure equals numpy's from the devices' raw marks ({compared} cells, means and SDs to 1e-9, intervals to 1e-6 of their half-width)",
          not mismatches, "; ".join(mismatches[:3]))

    # --- 2. The CSVs hold the JSON's numbers (pandas, no options) ---------------------------------
    cells = pd.read_csv(args.cells)
    estimates = pd.read_csv(args.estimates)
    json_cells = [(p["participant"], g["condition"], c["target_s"], c["n"], c["mean_s"], c["sd_s"]) for p in theirs["participants"] for g in p["groups"] for c in g["cells"]]
    csv_cells = list(zip(cells.participant, cells.condition.where(cells.condition.notna(), None), cells.target_s, cells.n, cells.mean_s, cells.sd_s))
    check(f"{label}: analysis.csv?table=cells holds the JSON's cells, read by pandas without options ({len(cells)} rows)",
          len(csv_cells) == len(json_cells) and all(a[:4] == b[:4] and ulp_close(a[4], b[4]) and ulp_close(a[5], b[5]) for a, b in zip(csv_cells, json_cells)))
    json_weber = [g["weber_fraction"]["value"] for p in theirs["participants"] for g in p["groups"]]
    check(f"{label}: analysis.csv?table=estimates holds the JSON's Weber fractions ({len(estimates)} rows)",
          len(estimates) == len(json_weber) and all(map(ulp_close, estimates.weber_fraction, json_weber)) and estimates.weber_fraction.dtype == np.float64)

    # --- 3. The tidy export and its codebook -----------------------------------------------------
    tidy = pd.read_csv(args.tidy)
    codebook = pd.read_csv(args.codebook)
    check(f"{label}: the codebook lists the tidy export's columns in order, each with a type and a meaning ({len(codebook)} columns)",
          list(codebook.column) == list(tidy.columns) and codebook.meaning.notna().all() and codebook.type.notna().all())
    attempts = tidy[tidy.row_kind == "attempt"]
    check(f"{label}: one tidy row per attempt on the devices ({len(df)})", len(attempts) == len(df) == len(tidy))
    check(f"{label}: pandas reads the tidy export's types without options (integers int64, flags bool, times text)",
          tidy.produced_ns.dtype == np.int64 and tidy.start_mono_ns.dtype == np.int64 and tidy.feedback_shown.dtype == bool
          and tidy.wall_clock_synchronised.dtype == bool and tidy.protocol_version.dtype == np.int64 and tidy.session_started_utc.dtype == object)
    merged = attempts.merge(df, left_on=["session_id", "index"], right_on=["session", "index"], how="inner", suffixes=("", "_device"))
    check(f"{label}: every tidy row's marks, produced duration, error, target and study tag are the device's",
          len(merged) == len(df)
          and (merged.start_mono_ns == merged.start).all() and (merged.end_mono_ns == merged.tap).all()
          and (merged.produced_ns == merged.produced_ns_device).all() and (merged.error_ns == merged.produced_ns_device - merged.target_ns_device).all()
          and (merged.target_ns == merged.target_ns_device).all()
          and (merged.protocol == merged.protocol_device).all() and (merged.condition == merged.condition_device).all()
          and (merged.block == merged.block_device).all() and (merged.feedback_shown == merged.feedback).all()
          and np.allclose(merged.relative_error, (merged.produced_ns_device - merged.target_ns_device) / merged.target_ns_device, rtol=0, atol=1e-15))

    # --- 4. Recovery of the truth ------------------------------------------------------------------
    truth = pd.read_csv(args.truth).set_index("participant")
    rows = []
    for participant, report in by_name.items():
        for g in report["groups"]:
            w, b = truth.loc[participant, "weber"], truth.loc[participant, "bias"]
            rows.append(dict(participant=participant, condition=g["condition"], w=w, b=b, w_hat=g["weber_fraction"]["value"],
                             w_covered=g["weber_fraction"]["lower"] <= w <= g["weber_fraction"]["upper"],
                             b_hat=g["bias"]["value"], b_covered=g["bias"]["lower"] <= b <= g["bias"]["upper"],
                             learning_covers_zero=g["learning"]["slope"]["lower"] <= 0 <= g["learning"]["slope"]["upper"]))
    r = pd.DataFrame(rows)
    r["w_rel_error"] = (r.w_hat - r.w).abs() / r.w
    r["b_error"] = (r.b_hat - r.b).abs()
    for condition, c in r.groupby("condition"):
        print(f"… {label}: {condition}: Weber fraction |error| / truth median {c.w_rel_error.median():.3f}, max {c.w_rel_error.max():.3f} "
              f"(tolerance {WEBER_TOLERANCE[condition]}); its 95 % interval covers the truth for {c.w_covered.sum()} of {len(c)}; "
              f"bias |error| median {c.b_error.median():.4f}, max {c.b_error.max():.4f} (tolerance {BIAS_TOLERANCE[condition]}), "
              f"interval covers {c.b_covered.sum()} of {len(c)}; learning interval covers 0 for {c.learning_covers_zero.sum()} of {len(c)}")
        check(f"{label}: {condition}: every participant's Weber fraction within {WEBER_TOLERANCE[condition]:.0%} of the truth",
              (c.w_rel_error <= WEBER_TOLERANCE[condition]).all(), f"worst {c.loc[c.w_rel_error.idxmax(), 'participant']}: {c.w_rel_error.max():.3f}")
        check(f"{label}: {condition}: every participant's bias within {BIAS_TOLERANCE[condition]} of the truth",
              (c.b_error <= BIAS_TOLERANCE[condition]).all(), f"worst {c.b_error.max():.4f}")
        # The bias interval is exact for this model (95 %: fewer than 24 of 30 has a chance of about
        # 2·10⁻⁴); the scalar fit's (4 points, SD ∝ mean) is not, hence the lower bar (its coverage is
        # about 85 % in a 3,000-study simulation of this design).
        check(f"{label}: {condition}: the bias interval covers the truth for at least 80 % of participants", c.b_covered.mean() >= 0.80)
        check(f"{label}: {condition}: the Weber interval covers the truth for at least 70 % of participants", c.w_covered.mean() >= 0.70)
        check(f"{label}: {condition}: no learning was simulated, and the trend's interval covers 0 for at least 80 %", c.learning_covers_zero.mean() >= 0.80)
    covers = [c["abs_error_difference"]["lower"] <= 0 <= c["abs_error_difference"]["upper"] for p in theirs["participants"] for c in p["feedback"]]
    check(f"{label}: feedback changed nothing in the simulation, and withheld − shown covers 0 for at least 80 % ({sum(covers)} of {len(covers)})",
          len(covers) == len(by_name) and np.mean(covers) >= 0.80)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
