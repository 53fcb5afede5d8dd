// Chronoception companion: a small single-page app over the device API (/api/v1). No build step.
"use strict";
(() => {
const API = "/api/v1";
const ONBOARDED = "chronoception.onboarded";
const main = document.getElementById("main");
let live = null; // the live card's state, kept across page changes
// Progress is the heaviest page: when the app opens on it, its two requests leave before the rest of
// this script is evaluated (pageProgress takes them over).
let progressPrefetch = /^#\/progress\/?$/.test(location.hash) && localStorage.getItem(ONBOARDED)
  ? { report: api("/progress"), daily: api("/progress/daily?days=30") } : null;
if (progressPrefetch) for (const request of Object.values(progressPrefetch)) request.catch(() => {});

// ---- helpers -------------------------------------------------------------------------------
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}
const svgNS = "http://www.w3.org/2000/svg";
function svg(tag, attrs, ...children) {
  const node = document.createElementNS(svgNS, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  for (const child of children.flat()) if (child) node.append(child instanceof Node ? child : String(child));
  return node;
}
async function api(path, options = {}) {
  const init = { method: options.method || "GET", headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (options.body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(options.body);
  }
  const response = await fetch(API + path, init);
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (_) { data = null; }
  if (!response.ok) {
    const error = new Error(data && data.error ? data.error.message : `${response.status} ${response.statusText}`);
    error.status = response.status;
    error.code = data && data.error ? data.error.code : null;
    throw error;
  }
  return data;
}
// SPEC §1's display rule, as the core's DurationText: whole seconds (rounded half away from zero, for
// display only), under 60 s as `Ns`, from 60 s as `Nm Ns` — never `90s`, never `5m`.
function seconds(value) {
  if (value === null || value === undefined) return "—";
  return intervalText(Math.round(Math.abs(value)));
}
function signed(value) { return value === null || value === undefined ? "—" : (value > 0 ? "+" : value < 0 ? "−" : "") + seconds(Math.abs(value)); }
function intervalText(totalSeconds) {
  const m = Math.floor(totalSeconds / 60), s = totalSeconds % 60;
  return m === 0 ? `${s}s` : `${m}m ${s}s`;
}
// One formatter each, made once: toLocaleString with options builds a new one per call, which was
// most of the cost of drawing a chart's day labels.
const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const DAY = new Intl.DateTimeFormat(undefined, { weekday: "short", month: "short", day: "numeric" });
function when(iso) {
  const date = new Date(iso);
  return isNaN(date) ? iso : WHEN.format(date);
}
function dayLabel(day) {
  return DAY.format(new Date(day + "T12:00:00"));
}
const modeName = (mode) => ({ challenge: "Challenge", passive: "Passive", fear: "Fear" }[mode] || mode);
const zoneBadge = (zone) => el("span", { class: `zone ${zone}` }, zone);
function errorBox(error) { return el("p", { class: "status error", role: "alert" }, error.message || String(error)); }
function emptyFirstSession() {
  return el("div", { class: "card" },
    el("h2", {}, "No sessions yet"),
    el("p", {}, "Training happens on the device: press its button to start the offered preset, or, on the device's shell, run ",
      el("code", {}, "chronoception challenge --interval 30s"), "."),
    el("p", {}, "When a session ends it appears here with its attempts, and Progress starts charting your typical error."),
    el("p", {}, el("a", { href: "#/learn" }, "How the modes work")));
}
function setTitle(text) { document.title = `${text} · Chronoception`; }

// ---- device state in words ---------------------------------------------------------------
const STATE_WORDS = {
  NoDevice: "No device attached: this companion serves a data directory for review.",
  Idle: "Idle: ready for a session.",
  Configuring: "Being configured at the device.",
  WaitingForStart: "Session ready: waiting for the first press.",
  AttemptRunning: "Attempt running.",
  FeedbackFlash: "Giving feedback.",
  PassiveRunning: "Passive session running.",
  SessionSummary: "Showing the session summary.",
  Completed: "Session completed.",
  Aborted: "Session discarded.",
  Interrupted: "Session interrupted.",
  Stopped: "Stopped.",
};
const stateWords = (device) => STATE_WORDS[device.state] || device.state;

// ---- live card (SSE) ----------------------------------------------------------------------
// It never shows elapsed time during a Challenge or Fear attempt: it shows no clock at all, only
// what the device has already told the person (feedback arrives once an attempt is answered).
// The stream is closed when the page is hidden for good or put in the back-forward cache: a browser
// allows six connections per server over HTTP/1.1, and streams left open would starve later pages.
let source = null;
const finishedSessions = new Set();
let latestDevice = null; // the last state heard, for Home's status line
window.addEventListener("pagehide", () => { if (source) { source.close(); source = null; } });
window.addEventListener("pageshow", (event) => { if (event.persisted && !source) startEvents(); });
function startEvents() {
  if (!window.EventSource) return;
  source = new EventSource(API + "/events");
  source.addEventListener("state", (event) => {
    const device = JSON.parse(event.data);
    latestDevice = device;
    // The device sends `session_finished` before its last states of that session (FeedbackFlash,
    // SessionSummary): those must not bring a finished session's card back as running.
    const finished = device.session_id && finishedSessions.has(device.session_id);
    if (device.session_in_progress && !finished) {
      if (!live || !live.running || (device.session_id && live.sessionID && device.session_id !== live.sessionID)) {
        const same = live && live.sessionID && live.sessionID === device.session_id;
        live = { running: true, sessionID: device.session_id, feedback: same ? live.feedback : [], message: same ? live.message : "", finished: null, device };
      }
      live.device = device;
      if (device.session_id) live.sessionID = device.session_id;
    } else if (live && live.running) {
      // Left the session without a session_finished (e.g. the daemon stopped): the card ends.
      live.running = false;
      live.device = device;
    } else if (!live) {
      live = { running: false, device, feedback: [], finished: null };
    } else if (!live.finished) {
      live.device = device;
    }
    renderLive();
  });
  source.addEventListener("feedback", (event) => {
    const item = JSON.parse(event.data);
    if (!live) live = { running: true, feedback: [], finished: null, device: null };
    live.feedback = live.feedback.filter((f) => f.index !== item.index).concat([item]);
    renderLive();
  });
  source.addEventListener("session_finished", (event) => {
    const item = JSON.parse(event.data);
    finishedSessions.add(item.session_id);
    if (!live) live = { feedback: [], device: null };
    live.running = false;
    live.finished = item;
    renderLive();
  });
}
function liveCard() {
  if (!live || (!live.running && !live.finished)) return null;
  const device = live.device || {};
  const mode = device.mode;
  // data-updated: when the device published the state shown (tests measure event-to-screen latency with it).
  const card = el("section", { class: "card live", id: "live-card", "aria-labelledby": "live-title", "data-state": device.state || "", "data-updated": device.updated || "" });
  card.append(el("h2", { id: "live-title" }, live.running ? "Session in progress" : "Session ended"));
  if (mode) {
    card.append(el("p", { class: "phase" }, modeName(mode), " · ", el("span", { "data-role": "target" }, device.interval || "")));
  }
  if (live.running) {
    const progress = el("p", { "data-role": "progress" });
    if (mode === "passive") {
      if (device.repetition_count) progress.append(`Boundary ${device.repetitions_done || 0} of ${device.repetition_count} reached`);
    } else if (device.attempt_count) {
      progress.append(`Attempt ${device.attempt || 1} of ${device.attempt_count}`);
      if (device.state === "AttemptRunning") progress.append(" — running; press the button when you think the interval has passed.");
      if (device.state === "WaitingForStart") progress.append(" — press the button on the device to start.");
    }
    card.append(progress);
    if (device.fear_sound) card.append(el("p", { class: "muted" }, `Fear sound: ${device.fear_sound}`));
  } else if (live.finished) {
    const status = live.finished.status;
    card.append(el("p", { "data-role": "end" }, status === "completed" ? "Completed and saved." : status === "aborted" ? "Discarded (saved as aborted)." : `Ended: ${status}.`));
    if (live.finished.session_id) card.append(el("p", {}, el("a", { href: `#/session/${encodeURIComponent(live.finished.session_id)}` }, "See this session")));
  }
  if (live.feedback.length) {
    // The device's words already name the zone; the dot only colours it.
    const list = el("ol", { class: "feedback", "aria-label": mode === "passive" ? "Boundaries" : "Feedback per attempt", "data-role": "feedback" });
    for (const item of live.feedback) {
      list.append(el("li", {}, item.zone ? el("span", { class: `zone ${item.zone}`, "aria-hidden": "true" }) : null, `${item.index} of ${item.count}: `, item.text));
    }
    card.append(list);
  }
  const pairing = pairingNotice(latestDevice);
  if (pairing) card.append(pairing);
  if (live.running) {
    const action = mode === "passive"
      ? el("button", { type: "button", "data-live-action": "end", onclick: () => control("end") }, "End session")
      : el("button", { type: "button", class: "danger", "data-live-action": "discard", onclick: () => { if (confirm("Discard this session? It is saved as aborted.")) control("discard"); } }, "Discard session");
    card.append(el("div", { class: "row" }, action), el("p", { class: "hint", role: "status", id: "live-message" }, live.message || ""));
  }
  return card;
}
// A pairing request waiting on the device (each state's `pairing_request`): who asks and from where,
// so the person can tell their own phone from a stranger. It is approved only on the device, with a
// long press while the device is idle, never from this page; during a session it only waits.
function pairingNotice(device) {
  const request = device && device.pairing_request;
  if (!request) return null;
  return el("div", { class: "pairing", "data-role": "pairing" },
    el("p", {}, el("strong", {}, "Pairing request: "), el("span", { "data-role": "pairing-name" }, request.name),
      " from ", el("span", { "data-role": "pairing-address" }, request.address)),
    el("p", { class: "hint" }, device.session_in_progress
      ? "It waits until this session ends: a request is never approved during a session."
      : "To approve it, hold the device's button while the device is idle (the device announced it with a buzz, two ticks and a buzz). To refuse it, do nothing: it expires."));
}
// Between sessions the request has a card of its own in the live card's place.
function pairingCard() {
  const notice = pairingNotice(latestDevice);
  if (!notice) return null;
  return el("section", { class: "card live", id: "pairing-card", "aria-labelledby": "pairing-title" },
    el("h2", { id: "pairing-title" }, "Pairing request"), notice);
}
// The reply is kept with the live state, not in an element: the card is rebuilt on every event,
// and the answer may arrive after several.
async function control(verb) {
  const say = (text) => { if (live) live.message = text; const line = document.getElementById("live-message"); if (line) line.textContent = text; };
  say("Sending…");
  try { const result = await api(`/device/${verb}`, { method: "POST", body: {} }); say(result.message); }
  catch (error) { say(error.message); }
}
function renderLive() {
  const line = document.querySelector("[data-role=device-state]");
  if (line && latestDevice) line.textContent = stateWords(latestDevice);
  const slot = document.getElementById("live-slot");
  if (!slot) return;
  // A person tabbing to the card's button keeps it focused while events rebuild the card.
  const focused = document.activeElement && slot.contains(document.activeElement) ? document.activeElement.getAttribute("data-live-action") : null;
  const card = liveCard() || pairingCard();
  slot.replaceChildren(...(card ? [card] : []));
  if (focused) { const again = slot.querySelector(`[data-live-action="${focused}"]`); if (again) again.focus(); }
  const primary = document.getElementById("primary-action");
  if (primary) primary.hidden = !!(live && live.running);
}

// ---- pages --------------------------------------------------------------------------------
async function pageWelcome() {
  setTitle("Welcome");
  const device = el("div", {}, el("p", { class: "muted" }, "Asking the device…"));
  const health = el("div", {}, el("p", { class: "muted" }, "Reading the health log's status…"));
  main.replaceChildren(
    el("h1", {}, "Welcome to Chronoception"),
    el("section", { class: "card", "aria-labelledby": "w1" },
      el("h2", { id: "w1" }, "1. What this is"),
      el("p", {}, "Chronoception trains your sense of elapsed time. The training happens on the device: it buzzes, you press its button when you think the interval has passed, and it tells you how close you were."),
      el("p", {}, "This companion is for looking back and setting things up: your progress, each session's attempts, and the device's defaults. It never shows a clock during an attempt — that would give the answer away.")),
    el("section", { class: "card", "aria-labelledby": "w2" }, el("h2", { id: "w2" }, "2. Your device"), device),
    el("section", { class: "card", "aria-labelledby": "w3" },
      el("h2", { id: "w3" }, "3. The health log"),
      el("p", {}, "Each completed session is written as one line to a local health-log file (JSON Lines), so other tools can read it. Nothing leaves the device. Deleting your data here never edits that file."),
      el("p", {}, "To turn it off, switch off “Write sessions to the health log” in Settings (or run ", el("code", {}, "chronoception settings set health-logging off"), ")."),
      health),
    el("div", { class: "row" }, el("button", { type: "button", id: "finish-onboarding", onclick: () => { localStorage.setItem(ONBOARDED, "1"); location.hash = "#/home"; } }, "Continue to Home")));
  try {
    const data = await api("/device");
    device.replaceChildren(el("p", {}, el("strong", {}, "Status: "), stateWords(data.device)), setupList(data.setup));
  } catch (error) { device.replaceChildren(errorBox(error)); }
  try {
    const h = await api("/health");
    health.replaceChildren(el("p", {}, el("strong", {}, "Now: "), `${h.status} — ${h.written} written, ${h.owed_total} owed, file ${h.path}`));
  } catch (error) { health.replaceChildren(errorBox(error)); }
}

// The device's setup as the daemon opened it (GET /device's `setup`, in `board check`'s words).
const PART_NAMES = { board: "Board", button: "Button", second_button: "Second button", motor: "Motor", led: "LED", sound: "Sound" };
const SETUP_WORDS = { ok: "OK", warning: "Check", info: "Note" };
function withCode(text) { return text.split("`").map((part, i) => (i % 2 ? el("code", {}, part) : part)); }
function setupList(setup) {
  const list = setup.parts.length ? el("ul", { class: "plain setup", "data-role": "setup" }, setup.parts.map((part) =>
    el("li", { "data-part": part.name, "data-status": part.status },
      el("span", { class: `badge ${part.status}` }, SETUP_WORDS[part.status] || part.status), " ",
      el("strong", {}, PART_NAMES[part.name] || part.name), ": ", withCode(part.detail),
      part.fix ? el("span", { class: "hint" }, " — ", withCode(part.fix)) : null))) : null;
  return el("div", {}, list, el("p", { class: "muted", "data-role": "setup-note" }, withCode(setup.note)));
}

async function pageHome() {
  setTitle("Home");
  const status = el("section", { class: "card", "aria-labelledby": "h-status" }, el("h2", { id: "h-status" }, "Device"), el("p", { class: "muted" }, "Loading…"));
  const last = el("section", { class: "card", "aria-labelledby": "h-last" }, el("h2", { id: "h-last" }, "Last session"), el("p", { class: "muted" }, "Loading…"));
  main.replaceChildren(el("h1", {}, "Home"), el("div", { id: "live-slot", "aria-live": "polite" }), el("div", { class: "grid" }, status, last),
    el("section", { class: "card", "aria-labelledby": "h-how" }, el("h2", { id: "h-how" }, "How it works"),
      el("ul", {}, el("li", {}, el("a", { href: "#/learn" }, "The three modes: Challenge, Passive and Fear")),
        el("li", {}, el("a", { href: "#/learn" }, "Reading your numbers: typical error, zones, Time Acuity")),
        el("li", {}, el("a", { href: "#/welcome" }, "Setup and the health log again")))));
  renderLive();
  let data;
  try { data = await api("/device"); } catch (error) { status.replaceChildren(errorBox(error)); return; }
  const d = data.device;
  const message = el("p", { class: "hint", role: "status" });
  const primary = el("div", { id: "primary-action", class: "row" });
  if (d.state === "NoDevice") {
    primary.append(el("p", { class: "muted" }, "Sessions are started on the device running ", el("code", {}, "chronoception run"), "."));
  } else if (!d.session_in_progress) {
    primary.append(el("button", { type: "button", onclick: async () => {
      message.textContent = "Asking the device…";
      try { message.textContent = (await api("/device/start", { method: "POST", body: {} })).message; }
      catch (error) { message.textContent = error.message; }
    } }, data.last_session ? `Start ${modeName(data.last_session.mode)} ${data.last_session.interval} on the device` : "Start a session on the device"));
  }
  status.replaceChildren(...[el("h2", { id: "h-status" }, "Device"), el("p", { "data-role": "device-state" }, stateWords(d)),
    d.board ? el("p", { class: "muted" }, `Board: ${d.board}`) : null,
    d.health ? el("p", { class: "muted" }, `Health log: ${d.health}`) : null, primary, message].filter(Boolean));
  if (live && live.running) primary.hidden = true;
  const s = data.last_session;
  if (!s) { last.replaceWith(emptyFirstSession()); return; }
  last.replaceChildren(el("h2", { id: "h-last" }, "Last session"),
    s.time_acuity_score === null ? el("p", { class: "muted" }, "No score: Passive sessions have no attempts.")
      : el("p", { class: "big" }, String(s.time_acuity_score), el("span", { class: "muted" }, " Time Acuity")),
    el("p", {}, `${modeName(s.mode)} · ${s.interval} · ${when(s.started_at)}`),
    el("p", {}, el("a", { href: `#/session/${encodeURIComponent(s.session_id)}` }, s.mode === "passive" ? "See its boundaries" : "See its attempts")));
}

// A day-by-day line chart: days without data are gaps (shaded, never drawn as zero); a day with
// data is a link to that day's sessions.
function dailyChart(series, { label, max, format }) {
  const width = 640, height = 200, left = 52, right = 22, top = 10, bottom = 24;
  const n = series.length, step = (width - left - right) / Math.max(n, 1);
  const values = series.map((p) => p.value);
  const top_ = max !== undefined ? max : Math.max(1, ...values.filter((v) => v !== null)) * 1.15;
  const x = (i) => left + step * (i + 0.5), y = (v) => top + (height - top - bottom) * (1 - v / top_);
  const root = svg("svg", { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label });
  root.append(svg("title", {}, label));
  for (const frac of [0, 0.5, 1]) {
    const v = top_ * frac;
    root.append(svg("line", { class: "axis", x1: left, x2: width - right, y1: y(v), y2: y(v) }),
      svg("text", { class: "label", x: left - 4, y: y(v) + 4, "text-anchor": "end" }, format(v)));
  }
  series.forEach((p, i) => {
    if (p.value === null) root.append(svg("rect", { class: "missing", "data-day": p.day, x: x(i) - step / 2, y: top, width: step, height: height - top - bottom }));
  });
  let d = "", pen = false, segments = 0;
  series.forEach((p, i) => {
    if (p.value === null) { pen = false; return; }
    d += `${pen ? "L" : "M"}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`;
    if (!pen) segments += 1;
    pen = true;
  });
  if (d) root.append(svg("path", { class: "line", d, "data-segments": segments }));
  series.forEach((p, i) => {
    if (p.value === null) return;
    const link = svg("a", { href: `#/day/${p.day}`, "aria-label": `${dayLabel(p.day)}: ${format(p.value)}` });
    link.append(svg("rect", { class: "hit", x: x(i) - step / 2, y: top, width: step, height: height - top - bottom }),
      svg("circle", { class: "dot", cx: x(i), cy: y(p.value), r: n > 45 ? 2.5 : 3.5 }));
    root.append(link);
  });
  const labelEvery = Math.ceil(n / 6);
  series.forEach((p, i) => {
    if ((n - 1 - i) % labelEvery === 0) root.append(svg("text", { class: "label", x: x(i), y: height - 6, "text-anchor": "middle" }, p.day.slice(5)));
  });
  return root;
}

let progressDays = 30, progressInterval = "";
// Both requests start at once; the summary (per-interval cards, mode mix, recent sessions) is drawn as
// soon as /progress answers and the day-by-day charts as soon as /progress/daily does, each into its
// own slot, so the first content never waits for the slower of the two. Marks for the browser tier:
// `progress-summary` (summary in the DOM: the first render) and `progress-charts`.
async function pageProgress() {
  setTitle("Progress");
  const filter = progressInterval ? `interval=${encodeURIComponent(progressInterval)}` : "";
  const early = !filter && progressDays === 30 ? progressPrefetch : null;
  progressPrefetch = null;
  const reportRequest = early ? early.report : api(`/progress${filter ? `?${filter}` : ""}`);
  const dailyRequest = early ? early.daily : api(`/progress/daily?days=${progressDays}${filter ? `&${filter}` : ""}`);
  dailyRequest.catch(() => {}); // handled below; no unhandled rejection while the summary is drawn
  main.replaceChildren(el("h1", {}, "Progress"), el("p", { class: "muted" }, "Loading…"));
  const shown = location.hash;
  let report;
  try { report = await reportRequest; } catch (error) { main.replaceChildren(el("h1", {}, "Progress"), errorBox(error)); return; }
  if (location.hash !== shown) return; // left the page meanwhile
  const nodes = [el("h1", {}, "Progress")];
  const total = report.completed_sessions + report.aborted_sessions + report.interrupted_sessions;
  if (total === 0 && !progressInterval) { main.replaceChildren(...nodes, emptyFirstSession()); return; }
  const intervalChips = el("div", { class: "row", role: "group", "aria-label": "Interval" },
    el("button", { type: "button", class: "chip", "aria-pressed": String(!progressInterval), onclick: () => { progressInterval = ""; pageProgress(); } }, "All intervals"));
  const cards = el("div", { class: "grid" });
  for (const item of report.intervals) {
    const name = intervalText(item.target_interval_seconds);
    intervalChips.append(el("button", { type: "button", class: "chip", "aria-pressed": String(progressInterval === name), onclick: () => { progressInterval = name; pageProgress(); } }, name));
    const trend = { improving: "improving ↓", worse: "worse ↑", about_the_same: "about the same →", not_enough_data: "not enough data yet" }[item.trend] || item.trend.replace(/_/g, " ");
    cards.append(el("section", { class: "card", "aria-label": `Interval ${name}` },
      el("div", { class: "spread" }, el("h2", {}, name), el("span", { class: "muted" }, `${item.completed_sessions} session${item.completed_sessions === 1 ? "" : "s"}`)),
      el("p", {}, el("span", { class: "big" }, seconds(item.typical_error_seconds_last_7_days)), " ", el("span", { class: "muted" }, "typical error, last 7 days")),
      el("p", {}, `Trend: ${trend} (7 days before: ${seconds(item.typical_error_seconds_7_days_before)})`),
      el("p", {}, "Time Acuity: ", el("strong", {}, item.time_acuity_score === null ? "—" : String(item.time_acuity_score))),
      item.last_zones.length ? zoneStrip(item.last_zones) : null));
  }
  const range = el("div", { class: "row", role: "group", "aria-label": "Days shown" },
    [30, 90].map((n) => el("button", { type: "button", class: "chip", "aria-pressed": String(progressDays === n), onclick: () => { progressDays = n; pageProgress(); } }, `${n} days`)));
  const charts = el("div", { "data-role": "charts" }, el("p", { class: "muted" }, "Loading…"));
  nodes.push(el("section", { class: "card", "aria-labelledby": "c-title" },
    el("div", { class: "spread" }, el("h2", { id: "c-title" }, "Day by day"), range), charts));
  if (report.intervals.length > 1 || progressInterval) nodes.splice(1, 0, intervalChips);
  if (report.intervals.length) nodes.push(cards);
  else nodes.push(el("p", { class: "card" }, "No completed sessions at this interval yet."));
  if (report.mode_mix.length) {
    const bar = el("div", { class: "mix", role: "img", "aria-label": report.mode_mix.map((m) => `${modeName(m.mode)} ${Math.round(m.share * 100)}%`).join(", ") });
    for (const m of report.mode_mix) { const part = el("span", { class: m.mode }); part.style.width = `${m.share * 100}%`; bar.append(part); }
    nodes.push(el("section", { class: "card", "aria-labelledby": "m-title" }, el("h2", { id: "m-title" }, "Mode mix"), bar,
      el("p", { class: "legend" }, report.mode_mix.map((m) => el("span", {}, `${modeName(m.mode)}: ${m.sessions} (${Math.round(m.share * 100)}%)`)))));
  }
  nodes.push(el("section", { class: "card", "aria-labelledby": "r-title" }, el("h2", { id: "r-title" }, "Recent sessions"), sessionList(report.recent_sessions)));
  main.replaceChildren(...nodes);
  performance.mark("progress-summary");
  window.__progressRendered = performance.now();
  let daily;
  try { daily = await dailyRequest; } catch (error) { charts.replaceChildren(errorBox(error)); return; }
  if (location.hash !== shown) return;
  const missing = daily.time_acuity.filter((p) => p.value === null).length;
  charts.replaceChildren(
    el("h3", {}, "Time Acuity (0–100)"),
    dailyChart(daily.time_acuity, { label: `Time Acuity per day over ${progressDays} days; ${missing} days without attempts are gaps`, max: 100, format: (v) => String(Math.round(v)) }),
    el("h3", {}, "Typical error"),
    dailyChart(daily.typical_error_seconds, { label: `Typical error per day over ${progressDays} days`, format: seconds }),
    el("div", { class: "legend" }, el("span", {}, el("span", { class: "swatch" }), "a day's value"),
      el("span", {}, el("span", { class: "swatch gap" }), `no attempts that day (${missing} of ${progressDays})`)),
    el("p", { class: "hint" }, "Select a day's point to see that day's sessions."));
  performance.mark("progress-charts");
  window.__progressCharts = performance.now();
}
// Recent attempts' zones: a strip of dots, oldest first, and the counts in words.
function zoneStrip(zones) {
  const counts = ["green", "yellow", "red"].map((z) => [z, zones.filter((x) => x === z).length]).filter(([, n]) => n);
  return el("div", {}, el("p", {}, `Last ${zones.length} attempts: `, counts.map(([z, n]) => `${n} ${z}`).join(" · ")),
    el("div", { class: "strip", "aria-hidden": "true" }, zones.map((z) => el("span", { class: `dot ${z}` }))));
}
function sessionList(sessions) {
  if (!sessions.length) return el("p", { class: "muted" }, "None.");
  return el("ul", { class: "plain" }, sessions.map((s) => el("li", {},
    el("div", { class: "spread" },
      el("a", { href: `#/session/${encodeURIComponent(s.session_id)}` }, `${modeName(s.mode)} · ${intervalText(s.target_interval_seconds)}`),
      el("span", { class: "muted" }, when(s.started_at))),
    el("span", { class: "muted" }, `${s.status} · ${s.done_count} of ${s.planned_count}`,
      s.time_acuity_score !== null ? ` · Time Acuity ${s.time_acuity_score}` : "",
      s.mean_abs_error_seconds !== null ? ` · typical error ${seconds(s.mean_abs_error_seconds)}` : ""))));
}

async function pageDay(day) {
  setTitle(day);
  main.replaceChildren(el("p", {}, el("a", { href: "#/progress" }, "← Progress")), el("h1", {}, dayLabel(day)), el("p", { class: "muted" }, "Loading…"));
  try {
    const data = await api(`/sessions?from=${day}&to=${day}&limit=100`);
    main.lastChild.replaceWith(el("section", { class: "card", "aria-label": "Sessions that day" }, sessionList(data.sessions)));
  } catch (error) { main.lastChild.replaceWith(errorBox(error)); }
}

async function pageSession(id) {
  setTitle("Session");
  main.replaceChildren(el("p", {}, el("a", { href: "#/progress" }, "← Progress")), el("h1", {}, "Session"), el("p", { class: "muted" }, "Loading…"));
  let s;
  try { s = await api(`/sessions/${encodeURIComponent(id)}`); } catch (error) { main.lastChild.replaceWith(errorBox(error)); return; }
  const summary = el("section", { class: "card" },
    el("p", { class: "phase" }, `${modeName(s.mode)} · ${s.interval} · ${s.status}`),
    el("p", { class: "muted" }, `${when(s.started_at)} · board ${s.board}${s.reason ? ` · ${s.reason}` : ""}`),
    s.time_acuity_score !== null ? el("p", {}, el("span", { class: "big" }, String(s.time_acuity_score)), " Time Acuity · typical error ", seconds(s.mean_abs_error_seconds), " · bias ", signed(s.mean_signed_error_seconds)) : null,
    s.fear_sound_effective !== null ? el("p", {}, `Fear sound effective: ${s.fear_sound_effective ? "yes" : "no"}`) : null,
    el("p", { class: "muted" }, `Health log: ${s.health_log || "not written"}`));
  const parts = [summary];
  if (s.attempts.length) {
    parts.push(el("section", { class: "card", "aria-labelledby": "a-title" }, el("h2", { id: "a-title" }, "Attempts"),
      el("div", { class: "table-wrap" }, el("table", {},
        el("thead", {}, el("tr", {}, ["#", "Pressed at", "Error", "Error %", "Zone"].map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, s.attempts.map((a) => el("tr", {},
          el("td", {}, a.index), el("td", {}, seconds(a.elapsed_seconds)), el("td", {}, signed(a.error_seconds)),
          el("td", {}, `${a.percent_error.toFixed(1)}%`), el("td", {}, zoneBadge(a.zone)))))))));
  }
  if (s.boundaries.length) {
    parts.push(el("section", { class: "card", "aria-labelledby": "b-title" }, el("h2", { id: "b-title" }, "Boundaries"),
      el("ul", { class: "plain" }, s.boundaries.map((b) => el("li", {}, `${b.index}: due ${when(b.due_at)}`, b.fired_at ? "" : " — not reached")))));
  }
  main.lastChild.replaceWith(...parts);
}

async function pageLearn() {
  setTitle("Learn");
  main.replaceChildren(el("h1", {}, "Learn"), el("p", { class: "muted" }, "Loading…"));
  try {
    const data = await api("/learn");
    main.lastChild.replaceWith(...data.sections.map((section, i) => el("section", { class: "card learn-body", "aria-labelledby": `l${i}` },
      el("h2", { id: `l${i}` }, section.title), section.body.split(/\n\s*\n/).map((para) => el("p", {}, para.trim())))));
  } catch (error) { main.lastChild.replaceWith(errorBox(error)); }
}

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

  const keyList = el("ul", { class: "plain" });
  for (const key of keys.keys) {
    keyList.append(el("li", { class: "spread" }, el("span", {}, el("strong", {}, key.name), ` · ${key.kind} · since ${when(key.created_at)}`, key.current ? " · this browser" : ""),
      el("button", { type: "button", class: "secondary", "aria-label": `Revoke ${key.name}`, onclick: async (event) => {
        if (!confirm(`Revoke the key “${key.name}”? That companion will need to pair again.`)) return;
        try { await api(`/keys/${encodeURIComponent(key.id)}`, { method: "DELETE" }); event.target.closest("li").remove(); }
        catch (error) { keyList.after(errorBox(error)); } } }, "Revoke")));
  }
  const keysCard = el("section", { class: "card", "aria-labelledby": "st-keys" }, el("h2", { id: "st-keys" }, "Paired companions"),
    keys.keys.length ? keyList : el("p", { class: "muted" }, "None. Pair a phone by opening this page on it and pressing the device's button when asked, or make a key with ", el("code", {}, "chronoception companion keys add NAME"), "."));
  main.lastChild.replaceWith(defaults, fearCard, healthCard, dataCard, keysCard);
}

// ---- router ------------------------------------------------------------------------------
function route() {
  const hash = location.hash.replace(/^#\/?/, "");
  const [page, arg] = [hash.split("/")[0] || "home", decodeURIComponent(hash.split("/").slice(1).join("/"))];
  if (!localStorage.getItem(ONBOARDED) && page !== "welcome") { location.replace("#/welcome"); return; }
  const tab = { day: "progress", session: "progress", welcome: "" }[page] ?? page;
  for (const a of document.querySelectorAll("nav.tabs a")) {
    if (a.dataset.page === tab) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
  }
  const pages = { welcome: pageWelcome, home: pageHome, progress: pageProgress, learn: pageLearn, settings: pageSettings,
    day: () => pageDay(arg), session: () => pageSession(arg) };
  (pages[page] || pageHome)();
  if (document.activeElement && document.activeElement !== document.body && !main.contains(document.activeElement)) main.focus({ preventScroll: true });
}
window.addEventListener("hashchange", route);
startEvents();
route();
})();
