// Chronoception companion and collector: SPEC §1's display rule for durations, and counted nouns.
// Plain scripts that index.html loads in order (no build step); they share their top-level names.
"use strict";
// SPEC §1's display rule, as the core's DurationText: whole seconds (rounded half away from zero, for
// display only), under 60 s as `Ns`, from 60 s as `Nm Ns` — never `90s`, never `5m`.
function seconds(value) {
  if (value === null || value === undefined) return "—";
  return intervalText(Math.round(Math.abs(value)));
}
// An error's size: the display rule, except that an error under half a second that is not zero reads
// `<1s`, not `0s`, so it agrees with its percentage beside it (`+<1s` and `3.2%`, never `+0s`).
function errorSeconds(value) {
  if (value === null || value === undefined) return "—";
  return value !== 0 && Math.round(Math.abs(value)) === 0 ? "<1s" : seconds(value);
}
function signed(value) { return value === null || value === undefined ? "—" : (value > 0 ? "+" : value < 0 ? "−" : "") + errorSeconds(Math.abs(value)); }
function intervalText(totalSeconds) {
  const m = Math.floor(totalSeconds / 60), s = totalSeconds % 60;
  return m === 0 ? `${s}s` : `${m}m ${s}s`;
}
// A count with its noun, as the core's CountText: `1 session`, `3 sessions`.
function plural(count, word) { return `${count} ${word}${count === 1 ? "" : "s"}`; }
