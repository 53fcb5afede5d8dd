// Chronoception companion: sync with a collector — the Sync card on Settings, and one line on Home
// only when something is wrong (failing for more than a day, or a copied data directory). The words
// are the device's own (`chronoception sync status`'s lines, from GET /sync).
// Plain scripts that index.html loads in order (no build step); they share their top-level names.
"use strict";
const SYNC_BADGES = { "not-enrolled": ["info", "Not enrolled"], failing: ["warning", "Failing"], ok: ["ok", "Working"] };
function syncLabel(label) { return label.charAt(0).toUpperCase() + label.slice(1); }

// The card, filled when GET /sync answers; Settings places it.
function syncCard() {
  const heading = () => el("h2", { id: "st-sync" }, "Sync");
  const card = el("section", { class: "card", "aria-labelledby": "st-sync", "data-role": "sync-card" }, heading(), el("p", { class: "muted" }, "Loading…"));
  api("/sync").then((s) => {
    const state = s.copied_from_another_machine || s.consecutive_failures > 0 ? "failing" : s.enrolled ? "ok" : "not-enrolled";
    const [kind, words] = SYNC_BADGES[state];
    card.dataset.state = state;
    card.replaceChildren(heading(),
      el("p", {}, el("span", { class: `badge ${kind}`, "data-role": "sync-badge" }, words)),
      el("ul", { class: "plain sync-lines" }, s.lines.map((line) =>
        el("li", { "data-role": "sync-line", "data-label": line.label.split(" (")[0] }, el("strong", {}, syncLabel(line.label)), ": ", withCode(line.text)))),
      el("p", { class: "hint" }, "Enrolling and sending happen on the device (", el("code", {}, "chronoception sync add"), ", ",
        el("code", {}, "chronoception sync now"), "); a running device sends by itself."));
  }).catch((error) => card.replaceChildren(heading(), errorBox(error)));
  return card;
}

// Home: after `anchor`, one line linking to Settings when sync needs a look; nothing otherwise.
async function syncHint(anchor) {
  let s;
  try { s = await api("/sync"); } catch (_) { return; }
  if (!s.attention || !anchor.isConnected) return;
  anchor.after(el("p", { class: "status error", role: "status", "data-role": "sync-hint" }, el("a", { href: "#/settings" }, s.attention)));
}
