// Chronoception companion: the Welcome and Home pages.
// Plain scripts that index.html loads in order (no build step); they share their top-level names.
"use strict";
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
function setupList(setup) {
  const list = setup.parts.length ? el("ul", { class: "plain setup", "data-role": "setup" }, setup.parts.map((part) =>
    el("li", { "data-part": part.name, "data-status": part.status },
      el("span", { class: `badge ${part.status}` }, SETUP_WORDS[part.status] || part.status), " ",
      el("strong", {}, PART_NAMES[part.name] || part.name), ": ", withCode(part.detail),
      part.fix ? el("span", { class: "hint" }, " — ", withCode(part.fix)) : null))) : null;
  return el("div", {}, list, el("p", { class: "muted", "data-role": "setup-note" }, withCode(setup.note)));
}

// The start button names what the device will start: its own `next_session` (what a tap or a start
// without a configuration starts), never the last session, which a changed default replaces.
function startLabel(next) {
  if (next && next.in_study) return `Start the study's next session (${modeName(next.mode)} ${next.interval} ×${next.count}) on the device`;
  return next ? `Start ${modeName(next.mode)} ${next.interval} ×${next.count} on the device` : "Start a session on the device";
}
// The assigned study, in the device's own words (GET /device's and each state event's `study.line`):
// counts and the next due time only, never an elapsed time. Nothing when no study is assigned.
function studyLine(device) {
  return device && device.study ? el("p", { "data-role": "study-line" }, device.study.line) : null;
}
// Today's completed sessions against the daily goal, and the reminder the device gave while what it
// reminds of is still due (GET /device's `today.line` and `reminder`, the device's own words).
function todayLine(device) {
  return device && device.today ? el("p", { "data-role": "today-line" }, device.today.line) : null;
}
function reminderLine(device) {
  return el("p", { class: "hint", "data-role": "reminder-line", hidden: !(device && device.reminder) }, (device && device.reminder) || "");
}
// The battery (GET /device's `battery`, only on a board with one): level and charging state, and at
// the stop level the device's own reason no session starts. Nothing on a board without a battery.
function batteryWords(battery) {
  const level = battery.level === "normal" ? "" : `, ${battery.level}`;
  return `Battery: ${battery.percent} % (${battery.charge}${level})${battery.reason ? ` ${battery.reason}` : ""}`;
}
function batteryLine(device) {
  return device && device.battery ? el("p", { "data-role": "battery-line", class: device.battery.level === "normal" ? "muted" : "hint" }, batteryWords(device.battery)) : null;
}
// The card's last update (GET /device's `update`, only on a card that has one): the device's own words,
// and the version and slot running, as `chronoception status` shows them.
function updateWords(update) {
  return update ? `Update: ${update.line} (version ${update.running_version}${update.slot ? `, slot ${update.slot}` : ""})` : "";
}
function updateLine(device) {
  const update = device && device.update;
  return el("p", { "data-role": "update-line", class: updateHolds(device) ? "hint" : "muted", hidden: !update }, updateWords(update));
}
// Each state event carries `next_session` while the device is idle: a default changed elsewhere
// (Settings, the command line) renames the button without a reload.
function refreshStartLabel(device) {
  const button = document.querySelector("[data-role=start-next]");
  if (button && device && device.next_session) button.textContent = startLabel(device.next_session);
  // The study line changes with the day and each session: the state event carries it.
  const line = document.querySelector("[data-role=study-line]");
  if (line && device && device.study) line.textContent = device.study.line;
  // Today's count and the reminder change as sessions end, reminders play and midnight passes.
  const today = document.querySelector("[data-role=today-line]");
  if (today && device && device.today) today.textContent = device.today.line;
  const reminder = document.querySelector("[data-role=reminder-line]");
  if (reminder && device) { reminder.textContent = device.reminder || ""; reminder.hidden = !device.reminder; }
  // The battery's level changes with each reading (once a minute).
  const battery = document.querySelector("[data-role=battery-line]");
  if (battery && device && device.battery) {
    battery.textContent = batteryWords(device.battery);
    battery.className = device.battery.level === "normal" ? "muted" : "hint";
  }
  // An update's progress and phase come with each state event; an install may begin while Home is open.
  const update = document.querySelector("[data-role=update-line]");
  if (update && device) {
    update.textContent = updateWords(device.update);
    update.hidden = !device.update;
    update.className = updateHolds(device) ? "hint" : "muted";
  }
  // While the device starts nothing (the battery, an update): no button that would only be refused.
  if (button && device) button.hidden = startHeld(device);
}

// The device's health text is the state file's (`on`, `off`, `failing: …`, `on (N held back: …)`),
// written for the command line: its held-back form names a command. The page says the same in its own
// words — records wait for the clock, none are lost — and points to the health log's card in Settings.
function healthLine(text) {
  const held = /^on \((\d+) held back/.exec(text);
  if (!held) return el("p", { class: "muted", "data-role": "health-line" }, `Health log: ${text}`);
  const n = Number(held[1]);
  return el("p", { class: "muted", "data-role": "health-line" },
    `Health log: on. ${n === 1 ? "1 record waits" : `${n} records wait`} until the device's clock has been set by a time server over the network; nothing is lost, it is written then. `,
    el("a", { href: "#/settings" }, "Health log settings"));
}

async function pageHome() {
  setTitle("Home");
  const status = el("section", { class: "card", "aria-labelledby": "h-status" }, el("h2", { id: "h-status" }, "Device"), el("p", { class: "muted" }, "Loading…"));
  const last = el("section", { class: "card", id: "home-last", "aria-labelledby": "h-last" }, el("h2", { id: "h-last" }, "Last session"), el("p", { class: "muted" }, "Loading…"));
  main.replaceChildren(el("h1", {}, "Home"), el("div", { id: "live-slot", "aria-live": "polite" }), el("div", { class: "grid" }, status, last),
    el("section", { class: "card", "aria-labelledby": "h-how" }, el("h2", { id: "h-how" }, "How it works"),
      el("ul", {}, el("li", {}, el("a", { href: "#/learn" }, "The modes: Challenge, Passive, Fear and Reproduction")),
        el("li", {}, el("a", { href: "#/learn" }, "Reading your numbers: typical error, zones, Time Acuity")),
        el("li", {}, el("a", { href: "#/welcome" }, "Setup and the health log again")))));
  syncHint(main.firstChild); // sync.js: one line under the title only when sync needs a look
  renderLive();
  let data;
  try { data = await api("/device"); } catch (error) { status.replaceChildren(errorBox(error)); return; }
  const d = data.device;
  const message = el("p", { class: "hint", role: "status", "data-role": "start-answer" });
  const primary = el("div", { id: "primary-action", class: "row" });
  if (d.state === "NoDevice") {
    primary.append(el("p", { class: "muted" }, "Sessions are started on the device running ", el("code", {}, "chronoception run"), "."));
  } else if (!d.session_in_progress) {
    primary.append(el("button", { type: "button", onclick: async () => {
      message.textContent = "Asking the device…";
      message.textContent = (await deviceAction("start")).text; // live.js: the page's words, never a session's id
    }, "data-role": "start-next", hidden: startHeld(d) }, startLabel(d.next_session)));
  }
  status.replaceChildren(...[el("h2", { id: "h-status" }, "Device"), el("p", { "data-role": "device-state" }, stateWords(d)), studyLine(d),
    reminderLine(d), todayLine(d),
    d.board ? el("p", { class: "muted" }, `Board: ${d.board}`) : null, batteryLine(d), updateLine(d),
    d.health ? healthLine(d.health) : null, primary, message].filter(Boolean));
  if (live && live.running) primary.hidden = true;
  last.replaceWith(lastSessionCard(data.last_session));
  // consent.js: the study's consent text with Accept and Decline, above the cards, while it waits.
  if (d.study && d.study.consent === "needed") {
    const card = await consentCard();
    if (card && main.contains(status)) main.querySelector(".grid").before(card);
  }
}
// Home's "Last session" card (GET /device's `last_session`), or the first-session card without one;
// `home-last` either way, so a session that ends while Home is shown replaces it (afterSession).
function lastSessionCard(s) {
  if (!s) { const empty = emptyFirstSession(); empty.id = "home-last"; return empty; }
  return el("section", { class: "card", id: "home-last", "aria-labelledby": "h-last", "data-session": s.session_id },
    el("h2", { id: "h-last" }, "Last session"),
    s.results_withheld ? el("p", { class: "muted", "data-role": "results-withheld" }, withheldWords(s))
      : s.time_acuity_score === null ? el("p", { class: "muted" }, "No score: Passive sessions have no attempts.")
      : el("p", { class: "big" }, String(s.time_acuity_score), el("span", { class: "muted" }, " Time Acuity")),
    el("p", {}, `${modeName(s.mode)} · ${s.interval} · ${when(s.started_at)}`),
    el("p", {}, el("a", { href: `#/session/${encodeURIComponent(s.session_id)}` }, s.mode === "passive" ? "See its boundaries" : "See its attempts")));
}
// A session has ended and been saved (live.js): the page on show takes it in at once. Home reads the
// device again for its last session; Progress is drawn again. Other pages are read when next opened.
async function afterSession() {
  const page = location.hash.replace(/^#\/?/, "").split(/[/?]/)[0] || "home";
  if (page === "progress") { pageProgress(); return; }
  if (page !== "home" || !document.getElementById("home-last")) return;
  let data;
  try { data = await api("/device"); } catch (_) { return; }
  const card = document.getElementById("home-last");
  if (card) card.replaceWith(lastSessionCard(data.last_session));
}
