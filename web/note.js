// Chronoception companion: a session's note ("tired", "after coffee") on the session page, and the
// note's muted line in session lists. The device's one validator decides (trimmed, one line, at most
// 200 characters as a person counts them); the page counts the same way only to help, and shows the
// device's own words when it refuses.
"use strict";
const NOTE_MAXIMUM = 200;
// Characters as a person counts them (grapheme clusters: "é" or "👍🏽" is one), as the device does.
const noteSegmenter = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
function noteCharacterCount(text) {
  const trimmed = text.trim();
  if (!noteSegmenter) return [...trimmed].length;
  let count = 0;
  for (const _ of noteSegmenter.segment(trimmed)) count++;
  return count;
}

// The session page's note card: a one-line field, Save and (when there is a note) Remove, and what
// happened in words. `session` is GET /sessions/{id}'s answer.
function noteEditor(session) {
  let saved = session.note || "";
  const input = el("input", { type: "text", id: "note-input", name: "note", value: saved, autocomplete: "off",
    placeholder: "e.g. after coffee", "aria-describedby": "note-count note-status", "data-role": "note-input" });
  input.style.maxWidth = "100%";
  const count = el("p", { class: "hint", id: "note-count", "aria-live": "polite" });
  const status = el("p", { class: "status", id: "note-status", role: "status", hidden: true, "data-role": "note-status" });
  const save = el("button", { type: "submit", "data-role": "note-save" }, "Save note");
  const remove = el("button", { type: "button", class: "secondary", "data-role": "note-remove", hidden: !saved }, "Remove note");
  const counted = () => {
    const n = noteCharacterCount(input.value);
    count.textContent = n > NOTE_MAXIMUM ? `${n} characters: ${n - NOTE_MAXIMUM} over the ${NOTE_MAXIMUM} a note holds.` : `${n} of ${NOTE_MAXIMUM} characters.`;
  };
  const show = (ok, text) => { status.hidden = false; status.className = ok ? "status ok" : "status error"; status.textContent = text; };
  async function send(note) {
    save.disabled = remove.disabled = true;
    try {
      const updated = await api(`/sessions/${encodeURIComponent(session.session_id)}`, { method: "PATCH", body: { note } });
      saved = updated.note || "";
      input.value = saved;
      remove.hidden = !saved;
      show(true, saved ? "Note saved." : "Note removed.");
    } catch (error) {
      // The device's own words (a note too long, a line break); the field keeps what was typed.
      show(false, error.status === 404 ? "This session is no longer on the device." : `Not saved: ${error.message}`);
    } finally {
      save.disabled = remove.disabled = false;
      counted();
    }
  }
  input.addEventListener("input", () => { counted(); status.hidden = true; });
  remove.addEventListener("click", () => send(null));
  counted();
  const form = el("form", { "data-role": "note-form", onsubmit: (event) => { event.preventDefault(); send(input.value); } },
    el("label", { for: "note-input" }, "A few words about this session"), input, count,
    el("div", { class: "row" }, save, remove), status);
  return el("section", { class: "card", "aria-labelledby": "note-title", "data-role": "note" }, el("h2", { id: "note-title" }, "Note"), form);
}

// A session list item's note, muted, or nothing.
function noteListLine(session) {
  return session.note ? el("span", { class: "muted", "data-role": "note-line" }, el("br"), `Note: ${session.note}`) : null;
}
