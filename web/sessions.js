// Chronoception companion: the Sessions page — every session, found by mode, interval and date range.
// Plain scripts that index.html loads in order (no build step); they share their top-level names.
"use strict";
const SESSIONS_PER_PAGE = 25;
const SESSION_MODES = ["challenge", "passive", "fear", "reproduction"];

// The filters travel in the hash (#/sessions?mode=fear&interval=30s&from=2026-11-01&to=2026-11-25):
// the form writes the hash and the router reads it, so back and forward step through searches and a
// search can be bookmarked. Only filters that are set are written.
function sessionFilters(params) {
  const get = (name) => (params.get(name) || "").trim();
  return { mode: get("mode").toLowerCase(), interval: get("interval"), from: get("from"), to: get("to") };
}
function sessionFilterQuery(filters) {
  const query = new URLSearchParams();
  for (const key of ["mode", "interval", "from", "to"]) if (filters[key]) query.set(key, filters[key]);
  return query.toString();
}
// A calendar date the API accepts (YYYY-MM-DD, 1970–2099) that exists (no 30 February).
function isCalendarDay(text) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(text + "T12:00:00Z"), year = Number(text.slice(0, 4));
  return !isNaN(date) && date.toISOString().startsWith(text) && year >= 1970 && year <= 2099;
}
// What the page can judge itself, in words for the field concerned. The interval is judged by the
// API (the core's parser, as `--interval` on the command line), whose sentence names the mistake and
// the forms it accepts.
function sessionFilterProblems(filters) {
  const problems = {};
  if (filters.mode && !SESSION_MODES.includes(filters.mode)) problems.mode = `“${filters.mode}” is not a mode: choose ${SESSION_MODES.map(modeName).join(", ").replace(/, ([^,]*)$/, " or $1")}.`;
  for (const [key, name] of [["from", "first"], ["to", "last"]]) {
    if (filters[key] && !isCalendarDay(filters[key])) problems[key] = `“${filters[key]}” is not a date the device knows: pick the ${name} day from the calendar, or clear it.`;
  }
  if (!problems.from && !problems.to && filters.from && filters.to && filters.from > filters.to) {
    problems.to = "The last day is before the first day: swap them, or clear one.";
  }
  return problems;
}

async function pageSessions(params) {
  setTitle("Sessions");
  const filters = sessionFilters(params);
  const shown = location.hash;
  const field = (key, label, input, hint) => {
    input.id = `f-${key}`; input.name = key;
    const problem = el("p", { class: "field-error", id: `e-${key}`, "data-problem": key, hidden: true });
    input.setAttribute("aria-describedby", `${hint ? `h-${key} ` : ""}e-${key}`);
    return el("div", { class: "field" }, el("label", { for: input.id }, label), input,
      hint ? el("p", { class: "hint", id: `h-${key}` }, hint) : null, problem);
  };
  const mode = el("select", {}, el("option", { value: "" }, "Any mode"), SESSION_MODES.map((m) => el("option", { value: m }, modeName(m))));
  mode.value = SESSION_MODES.includes(filters.mode) ? filters.mode : "";
  const interval = el("input", { type: "text", value: filters.interval, placeholder: "Any interval", inputmode: "text", autocomplete: "off", spellcheck: "false" });
  const from = el("input", { type: "date", value: isCalendarDay(filters.from) ? filters.from : "", min: "1970-01-01", max: "2099-12-31" });
  const to = el("input", { type: "date", value: isCalendarDay(filters.to) ? filters.to : "", min: "1970-01-01", max: "2099-12-31" });
  const inputs = { mode, interval, from, to };
  const search = () => {
    const wanted = sessionFilterQuery({ mode: mode.value, interval: interval.value.trim(), from: from.value, to: to.value });
    const hash = `#/sessions${wanted ? `?${wanted}` : ""}`;
    if (hash === location.hash) route(); else location.hash = hash; // the same search again asks again
  };
  const form = el("form", { class: "card filters", role: "search", "aria-label": "Find sessions", onsubmit: (event) => { event.preventDefault(); search(); } },
    el("div", { class: "fields" },
      field("mode", "Mode", mode),
      field("interval", "Interval", interval, "For example 30s, 5m or 1m30s."),
      field("from", "From", from),
      field("to", "To", to)),
    el("div", { class: "row" }, el("button", { type: "submit" }, "Show sessions"),
      el("button", { type: "button", class: "secondary", onclick: () => { location.hash = "#/sessions"; } }, "Clear")));
  const results = el("section", { class: "card", "aria-labelledby": "sr-title", "data-role": "results" },
    el("h2", { id: "sr-title" }, "Sessions found"), el("p", { class: "muted" }, "Loading…"));
  main.replaceChildren(el("p", {}, el("a", { href: "#/progress" }, "← Progress")), el("h1", {}, "Sessions"), form, results);

  const say = (key, text) => {
    const line = form.querySelector(`[data-problem=${key}]`);
    line.hidden = false; line.replaceChildren(...withCode(text));
    inputs[key].setAttribute("aria-invalid", "true");
  };
  const problems = sessionFilterProblems(filters);
  if (Object.keys(problems).length) {
    for (const [key, text] of Object.entries(problems)) say(key, text);
    results.replaceChildren(el("h2", { id: "sr-title" }, "Sessions found"),
      el("p", { class: "status error", role: "alert" }, "Nothing was searched: correct the filter marked above."));
    return;
  }
  const query = sessionFilterQuery(filters);
  const ask = (cursor) => api(`/sessions?${query ? `${query}&` : ""}limit=${SESSIONS_PER_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
  let page;
  try { page = await ask(null); } catch (error) {
    if (location.hash !== shown) return;
    // Mode and dates were checked above, so a refused query is the interval: its words go beside it.
    if (error.code === "invalid_request" && filters.interval) {
      say("interval", error.words || error.message);
      results.replaceChildren(el("h2", { id: "sr-title" }, "Sessions found"),
        el("p", { class: "status error", role: "alert" }, "Nothing was searched: correct the filter marked above."));
    } else results.replaceChildren(el("h2", { id: "sr-title" }, "Sessions found"), errorBox(error));
    return;
  }
  if (location.hash !== shown) return; // left the page meanwhile
  if (!page.sessions.length && !query) { results.replaceWith(emptyFirstSession()); return; }
  if (!page.sessions.length) {
    results.replaceChildren(el("h2", { id: "sr-title" }, "Sessions found"),
      el("p", { "data-role": "none-found" }, "No sessions match these filters."),
      el("p", { class: "muted" }, "Widen the dates, clear a filter, or ", el("a", { href: "#/sessions" }, "show every session"), "."));
    return;
  }
  const list = sessionList(page.sessions);
  const count = el("p", { class: "muted", role: "status", "data-role": "count" });
  const more = el("button", { type: "button", class: "secondary", "data-role": "more" }, "Show more");
  let total = page.sessions.length, cursor = page.next_cursor;
  const tell = () => {
    count.textContent = cursor ? `Showing the newest ${total} sessions that match.` : total === 1 ? "The one session that matches." : `All ${total} sessions that match.`;
    more.hidden = !cursor;
  };
  more.addEventListener("click", async () => {
    more.disabled = true; more.textContent = "Loading…";
    try {
      const next = await ask(cursor);
      const first = list.children.length;
      list.append(...next.sessions.map(sessionItem));
      total += next.sessions.length; cursor = next.next_cursor;
      const link = list.children[first] && list.children[first].querySelector("a");
      if (link) link.focus(); // the keyboard carries on at the first session added
    } catch (error) { more.after(errorBox(error)); }
    more.disabled = false; more.textContent = "Show more";
    tell();
  });
  tell();
  results.replaceChildren(el("h2", { id: "sr-title" }, "Sessions found"), count, list, el("div", { class: "row" }, more));
}
