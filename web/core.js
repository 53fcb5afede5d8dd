// Chronoception companion: the helpers every page uses (elements, the API, dates, words).
// Plain scripts that index.html loads in order (no build step); they share their top-level names.
"use strict";
const API = "/api/v1";
const ONBOARDED = "chronoception.onboarded";
const main = document.getElementById("main");
let live = null; // the live card's state, kept across page changes

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
  let response;
  try { response = await fetch(API + path, init); }
  catch (_) { throw new Error("The device did not answer. Check that it is on and reachable from here, then try again."); }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (_) { data = null; }
  // A browser without a key (or whose key was revoked) is sent to the pair step, in one place: any 401
  // means the device does not know this browser (key_required, key_unknown, or a body that is not the
  // API's). The page that asked waits for good (its promise never settles), so it cannot draw an error
  // over the pair step.
  if (response.status === 401) {
    showPairStep();
    return new Promise(() => {});
  }
  if (!response.ok) {
    const code = data && data.error ? data.error.code : null;
    const said = data && data.error ? data.error.message : null;
    // `words` keeps the backticks for errorBox (shown as code); `message` has quotes instead, for
    // pages that set it as plain text.
    const words = pageWords(said, response.status, code);
    const error = new Error(words.replace(/`([^`]*)`/g, "“$1”"));
    error.words = words;
    error.status = response.status;
    error.code = code;
    throw error;
  }
  return data;
}
// The API's sentences are written for people, but a few also tell API clients which route to call
// next ("start again with POST /api/v1/…"). A page never shows a route or JSON: such a sentence is
// replaced by words for its error code.
const ERROR_WORDS = {
  confirmation_invalid: "That confirmation ran out or was already used, so nothing was deleted. Start again if you still want to delete.",
  key_required: "This browser is not paired with the device yet.",
  not_found: "That is no longer there. Reload the page to see what is.",
};
function pageWords(said, status, code) {
  if (said && !/\/api\/|\b(GET|POST|PATCH|PUT|DELETE) \/|[{}]/.test(said)) return said;
  return ERROR_WORDS[code] || `The device refused that (HTTP ${status}). Reload the page and try again.`;
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
const modeName = (mode) => ({ challenge: "Challenge", passive: "Passive", fear: "Fear", reproduction: "Reproduction" }[mode] || mode);
const zoneBadge = (zone) => el("span", { class: `zone ${zone}` }, zone);
// Text from the core or the API (the Learn text, board check's words, some errors) marks a command
// between backticks: shown as code, never as literal backticks.
function withCode(text) { return String(text).split("`").map((part, i) => (i % 2 ? el("code", {}, part) : part)); }
function errorBox(error) { return el("p", { class: "status error", role: "alert" }, withCode(error.words || error.message || String(error))); }
function emptyFirstSession() {
  return el("div", { class: "card" },
    el("h2", {}, "No sessions yet"),
    el("p", {}, "Training happens on the device: press its button to start the offered preset, or, on the device's shell, run ",
      el("code", {}, "chronoception challenge --interval 30s"), "."),
    el("p", {}, "When a session ends it appears here with its attempts, and Progress starts charting your typical error."),
    el("p", {}, el("a", { href: "#/learn" }, "How the modes work")));
}
// A withheld study session's sentence, by its block's rule (the API's `results_revealed_at_block_end`,
// from the protocol's `reveal_at_block_end`): shown when the block ends, or never on this device.
function withheldWords(session) {
  return session.results_revealed_at_block_end
    ? "Results withheld: this study block gives no feedback; its results are shown here when the block ends."
    : "Results withheld: this study block gives no feedback, and its results are never shown on this device.";
}
function setTitle(text) { document.title = `${text} · Chronoception`; }
