// Chronoception companion: the Settings page.
// Plain scripts that index.html loads in order (no build step); they share their top-level names.
"use strict";
// `flash`: words to show in "Your data" once the page is drawn again (delete-all's outcome: every
// card is read afresh then, since the settings, the health log's counts and the keys all changed).
async function pageSettings(flash) {
  setTitle("Settings");
  main.replaceChildren(el("h1", {}, "Settings"), el("p", { class: "muted" }, "Loading…"));
  const shown = location.hash;
  let settings, health, keys;
  try { [settings, health, keys] = await Promise.all([api("/settings"), api("/health"), api("/keys").catch(() => ({ keys: [] }))]); }
  catch (error) { main.lastChild.replaceWith(errorBox(error)); return; }
  if (location.hash !== shown) return; // left the page meanwhile
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
      target.replaceChildren(...withCode(error.code === "version_conflict" ? "The settings were changed elsewhere meanwhile; the page has been reloaded with them. Make your change again." : error.words || error.message));
      // Read again after a moment, unless the person has gone to another page meanwhile.
      const shown = location.hash;
      if (error.code === "version_conflict") setTimeout(() => { if (location.hash === shown) pageSettings(); }, 1500);
      return false;
    }
  }
  const field = (key, label, input) => { input.id = `s-${key}`; input.setAttribute("aria-describedby", `d-${key}`);
    return el("div", {}, el("label", { for: `s-${key}` }, label), input, el("p", { class: "hint", id: `d-${key}` }, d[key])); };
  // The modes offered follow the Fear Mode switch at once (no reload): the person's unsaved choice
  // stays when it is still offered, otherwise the stored default shows (turning Fear off moves a
  // Fear default back to Challenge).
  const mode = el("select", {});
  function fillModes() {
    const modes = ["challenge", "passive", "reproduction"].concat(settings.values["fear-mode"] === "on" ? ["fear"] : []);
    const chosen = modes.includes(mode.value) ? mode.value : settings.values["default-mode"];
    mode.replaceChildren(...modes.map((m) => el("option", { value: m }, modeName(m))));
    mode.value = modes.includes(chosen) ? chosen : modes[0];
  }
  fillModes();
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
    field("default-attempts", "Attempts (Challenge, Fear, Reproduction)", attempts), field("default-repetitions", "Repetitions (Passive)", reps),
    el("label", { class: "inline" }, autoStart, "Start the next attempt by itself"), el("p", { class: "hint", id: "d-auto-start" }, d["auto-start"]),
    field("long-press-ms", "Long press (ms)", longPress),
    el("div", { class: "row" }, el("button", { type: "submit" }, "Save defaults")), note);

  const fearNote = el("p", { class: "status", role: "status", hidden: true });
  const fear = el("input", { type: "checkbox", id: "s-fear", checked: v["fear-mode"] === "on", "aria-describedby": "d-fear" });
  fear.addEventListener("change", async () => {
    if (await save({ "fear-mode": fear.checked ? "on" : "off" }, fearNote)) fillModes(); else fear.checked = !fear.checked;
  });
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

  // Delete-all in two steps, in the page's own words (the API's message names its routes for API
  // clients). The token lasts expires_in_seconds: when that passes unanswered, the page says so.
  const dataNote = el("div", { role: "status", tabindex: "-1" });
  async function deleteStep1() {
    try {
      const r = await api("/delete-all", { method: "POST", body: {} });
      const expiry = setTimeout(() => {
        if (!dataNote.contains(document.getElementById("delete-confirm"))) return;
        dataNote.replaceChildren(el("p", { class: "status" }, "Time ran out, so nothing was deleted. Press “Delete all data…” again if you still want to."));
      }, r.expires_in_seconds * 1000);
      dataNote.replaceChildren(
        el("p", { class: "status error", "data-role": "delete-warning" },
          `This deletes ${plural(r.sessions, "session")} and every preset and setting on the device. Records already written to the health log stay in its file (`,
          el("code", {}, r.health_log_file), `). Press “Yes, delete” within ${r.expires_in_seconds === 60 ? "a minute" : intervalText(r.expires_in_seconds)} to go ahead.`),
        el("div", { class: "row" },
          el("button", { type: "button", class: "danger", id: "delete-confirm", onclick: async () => {
            clearTimeout(expiry);
            try {
              const done = await api("/delete-all/confirm", { method: "POST", body: { confirmation_token: r.confirmation_token } });
              pageSettings(`Deleted ${plural(done.deleted_sessions, "session")}; presets and settings are back to their defaults. The health log file was left untouched.`);
            } catch (error) { dataNote.replaceChildren(errorBox(error)); } } }, `Yes, delete ${plural(r.sessions, "session")}`),
          el("button", { type: "button", class: "secondary", onclick: () => { clearTimeout(expiry); dataNote.replaceChildren(el("p", { class: "status" }, "Kept: nothing was deleted.")); } }, "Keep my data")));
      document.getElementById("delete-confirm").focus();
    } catch (error) { dataNote.replaceChildren(errorBox(error)); }
  }
  if (flash) dataNote.append(el("p", { class: "status ok", "data-role": "delete-done" }, flash));
  // The CSV as `chronoception export csv` offers it: the last 90 days (its default) or everything.
  const dataCard = el("section", { class: "card", "aria-labelledby": "st-data" }, el("h2", { id: "st-data" }, "Your data"),
    el("p", {}, "Download your sessions as CSV, one row per attempt or Passive boundary."),
    el("div", { class: "row" },
      el("a", { class: "button secondary", href: `${API}/export.csv?days=90`, download: true, "data-role": "csv-90" }, "Last 90 days"),
      el("a", { class: "button secondary", href: `${API}/export.csv?all=true`, download: true, "data-role": "csv-all" }, "Everything")),
    el("h3", {}, "Delete all"),
    el("p", {}, "Deletes every session, preset and setting on the device, in two steps. The health log file is left untouched."),
    el("div", { class: "row" }, el("button", { type: "button", class: "danger", id: "delete-start", onclick: deleteStep1 }, "Delete all data…")), dataNote);

  main.lastChild.replaceWith(defaults, fearCard, healthCard, privacyCard(v, save), syncCard(), consentSettingsCard(), dataCard, keysCard(keys.keys)); // keys.js; privacy.js, sync.js, consent.js
  if (flash) dataNote.focus();
}
