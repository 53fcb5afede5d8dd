// Chronoception companion and collector: SPEC §1's display rule for durations, and counted nouns.
// Plain scripts that index.html loads in order (no build step); they share their top-level names.
"use strict";
// SPEC §1's display rule, as the core's DurationText: whole seconds (rounded half away from zero, for
// display only), under 60 s as `Ns`, from 60 s as `Nm Ns` — never `90s`, never `5m`.
function seconds(value) {
  if (value === null || value === undefined) return "—";
  return intervalText(Math.round(Math.abs(value)));
}
// A signed error: its direction as a sign (`+` late, `−` early) and its size by the display rule, so
// `+0s` is the core's "Late by 0s" and `−1s` its "Early by 1s" (the sign comes from the exact value).
function signed(value) { return value === null || value === undefined ? "—" : (value > 0 ? "+" : value < 0 ? "−" : "") + seconds(value); }
// A session's mean signed error in the words of the core's session summary: `no bias` when it rounds
// to 0s, else `bias late by 2s` or `bias early by 1m 5s`.
function biasWords(value) {
  if (value === null || value === undefined) return "—";
  const size = seconds(value);
  return size === "0s" ? "no bias" : `bias ${value > 0 ? "late" : "early"} by ${size}`;
}
function intervalText(totalSeconds) {
  const m = Math.floor(totalSeconds / 60), s = totalSeconds % 60;
  return m === 0 ? `${s}s` : `${m}m ${s}s`;
}
// A count with its noun, as the core's CountText: `1 session`, `3 sessions`.
function plural(count, word) { return `${count} ${word}${count === 1 ? "" : "s"}`; }
