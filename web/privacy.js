// Chronoception companion: the glanceable-privacy switch on Settings (the original's "hide sensitive
// text on the lock screen"): the state file and a desktop bar then show no feedback and no score.
// Plain scripts that index.html loads in order (no build step); they share their top-level names.
"use strict";
// `values` as GET /settings gave them; `save(values, note)` is Settings' own writer
// (it keeps the settings' version, so the other cards' next save is not refused as stale).
function privacyCard(values, save) {
  const note = el("p", { class: "status", role: "status", hidden: true });
  const box = el("input", { type: "checkbox", id: "s-glanceable-privacy", checked: values["glanceable-privacy"] === "on", "aria-describedby": "d-glanceable-privacy" });
  box.addEventListener("change", async () => { if (!(await save({ "glanceable-privacy": box.checked ? "on" : "off" }, note))) box.checked = !box.checked; });
  return el("section", { class: "card", "aria-labelledby": "st-privacy", "data-role": "privacy-card" },
    el("h2", { id: "st-privacy" }, "Privacy at a glance"),
    el("p", { id: "d-glanceable-privacy" }, "The device's status file and a desktop status bar show what it is doing, for anyone who passes by. ",
      "Turn this on to keep your results off them: no feedback and no score, only the state, the mode, the interval and the attempt count. This page still shows everything."),
    el("label", { class: "inline" }, box, "Hide scores and feedback"), note);
}
