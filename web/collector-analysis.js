// Chronoception collector: the study estimates page (docs/STUDIES.md, "Analysis"), from /api/v1 only.
// A summary row per participant and condition; one participant's groups in detail: the figures per
// interval, SD against mean with its fitted line (the slope is the Weber fraction), the learning
// trend and feedback withheld against shown. Numbers are rounded here for reading only.
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

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
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

function showStatus(text, kind) {
  const box = $("#status");
  box.replaceChildren();
  if (text) box.append(element("p", { class: "status " + (kind || "") }, text));
}

const modeNames = { challenge: "Challenge", passive: "Passive", fear: "Fear", reproduction: "Reproduction" };
const cell = (label, value) => element("td", { "data-label": label }, value);

// Display only: fixed decimals, a real minus sign, percentages of the target with a sign.
function fixed(value, digits) { return value === null || value === undefined ? "—" : value.toFixed(digits).replace("-", "−"); }
function percent(value) { return value === null || value === undefined ? "—" : (value > 0 ? "+" : value < 0 ? "−" : "") + Math.abs(value * 100).toFixed(1) + "\u00a0%"; }
function secondsFine(value) { return value === null || value === undefined ? "—" : value.toFixed(2) + " s"; }
function range(estimate, show) {
  if (!estimate || estimate.lower === null) return "no interval (too few data)";
  return "95 % CI " + show(estimate.lower) + " to " + show(estimate.upper);
}
function groupName(group) {
  const mode = modeNames[group.mode] || group.mode;
  if (!group.protocol) return mode + ", outside a study";
  return group.protocol + " v" + group.protocol_version + " · " + group.condition + " · " + mode;
}
function trendWords(fit) {
  if (!fit) return "not enough sessions";
  const slope = fit.slope;
  const perSession = (slope.value > 0 ? "+" : slope.value < 0 ? "−" : "") + Math.abs(slope.value * 100).toFixed(2) + " points of |error| per session";
  if (slope.lower === null) return perSession;
  const verdict = slope.upper < 0 ? "improving" : slope.lower > 0 ? "getting worse" : "no clear change";
  return perSession + " (" + range(slope, (v) => fixed(v * 100, 2)) + "): " + verdict;
}

function renderSummary(participants) {
  const section = $("#analysis");
  section.replaceChildren(element("h2", {}, "All participants"));
  if (participants.length === 0) {
    section.append(element("p", { class: "muted" }, "No timed attempts have arrived yet: the estimates need Challenge, Fear or Reproduction sessions."));
    return;
  }
  const rows = [];
  for (const p of participants) for (const g of p.groups) {
    rows.push(element("tr", {},
      cell("Participant", p.participant), cell("Condition", groupName(g)), cell("Sessions", g.sessions), cell("Attempts", g.attempts),
      cell("Weber fraction", g.weber_fraction ? fixed(g.weber_fraction.value, 3) : "—"),
      cell("Weber 95 % CI", g.weber_fraction && g.weber_fraction.lower !== null ? fixed(g.weber_fraction.lower, 3) + " to " + fixed(g.weber_fraction.upper, 3) : "—"),
      cell("Bias", percent(g.bias.value)),
      cell("Bias 95 % CI", g.bias.lower !== null ? percent(g.bias.lower) + " to " + percent(g.bias.upper) : "—")));
  }
  section.append(element("div", { class: "card table-wrap" }, element("table", { class: "stack", id: "summary-table" },
    element("caption", { class: "muted" }, "Weber fraction (slope of SD against mean across intervals) and bias (mean error as a share of the target)"),
    element("thead", {}, element("tr", {}, ...["Participant", "Condition", "Sessions", "Attempts", "Weber fraction", "Weber 95 % CI", "Bias", "Bias 95 % CI"].map((h) => element("th", { scope: "col" }, h)))),
    element("tbody", {}, ...rows))));
}

// SD against mean, one dot per interval, and the fitted line: the scalar property at a glance.
function scalarChart(group) {
  const points = group.cells.filter((c) => c.sd_s !== null);
  if (points.length < 2 || !group.scalar_fit) return null;
  const width = 320, height = 220, left = 40, bottom = 40, top = 12, right = 12;
  const maxX = Math.max(...points.map((c) => c.mean_s)) * 1.08, maxY = Math.max(...points.map((c) => c.sd_s)) * 1.15;
  const x = (v) => left + (v / maxX) * (width - left - right), y = (v) => height - bottom - (v / maxY) * (height - top - bottom);
  const fit = group.scalar_fit, x0 = 0, x1 = maxX;
  const clampY = (v) => Math.max(0, Math.min(maxY, v));
  const label = "SD against mean produced duration: " + points.map((c) => seconds(c.target_s) + " mean " + secondsFine(c.mean_s) + ", SD " + secondsFine(c.sd_s)).join("; ") + ". Fitted slope " + fixed(fit.slope.value, 3) + ".";
  const chart = svg("svg", { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label },
    svg("line", { class: "axis", x1: left, y1: height - bottom, x2: width - right, y2: height - bottom }),
    svg("line", { class: "axis", x1: left, y1: top, x2: left, y2: height - bottom }),
    svg("text", { class: "label", x: left - 4, y: height - bottom + 4, "text-anchor": "end" }, "0"),
    svg("text", { class: "label", x: left - 4, y: top + 8, "text-anchor": "end" }, fixed(maxY, 1)),
    svg("text", { class: "label", x: left + 6, y: top + 8 }, "SD (s)"),
    svg("text", { class: "label", x: width - right, y: height - bottom + 16, "text-anchor": "end" }, fixed(maxX, 0)),
    svg("text", { class: "label", x: (left + width - right) / 2, y: height - 6, "text-anchor": "middle" }, "mean produced (s)"),
    svg("line", { class: "line", x1: x(x0), y1: y(clampY(fit.intercept + fit.slope.value * x0)), x2: x(x1), y2: y(clampY(fit.intercept + fit.slope.value * x1)) }),
    ...points.map((c) => svg("circle", { class: "dot", cx: x(c.mean_s), cy: y(c.sd_s), r: 5 })));
  // The shared stylesheet draws charts full width; this one reads better at a card's half.
  chart.style.maxWidth = "420px";
  const figure = element("figure", { class: "scalar" }, chart,
    element("figcaption", { class: "hint" }, "SD against mean, one dot per interval; the line's slope is the Weber fraction."));
  figure.style.margin = "0";
  return figure;
}

function renderParticipant(report) {
  const section = $("#analysis");
  section.replaceChildren(element("h2", {}, "Participant " + report.participant), element("p", { class: "muted" }, "Devices: " + report.devices.join(", ")));
  for (const g of report.groups) {
    const card = element("div", { class: "card group" }, element("h3", {}, groupName(g)),
      element("p", {}, plural(g.sessions, "session") + ", " + plural(g.attempts, "attempt")));
    const figures = element("ul", { class: "plain figures" });
    figures.append(element("li", {}, element("strong", {}, "Weber fraction "),
      g.weber_fraction ? fixed(g.weber_fraction.value, 3) + " (" + range(g.weber_fraction, (v) => fixed(v, 3)) + ")" : "needs two intervals with two attempts each"));
    if (g.mean_cv !== null) figures.append(element("li", {}, element("strong", {}, "Mean coefficient of variation "), fixed(g.mean_cv, 3)));
    figures.append(element("li", {}, element("strong", {}, "Bias "), percent(g.bias.value) + " of the target (" + range(g.bias, percent) + ")"));
    figures.append(element("li", {}, element("strong", {}, "Learning "), trendWords(g.learning)));
    card.append(figures);
    const chart = scalarChart(g);
    const rows = g.cells.map((c) => element("tr", {},
      cell("Interval", seconds(c.target_s)), cell("n", c.n), cell("Mean", secondsFine(c.mean_s)), cell("Ratio", fixed(c.ratio, 3)),
      cell("SD", secondsFine(c.sd_s)), cell("CV", fixed(c.cv, 3))));
    const table = element("div", { class: "table-wrap" }, element("table", { class: "stack" },
      element("caption", { class: "muted" }, "Per interval"),
      element("thead", {}, element("tr", {}, ...["Interval", "n", "Mean", "Ratio", "SD", "CV"].map((h) => element("th", { scope: "col" }, h)))),
      element("tbody", {}, ...rows)));
    // Side by side where there is room (the shared .grid wraps them on a phone).
    card.append(chart ? element("div", { class: "grid" }, table, chart) : table);
    section.append(card);
  }
  for (const f of report.feedback) {
    section.append(element("div", { class: "card feedback" }, element("h3", {}, (modeNames[f.mode] || f.mode) + ": feedback withheld against shown"),
      element("p", {}, plural(f.withheld_attempts, "attempt") + " without feedback, " + plural(f.shown_attempts, "attempt") + " with it."),
      element("p", {}, "Absolute error, withheld − shown: " + fixed(f.abs_error_difference.value * 100, 2) + " points (" + range(f.abs_error_difference, (v) => fixed(v * 100, 2)) + ")."),
      element("p", {}, "Bias, withheld − shown: " + fixed(f.bias_difference.value * 100, 2) + " points (" + range(f.bias_difference, (v) => fixed(v * 100, 2)) + ").")));
  }
}

function setDownloads(participant) {
  const scope = participant ? "participant=" + encodeURIComponent(participant) : "";
  $("#estimates-link").setAttribute("href", "/api/v1/analysis.csv?table=estimates" + (scope ? "&" + scope : ""));
  $("#cells-link").setAttribute("href", "/api/v1/analysis.csv?table=cells" + (scope ? "&" + scope : ""));
  $("#tidy-link").setAttribute("href", "/api/v1/export-tidy.csv" + (scope ? "?" + scope : ""));
}

async function start() {
  let analysis;
  try {
    analysis = await api("/analysis");
  } catch (error) {
    // The reader key form lives on the devices page: send the person there.
    if (error.code === "key_required" || error.code === "key_unknown") {
      showStatus("");
      $("#status").append(element("p", { class: "status" }, "These figures need a reader key from beyond the collector's machine: ", element("a", { href: "/" }, "open the devices page"), " and paste one there."));
    } else showStatus(error.message, "error");
    return;
  }
  const picker = $("#participant-picker");
  for (const p of analysis.participants) picker.append(element("option", { value: p.participant }, p.participant));
  renderSummary(analysis.participants);
  picker.addEventListener("change", () => {
    const chosen = analysis.participants.find((p) => p.participant === picker.value);
    if (chosen) renderParticipant(chosen); else renderSummary(analysis.participants);
    setDownloads(picker.value);
    $("#analysis-announcement").textContent = chosen ? "Showing participant " + chosen.participant + "." : "Showing all participants.";
  });
}

document.addEventListener("DOMContentLoaded", start);
