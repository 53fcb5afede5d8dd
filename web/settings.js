// Chronoception companion: the Settings page.
// Plain scripts that index.html loads in order (no build step); they share their top-level names.
"use strict";
async function pageSettings() {
  setTitle("Settings");
  main.replaceChildren(el("h1", {}, "Settings"), el("p", { class: "muted" }, "Loading…"));
  let settings, health, keys;
  try { [settings, health, keys] = await Promise.all([api("/settings"), api("/health"), api("/keys").catch(() => ({ keys: [] }))]); }
  catch (error) { main.lastChild.replaceWith(errorBox(error)); return; }
  const v = settings.values, d = settings.descriptions;
  const note = el("p", { class: "status", role: "status", hidden: true });
  async function save(values, target = note) {
    target.hidden = false; target.className = "status"; target.textContent = "Saving…";
    try {
      settings = await api("/settings", { method: "PATCH", body: { version: settings.version, values } });
      target.className = "status ok"; target.textContent = "Saved.";
      return true;
    } catch (error) {
      target.className = "status error";
      target.textContent = error.code === "version_conflict" ? "The settings were changed elsewhere meanwhile; the page has been reloaded with them. Make your change again." : error.message;
      if (error.code === "version_conflict") setTimeout(pageSettings, 1500);
      return false;
    }
  }
  const field = (key, label, input) => { input.id = `s-${key}`; input.setAttribute("aria-describedby", `d-${key}`);
    return el("div", {}, el("label", { for: `s-${key}` }, label), input, el("p", { class: "hint", id: `d-${key}` }, d[key])); };
  const modes = ["challenge", "passive"].concat(v["fear-mode"] === "on" ? ["fear"] : []);
  const mode = el("select", {}, modes.map((m) => el("option", { value: m, selected: m === v["default-mode"] }, modeName(m))));
  const interval = el("input", { type: "text", value: v["default-interval"], inputmode: "text", autocomplete: "off" });
  const attempts = el("input", { type: "number", min: 1, max: 99, value: v["default-attempts"] });
  const reps = el("input", { type: "number", min: 1, max: 99, value: v["default-repetitions"] });
  const autoStart = el("input", { type: "checkbox", id: "s-auto-start", checked: v["auto-start"] === "on", "aria-describedby": "d-auto-start" });
  const longPress = el("input", { type: "number", min: 1, value: v["long-press-ms"] });
  const defaults = el("form", { class: "card", "aria-labelledby": "st-defaults", onsubmit: (e) => { e.preventDefault(); save({
      "default-mode": mode.value, "default-interval": interval.value.trim(), "default-attempts": attempts.value,
      "default-repetitions": reps.value, "auto-start": autoStart.checked ? "on" : "off", "long-press-ms": longPress.value }); } },
    el("h2", { id: "st-defaults" }, "Session defaults"),
    field("default-mode", "Mode", mode), field("default-interval", "Interval", interval),
    field("default-attempts", "Attempts (Challenge, Fear)", attempts), field("default-repetitions", "Repetitions (Passive)", reps),
    el("label", { class: "inline" }, autoStart, "Start the next attempt by itself"), el("p", { class: "hint", id: "d-auto-start" }, d["auto-start"]),
    field("long-press-ms", "Long press (ms)", longPress),
    el("div", { class: "row" }, el("button", { type: "submit" }, "Save defaults")), note);

  const fearNote = el("p", { class: "status", role: "status", hidden: true });
  const fear = el("input", { type: "checkbox", id: "s-fear", checked: v["fear-mode"] === "on", "aria-describedby": "d-fear" });
  fear.addEventListener("change", async () => { if (!(await save({ "fear-mode": fear.checked ? "on" : "off" }, fearNote))) fear.checked = !fear.checked; });
  const fearCard = el("section", { class: "card", "aria-labelledby": "st-fear" }, el("h2", { id: "st-fear" }, "Fear Mode"),
    el("p", { id: "d-fear" }, "An experiment, off by default: like Challenge, but an unpleasant sound plays when an attempt misses by more than the threshold (",
      `${Math.round(parseFloat(v["fear-threshold"]) * 100)}%`, "). Some people find that it sharpens attention; others find it stressful. Turn it on only if you want that, and turn it off at any time."),
    el("label", { class: "inline" }, fear, "Allow Fear Mode"), fearNote);

  const healthNote = el("p", { class: "status", role: "status", hidden: true });
  const logging = el("input", { type: "checkbox", id: "s-health", checked: v["health-logging"] === "on" });
  logging.addEventListener("change", async () => { if (!(await save({ "health-logging": logging.checked ? "on" : "off" }, healthNote))) logging.checked = !logging.checked; });
  const owed = health.owed_total;
  const healthCard = el("section", { class: "card", "aria-labelledby": "st-health" }, el("h2", { id: "st-health" }, "Health log"),
    el("p", {}, `Status: ${health.status}. ${health.written} written, ${health.skipped} skipped, ${owed} owed. File: `, el("code", {}, health.path)),
    health.wall_clock_check && !health.wall_clock_synchronised ? el("p", { class: "muted" }, "The wall clock is not synchronised yet: records wait until it is.") : null,
    el("label", { class: "inline" }, logging, "Write sessions to the health log"),
    el("div", { class: "row" }, el("button", { type: "button", class: "secondary", disabled: owed === 0, onclick: async () => {
      healthNote.hidden = false; healthNote.className = "status"; healthNote.textContent = "Writing owed records…";
      try { const r = await api("/health/backfill", { method: "POST", body: {} });
        healthNote.className = r.failure ? "status error" : "status ok";
        healthNote.textContent = r.failure || `Wrote ${r.written}; ${r.already_in_log} were already there; ${r.held} held back.`; }
      catch (error) { healthNote.className = "status error"; healthNote.textContent = error.message; } } }, owed ? `Backfill ${owed} owed` : "Nothing to backfill")),
    healthNote);

  const dataNote = el("div", { role: "status" });
  async function deleteStep1() {
    try {
      const r = await api("/delete-all", { method: "POST", body: {} });
      dataNote.replaceChildren(el("p", { class: "status error" }, r.message),
        el("div", { class: "row" },
          el("button", { type: "button", class: "danger", id: "delete-confirm", onclick: async () => {
            try { const done = await api("/delete-all/confirm", { method: "POST", body: { confirmation_token: r.confirmation_token } });
              dataNote.replaceChildren(el("p", { class: "status ok" }, done.message)); }
            catch (error) { dataNote.replaceChildren(errorBox(error)); } } }, `Yes, delete ${r.sessions} sessions`),
          el("button", { type: "button", class: "secondary", onclick: () => dataNote.replaceChildren() }, "Keep my data")));
      document.getElementById("delete-confirm").focus();
    } catch (error) { dataNote.replaceChildren(errorBox(error)); }
  }
  const dataCard = el("section", { class: "card", "aria-labelledby": "st-data" }, el("h2", { id: "st-data" }, "Your data"),
    el("p", {}, "Download every session as CSV (one row per attempt or boundary)."),
    el("div", { class: "row" }, el("a", { class: "button secondary", href: `${API}/export.csv?all=1`, download: "chronoception-sessions.csv" }, "Export CSV")),
    el("h3", {}, "Delete all"),
    el("p", {}, "Deletes every session, preset and setting on the device, in two steps. The health log file is left untouched."),
    el("div", { class: "row" }, el("button", { type: "button", class: "danger", id: "delete-start", onclick: deleteStep1 }, "Delete all data…")), dataNote);

  main.lastChild.replaceWith(defaults, fearCard, healthCard, dataCard, keysCard(keys.keys)); // keys.js
}
