// Chronoception companion: the device's state in words and the live card (Server-Sent Events).
// Plain scripts that index.html loads in order (no build step); they share their top-level names.
"use strict";
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
  if (latestDevice) refreshStartLabel(latestDevice);
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
