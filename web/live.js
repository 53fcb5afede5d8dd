// Chronoception companion: the device's state in words and the live card (Server-Sent Events).
// Plain scripts that index.html loads in order (no build step); they share their top-level names.
"use strict";
// ---- device state in words ---------------------------------------------------------------
const STATE_WORDS = {
  NoDevice: "No device attached: this companion serves a data directory for review.",
  Idle: "Idle: ready for a session.",
  Configuring: "Being configured at the device.",
  Presenting: "Presenting the interval: two marks.",
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
// An update of the card under way (GET /device's `update`): from the install until the new version has
// confirmed itself no session starts.
function updateHolds(device) {
  return !!(device && device.update && ["installing", "installed", "trying"].includes(device.update.phase));
}
// Whether the device would refuse a start now: the battery at its stop level, or an update under way.
function startHeld(device) {
  return !!(device && ((device.battery && device.battery.reason) || updateHolds(device)));
}
// Idle but held is not "ready": the battery's or the update's line on Home says why.
const stateWords = (device) =>
  device.state === "Idle" && startHeld(device) ? "Idle: no session starts now." : STATE_WORDS[device.state] || device.state;

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
    live.result = null;
    renderLive();
    showFinished(item);
  });
}
// The device sends `session_finished` once the session is saved: the card reads its result then (the
// score, or why there is none), and the page on show takes the new session in (Home's last session,
// Progress) without a reload. Only the session the card still shows is drawn.
async function showFinished(item) {
  // The device names a session by its UUID; anything else names no stored session, so it is not asked for.
  if (item.status === "completed" && new RegExp(`^${SESSION_ID.source}$`, "i").test(item.session_id || "")) {
    let session;
    try { session = await api(`/sessions/${encodeURIComponent(item.session_id)}`); } catch (_) { session = null; }
    if (session && live && live.finished && live.finished.session_id === item.session_id) {
      live.result = session;
      renderLive();
    }
  }
  afterSession(); // home.js
}
// The finished session's result in one line: its Time Acuity and typical error, the withheld sentence,
// or a Passive session's boundaries.
function finishedResult(s) {
  if (s.results_withheld) return el("p", { class: "muted", "data-role": "end-result" }, withheldWords(s));
  if (s.time_acuity_score !== null && s.time_acuity_score !== undefined) {
    return el("p", { "data-role": "end-result" }, el("span", { class: "big" }, String(s.time_acuity_score)), " Time Acuity · typical error ", seconds(s.mean_abs_error_seconds));
  }
  if (s.mode === "passive") {
    const reached = s.boundaries.filter((b) => b.fired_at).length;
    const n = s.boundaries.length;
    return el("p", { "data-role": "end-result" }, `${reached} of ${n} ${n === 1 ? "boundary" : "boundaries"} reached.`);
  }
  return null;
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
      if (device.state === "Presenting") progress.append(" — feel the interval between the two marks.");
      if (device.state === "AttemptRunning") progress.append(mode === "reproduction"
        ? " — reproducing; press the button when the same time has passed."
        : " — running; press the button when you think the interval has passed.");
      if (device.state === "WaitingForStart") progress.append(mode === "reproduction"
        ? " — press the button on the device to start your reproduction."
        : " — press the button on the device to start.");
    }
    card.append(progress);
    if (device.fear_sound) card.append(el("p", { class: "muted" }, `Fear sound: ${device.fear_sound}`));
  } else if (live.finished) {
    const status = live.finished.status;
    const words = status === "completed" ? "Completed and saved."
      : live.finished.recorded === false ? (status === "aborted" ? NOTHING_SAVED : ENDED_UNSAVED)
      : status === "aborted" ? doneWords("discard") : `Ended: ${status}.`;
    card.append(el("p", { "data-role": "end" }, words));
    const result = live.result ? finishedResult(live.result) : null;
    if (result) card.append(result);
    if (live.refused && live.message) card.append(el("p", { class: "hint", role: "status", id: "live-message" }, live.message));
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
      : el("button", { type: "button", class: "danger", "data-live-action": "discard", onclick: () => { if (confirm(awaitingFirstPress(latestDevice) ? "Discard this session? It has not begun: nothing is saved." : "Discard this session? It is saved as aborted.")) control("discard"); } }, "Discard session");
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
// ---- the device's answers in the page's words ---------------------------------------------------
// The API's success messages name the session by its id, for API clients and logs. A page speaks to
// people: it says what the device did in its own words, from the reply's `device` (the state right
// after the action), never an id.
const SESSION_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
// A session discarded (or ended) before the person's first press was never started: it leaves no
// row (the session_finished event says `recorded: false`), so the page does not say it was saved.
const NOTHING_SAVED = "Discarded before it began: nothing saved.";
const ENDED_UNSAVED = "Ended before it began: nothing saved.";
function awaitingFirstPress(device) {
  return !!device && (device.attempt || 1) === 1 && (device.state === "WaitingForStart" || device.state === "Presenting");
}
function doneWords(verb, device, before) {
  if (verb !== "start" && awaitingFirstPress(before)) return verb === "end" ? ENDED_UNSAVED : NOTHING_SAVED;
  if (verb === "start") {
    const d = device || {};
    const count = d.mode === "passive" ? d.repetition_count : d.attempt_count;
    return d.mode && d.interval && count ? `Started ${modeName(d.mode)} ${d.interval} ×${count} on the device.` : "Started on the device.";
  }
  return verb === "end" ? "Ended." : "Discarded: saved as aborted, not logged.";
}
// A refusal is already a sentence for a person; the ones that name a command get the page's words,
// and a session's id in brackets is dropped ("the session that just ended (…) is saved" reads the
// same without it).
const REFUSAL_WORDS = {
  fear_not_enabled: "Fear Mode is not turned on: switch it on in Settings first.",
  no_device: "No device is attached to this companion: it serves your data only. Sessions are started on the device.",
};
function refusalWords(error) {
  if (error && REFUSAL_WORDS[error.code]) return REFUSAL_WORDS[error.code];
  const text = String((error && error.message) || error);
  return text.replace(new RegExp(` ?\\((?:${SESSION_ID.source})\\)`, "gi"), "").replace(SESSION_ID, "the session");
}
// Asks the device to start, end or discard: `{ ok, text }`, the text to show.
async function deviceAction(verb, body) {
  const before = latestDevice;
  try { return { ok: true, text: doneWords(verb, (await api(`/device/${verb}`, { method: "POST", body: body || {} })).device, before) }; }
  catch (error) { return { ok: false, text: refusalWords(error) }; }
}
// The reply is kept with the live state, not in an element: the card is rebuilt on every event,
// and the answer may arrive after several. A refusal stays on the ended card too (the session may
// have ended as the press was sent); what was done, the end line says already.
async function control(verb) {
  if (live) { live.message = "Sending…"; live.refused = false; }
  renderLive();
  const answer = await deviceAction(verb);
  if (live) { live.message = answer.text; live.refused = !answer.ok; }
  renderLive();
}
function renderLive() {
  const line = document.querySelector("[data-role=device-state]");
  if (line && latestDevice) line.textContent = stateWords(latestDevice);
  if (latestDevice) refreshStartLabel(latestDevice);
  const slot = document.getElementById("live-slot");
  if (!slot) return;
  // A person tabbing to the card's button keeps it focused while events rebuild the card.
  const focused = document.activeElement && slot.contains(document.activeElement) ? document.activeElement.getAttribute("data-live-action") : null;
  const card = liveCard() || pairingCard();
  slot.replaceChildren(...(card ? [card] : []));
  if (focused) { const again = slot.querySelector(`[data-live-action="${focused}"]`); if (again) again.focus(); }
  const primary = document.getElementById("primary-action");
  if (!primary) return;
  const back = primary.hidden && !(live && live.running);
  primary.hidden = !!(live && live.running);
  // The start button is back once the session has ended: its answer ("Started …") is over too.
  const answer = document.querySelector("[data-role=start-answer]");
  if (back && answer) answer.textContent = "";
}
