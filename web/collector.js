// Chronoception collector pages: a device (or participant) picker and progress, from /api/v1 only.
// Durations go through format.js's seconds() (loaded first, shared with the companion): one display
// rule for both sites — whole seconds, "37s" under a minute, "1m 5s" from one.
"use strict";

const $ = (selector) => document.querySelector(selector);

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "class") node.className = value; else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

async function api(path) {
  const response = await fetch("/api/v1" + path, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error((body.error && body.error.message) || ("HTTP " + response.status));
    error.code = body.error && body.error.code;
    throw error;
  }
  return body;
}

// Beyond loopback the read API needs a reader key: the person pastes one (printed once by
// `chronoception-collector keys add NAME`); the collector answers with an HttpOnly cookie, so the
// key leaves this script as soon as it is sent.
function showLogin(message) {
  const input = element("input", { id: "reader-key", type: "password", autocomplete: "off", required: "", "aria-describedby": "login-help" });
  const form = element("form", { id: "login-form", class: "login" },
    element("label", { for: "reader-key" }, "Reader key"), input,
    element("button", { type: "submit" }, "Open"),
    element("p", { id: "login-help", class: "hint" }, message + " On the collector, ", element("code", {}, "chronoception-collector keys add NAME"),
      " prints one; paste it here. The browser keeps it as a cookie that scripts cannot read."));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const response = await fetch("/api/v1/login", { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify({ key: input.value }) });
    input.value = "";
    if (response.ok) { window.location.reload(); return; }
    const body = await response.json().catch(() => ({}));
    showStatus((body.error && body.error.message) || ("HTTP " + response.status), "error");
    $("#status").append(form);
  });
  showStatus("");
  $("#status").append(form);
  input.focus();
}

function showStatus(text, kind) {
  const box = $("#status");
  box.replaceChildren();
  if (text) box.append(element("p", { class: "status " + (kind || "") }, text));
}

const modeNames = { challenge: "Challenge", passive: "Passive", fear: "Fear", reproduction: "Reproduction" };

// A table cell that names its column, so a phone can show each row as a stack of "column: value".
const cell = (label, value) => element("td", { "data-label": label }, value);

const trendWords = { improving: "Improving", about_the_same: "About the same", worse: "Worse", not_enough_data: "Not enough data" };

// A session's start is the device's local time (the participant's day); the collector's own instants
// (enrolled, last seen, revoked) are UTC and say so.
function when(text) { return text ? text.replace("T", " ").slice(0, 16) : "never"; }
function whenUTC(text) { return text ? when(text) + " UTC" : "never"; }

// A device's session count, and the sessions the collector refused at ingest because their study tag
// is not this device's (its participant's assignment), when there are any: they never reached the
// progress, so the count alone would hide them.
function sessionsCell(device) {
  const refused = device.refused_sessions;
  if (!Number.isSafeInteger(refused) || refused <= 0) return String(device.sessions);
  return element("span", {}, String(device.sessions),
    element("span", { class: "hint refused" }, " (" + refused + " refused: study tag not this device's)"));
}

// The device's newest consent decision on its study (text, as everything a device sent): a declined
// or withdrawn one stops the study there, and the cell says so.
function consentCell(consent) {
  if (!consent) return "—";
  const words = consent.decision + " " + consent.protocol + "@" + consent.protocol_version + " · " + whenUTC(consent.decided_at);
  return consent.study_stopped ? element("span", { class: "refused" }, words + " (study stopped)") : words;
}

function renderDevices(devices) {
  const picker = $("#device-picker"), participants = $("#participant-picker"), body = $("#device-table tbody");
  picker.replaceChildren(element("option", { value: "" }, "Choose a device…"));
  participants.replaceChildren(element("option", { value: "" }, "Choose a participant…"));
  body.replaceChildren();
  const seen = new Set();
  for (const device of devices) {
    // A revoked device's sessions stay, so it stays in the picker.
    picker.append(element("option", { value: device.id }, device.name + (device.participant ? " (" + device.participant + ")" : "") + (device.revoked_at ? ", revoked" : "")));
    if (device.participant && !seen.has(device.participant)) { seen.add(device.participant); participants.append(element("option", { value: device.participant }, device.participant)); }
    body.append(element("tr", {},
      cell("Name", device.name), cell("Participant", device.participant || "—"), cell("Board", device.board),
      cell("Sessions", sessionsCell(device)), cell("Consent", consentCell(device.consent)), cell("Last seen", whenUTC(device.last_seen_at)),
      cell("State", device.revoked_at ? "revoked " + whenUTC(device.revoked_at) : "enrolled")));
  }
  if (devices.length === 0) {
    showStatus("");
    $("#status").append(element("p", { class: "status" }, "No device is enrolled yet: run ", element("code", {}, "chronoception-collector enrol NAME"),
      " on the collector, then the command it prints on the device."));
  }
}

function renderProgress(title, progress) {
  const section = $("#progress");
  section.replaceChildren(element("h2", {}, title + " — " + plural(progress.completed_sessions, "completed session")));
  if (progress.completed_sessions === 0) { section.append(element("p", { class: "muted" }, "No session has arrived from here yet.")); return; }
  const grid = element("div", { class: "grid" });
  for (const interval of progress.intervals) {
    const strip = element("div", { class: "strip", role: "img", "aria-label": "Zones of the last attempts, oldest first: " + interval.last_zones.join(", ") });
    for (const zone of interval.last_zones) strip.append(element("span", { class: "dot " + zone, title: zone }));
    const card = element("div", { class: "card" },
      element("h3", {}, interval.interval + (interval.pattern ? "  H(I) " + interval.pattern : "")),
      element("p", {}, plural(interval.completed_sessions, "completed session")));
    if (interval.last_zones.length) {
      card.append(
        element("p", {}, "Typical error " + seconds(interval.typical_error_seconds_last_7_days) + " last 7 days, " + seconds(interval.typical_error_seconds_7_days_before) + " the 7 days before → " + trendWords[interval.trend]),
        element("p", { class: "big" }, interval.time_acuity_score === null ? "—" : interval.time_acuity_score),
        element("p", { class: "hint" }, "Time Acuity over the last " + plural(interval.last_zones.length, "attempt")),
        strip);
    } else {
      // Passive sessions only: there is no guess to err, so no error, score or zones to show.
      card.append(element("p", { class: "hint" }, "No timed attempts at this interval: Passive sessions count boundaries, not attempts."));
    }
    grid.append(card);
  }
  section.append(grid);
  const mix = element("div", { class: "mix", role: "img", "aria-label": progress.mode_mix.map((m) => m.mode + " " + Math.round(m.share * 100) + " %").join(", ") });
  for (const entry of progress.mode_mix) if (entry.share > 0) { const part = element("span", { class: entry.mode }); part.style.width = (entry.share * 100) + "%"; mix.append(part); }
  section.append(element("div", { class: "card" }, element("h3", {}, "Mode mix"), mix,
    element("p", { class: "legend" }, ...progress.mode_mix.map((m) => element("span", {}, (modeNames[m.mode] || m.mode) + ": " + m.sessions + " (" + Math.round(m.share * 100) + " %)")))));
  const rows = progress.recent_sessions.map((s) => element("tr", {},
    cell("Started", when(s.started_at)), cell("Mode", modeNames[s.mode] || s.mode), cell("Interval", seconds(s.target_interval_seconds)),
    cell("Result", (s.status === "completed" ? "" : s.status + ", ") + (s.results_withheld ? "results withheld (study block without feedback), " + s.done_count + "/" + s.planned_count
      : s.time_acuity_score === null ? s.done_count + "/" + s.planned_count : "score " + s.time_acuity_score + ", " + s.done_count + "/" + s.planned_count)),
    cell("Health log", s.health_log || "—")));
  section.append(element("div", { class: "card table-wrap" }, element("table", { class: "stack" },
    element("caption", { class: "muted" }, "Recent sessions"),
    element("thead", {}, element("tr", {}, ...["Started", "Mode", "Interval", "Result", "Health log"].map((h) => element("th", { scope: "col" }, h)))),
    element("tbody", {}, ...rows))));
}

async function showProgress(kind, value, label) {
  if (!value) { $("#progress").replaceChildren(); return; }
  try {
    showStatus("");
    const answer = await api("/progress?" + kind + "=" + encodeURIComponent(value));
    renderProgress(label, answer.progress);
    // One short sentence for a screen reader, instead of reading the whole section on every choice.
    $("#progress-announcement").textContent = "Showing " + label + ": " + plural(answer.progress.completed_sessions, "completed session") + ".";
    $("#export-link").setAttribute("href", "/api/v1/export.csv?" + kind + "=" + encodeURIComponent(value));
    $("#export-link").textContent = "Download CSV: " + label;
  } catch (error) { showStatus(error.message, "error"); }
}

async function start() {
  $("#export-link").setAttribute("href", "/api/v1/export.csv");
  try {
    renderDevices((await api("/devices")).devices);
  } catch (error) {
    if (error.code === "key_required") showLogin("From beyond the collector's own machine these pages need a reader key.");
    else if (error.code === "key_unknown") showLogin("The key this browser kept is not (or no longer) a reader key of this collector.");
    else showStatus(error.message, "error");
    return;
  }
  $("#device-picker").addEventListener("change", (event) => {
    $("#participant-picker").value = "";
    const option = event.target.selectedOptions[0];
    showProgress("device", event.target.value, option ? option.textContent : "");
  });
  $("#participant-picker").addEventListener("change", (event) => {
    $("#device-picker").value = "";
    showProgress("participant", event.target.value, "participant " + event.target.value);
  });
}

document.addEventListener("DOMContentLoaded", start);
