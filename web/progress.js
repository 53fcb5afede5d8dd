// Chronoception companion: Progress, a day's sessions and one session.
// Plain scripts that index.html loads in order (no build step); they share their top-level names.
"use strict";
// Progress is the heaviest page: when the app opens on it, its two requests leave before the rest of
// the scripts are evaluated (pageProgress takes them over).
let progressPrefetch = /^#\/progress\/?$/.test(location.hash) && localStorage.getItem(ONBOARDED)
  ? { report: api("/progress"), daily: api("/progress/daily?days=30") } : null;
if (progressPrefetch) for (const request of Object.values(progressPrefetch)) request.catch(() => {});

// A day-by-day line chart: days without data are gaps (shaded, never drawn as zero); a day with
// data is a link to that day's sessions. It is drawn at the width it is shown at (`width`, the
// container's CSS pixels), so one unit of the drawing is one CSS pixel and the labels keep their
// stylesheet size: a 640-unit drawing squeezed onto a 390 px phone made them 6 px high.
// The axis of a chart in seconds: ticks on whole seconds (the display rule shows no fractions), so
// each reads differently and says where its line is. The step is the smallest of 1 s, 2 s, 5 s, 10 s,
// 15 s, 30 s, 1m, 2m, 5m, 10m, 15m, 30m, 1h (or whole hours) that needs at most four steps to pass
// the largest value with room above it; a day's values under a second give 0s and 1s.
function secondTicks(values) {
  const wanted = Math.max(1, Math.max(0, ...values.filter((v) => v !== null)) * 1.15);
  const steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600];
  const step = steps.find((s) => wanted / s <= 4) || Math.ceil(wanted / 4 / 3600) * 3600;
  const count = Math.max(1, Math.ceil(wanted / step - 1e-9));
  return Array.from({ length: count + 1 }, (_, i) => i * step);
}
function dailyChart(series, { label, ticks, format, width: shownWidth }) {
  const width = Math.round(shownWidth > 0 ? Math.max(280, shownWidth) : 640), height = 200, left = 56, right = 16, top = 12, bottom = 26;
  const n = series.length, step = (width - left - right) / Math.max(n, 1);
  const top_ = ticks[ticks.length - 1];
  const x = (i) => left + step * (i + 0.5), y = (v) => top + (height - top - bottom) * (1 - v / top_);
  const root = svg("svg", { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label });
  root.append(svg("title", {}, label));
  for (const v of ticks) {
    root.append(svg("line", { class: "axis", x1: left, x2: width - right, y1: y(v), y2: y(v) }),
      svg("text", { class: "label", x: left - 6, y: y(v) + 4, "text-anchor": "end" }, format(v)));
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
  const labelEvery = Math.ceil(n / Math.max(3, Math.min(8, Math.floor((width - left - right) / 64))));
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
// A study block without feedback: its sessions count, their results stay out of every figure until
// the block ends (the device decides; the words are `chronoception progress`'s).
function withheldNote(count) {
  if (!count) return null;
  return el("p", { class: "muted", "data-role": "results-withheld" },
    `Results withheld for ${count} session${count === 1 ? "" : "s"} (a study block without feedback): counted, not in these figures.`);
}

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
      el("div", { class: "spread" }, el("h2", {}, name), el("span", { class: "muted" }, plural(item.completed_sessions, "session"))),
      el("p", {}, el("span", { class: "big" }, seconds(item.typical_error_seconds_last_7_days)), " ", el("span", { class: "muted" }, "typical error, last 7 days")),
      el("p", {}, `Trend: ${trend} (7 days before: ${seconds(item.typical_error_seconds_7_days_before)})`),
      el("p", {}, "Time Acuity: ", el("strong", {}, item.time_acuity_score === null ? "—" : String(item.time_acuity_score))),
      item.last_zones.length ? zoneStrip(item.last_zones) : null,
      withheldNote(item.results_withheld_sessions)));
  }
  const range = el("div", { class: "row", role: "group", "aria-label": "Days shown" },
    [30, 90].map((n) => el("button", { type: "button", class: "chip", "aria-pressed": String(progressDays === n), onclick: () => { progressDays = n; pageProgress(); } }, `${n} days`)));
  const charts = el("div", { "data-role": "charts" }, el("p", { class: "muted" }, "Loading…"));
  nodes.push(el("section", { class: "card", "aria-labelledby": "c-title" },
    el("div", { class: "spread" }, el("h2", { id: "c-title" }, "Day by day"), range), charts));
  if (report.intervals.length > 1 || progressInterval) nodes.splice(1, 0, intervalChips);
  const withheld = withheldNote(report.results_withheld_sessions);
  if (withheld) nodes.splice(1, 0, withheld);
  if (report.intervals.length) nodes.push(cards);
  else nodes.push(el("p", { class: "card" }, "No completed sessions at this interval yet."));
  if (report.mode_mix.length) {
    const bar = el("div", { class: "mix", role: "img", "aria-label": report.mode_mix.map((m) => `${modeName(m.mode)} ${Math.round(m.share * 100)}%`).join(", ") });
    for (const m of report.mode_mix) { const part = el("span", { class: m.mode }); part.style.width = `${m.share * 100}%`; bar.append(part); }
    nodes.push(el("section", { class: "card", "aria-labelledby": "m-title" }, el("h2", { id: "m-title" }, "Mode mix"), bar,
      el("p", { class: "legend" }, report.mode_mix.map((m) => el("span", {}, `${modeName(m.mode)}: ${m.sessions} (${Math.round(m.share * 100)}%)`)))));
  }
  nodes.push(el("section", { class: "card", "aria-labelledby": "r-title" },
    el("div", { class: "spread" }, el("h2", { id: "r-title" }, "Recent sessions"), el("a", { href: "#/sessions", "data-role": "find-sessions" }, "Find sessions →")),
    sessionList(report.recent_sessions)));
  main.replaceChildren(...nodes);
  performance.mark("progress-summary");
  window.__progressRendered = performance.now();
  let daily;
  try { daily = await dailyRequest; } catch (error) { charts.replaceChildren(errorBox(error)); return; }
  if (location.hash !== shown) return;
  const missing = daily.time_acuity.filter((p) => p.value === null).length;
  charts.replaceChildren(
    el("h3", {}, "Time Acuity (0–100)"),
    dailyChart(daily.time_acuity, { label: `Time Acuity per day over ${progressDays} days; ${missing} days without attempts are gaps`, ticks: [0, 50, 100], format: (v) => String(Math.round(v)), width: charts.clientWidth }),
    el("h3", {}, "Typical error"),
    dailyChart(daily.typical_error_seconds, { label: `Typical error per day over ${progressDays} days`, ticks: secondTicks(daily.typical_error_seconds.map((p) => p.value)), format: seconds, width: charts.clientWidth }),
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
  return el("ul", { class: "plain" }, sessions.map(sessionItem));
}
function sessionItem(s) {
  return el("li", {},
    el("div", { class: "spread" },
      el("a", { href: `#/session/${encodeURIComponent(s.session_id)}` }, `${modeName(s.mode)} · ${intervalText(s.target_interval_seconds)}`),
      el("span", { class: "muted" }, when(s.started_at))),
    el("span", { class: "muted" }, `${s.status} · ${s.done_count} of ${s.planned_count}`,
      s.time_acuity_score !== null ? ` · Time Acuity ${s.time_acuity_score}` : "",
      s.mean_abs_error_seconds !== null ? ` · typical error ${seconds(s.mean_abs_error_seconds)}` : "",
      s.results_withheld ? " · results withheld (study block without feedback)" : ""), noteListLine(s));
}

async function pageDay(day) {
  setTitle(day);
  main.replaceChildren(el("p", {}, el("a", { href: "#/progress" }, "← Progress")), el("h1", {}, dayLabel(day)), el("p", { class: "muted" }, "Loading…"));
  try {
    const data = await api(`/sessions?from=${day}&to=${day}&limit=100`);
    main.lastChild.replaceWith(el("section", { class: "card", "aria-label": "Sessions that day" }, sessionList(data.sessions)),
      el("p", {}, el("a", { href: `#/sessions?from=${day}&to=${day}` }, "Filter this day's sessions by mode or interval")));
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
    s.time_acuity_score !== null ? el("p", {}, el("span", { class: "big" }, String(s.time_acuity_score)), " Time Acuity · typical error ", seconds(s.mean_abs_error_seconds), " · ", biasWords(s.mean_signed_error_seconds)) : null,
    s.results_withheld ? el("p", { "data-role": "results-withheld" }, `${withheldWords(s)} ${plural(s.attempts.length, "attempt")} recorded.`) : null,
    s.fear_sound_effective !== null ? el("p", {}, `Fear sound effective: ${s.fear_sound_effective ? "yes" : "no"}`) : null,
    el("p", { class: "muted" }, `Health log: ${s.health_log || "not written"}`));
  const parts = [summary, noteEditor(s)];
  if (s.attempts.length && !s.results_withheld) {
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
