// Chronoception companion: the assigned study's consent (docs/STUDIES.md, "Consent").
// Plain scripts that index.html loads in order (no build step); they share their top-level names.
// The protocol's name, description and consent text come from the collector: they are set as text
// (el's children are text nodes), never as HTML.
"use strict";
// Home's consent card, when the device's study waits for an answer (GET /device's study.consent is
// "needed"): the protocol's words, Accept and Decline. Answered, Home is drawn again.
async function consentCard() {
  let data;
  try { data = await api("/study/consent"); } catch (error) { return el("section", { class: "card" }, errorBox(error)); }
  const study = data.study;
  if (!study || study.consent !== "needed") return null;
  const note = el("p", { class: "status", role: "status", hidden: true, "data-role": "consent-answer" });
  async function answer(decision) {
    note.hidden = false; note.className = "status"; note.textContent = "Saving your answer…";
    try {
      await api("/study/consent", { method: "POST", body: { decision } });
      pageHome();
    } catch (error) { note.className = "status error"; note.replaceChildren(...withCode(error.words || error.message)); }
  }
  return el("section", { class: "card consent", id: "consent-card", "aria-labelledby": "h-consent", "data-role": "consent" },
    el("h2", { id: "h-consent" }, "A study asks for your consent"),
    el("p", {}, "Study ", el("strong", { "data-role": "consent-protocol" }, study.protocol), ` (version ${study.version})`),
    study.description ? el("p", { class: "muted", "data-role": "consent-description" }, study.description) : null,
    el("blockquote", { "data-role": "consent-text" }, study.consent_text),
    el("p", { class: "hint" }, "No study session starts before you accept. Your own sessions run either way. You can withdraw later in Settings; declining or withdrawing stops the study on this device and tells the study team."),
    el("div", { class: "row" },
      el("button", { type: "button", "data-role": "consent-accept", onclick: () => answer("accept") }, "Accept"),
      el("button", { type: "button", class: "secondary", "data-role": "consent-decline", onclick: () => answer("decline") }, "Decline")),
    note);
}

const CONSENT_WORDS = {
  not_needed: "This study asks for no consent.",
  needed: "Waiting for your answer: Home shows the consent text with Accept and Decline.",
  accepted: "You accepted.",
  declined: "You declined: the study is stopped on this device.",
  withdrawn: "You withdrew: the study is stopped on this device.",
};
// Settings' study card: where consent stands, and Withdraw while it is accepted (two steps, since it
// stops the study). Nothing without an assigned study.
function consentSettingsCard() {
  const card = el("section", { class: "card", "aria-labelledby": "st-study", "data-role": "consent-settings", hidden: true },
    el("h2", { id: "st-study" }, "Study"));
  api("/study/consent").then((data) => {
    const study = data.study;
    if (!study) return;
    const note = el("div", { role: "status" });
    const decided = study.decision ? ` (${when(study.decision.decided_at)})` : "";
    const withdraw = el("button", { type: "button", class: "danger", "data-role": "consent-withdraw", onclick: () => {
      note.replaceChildren(
        el("p", { class: "status error" }, "Withdrawing stops the study on this device: no more of its sessions start, and the study team is told at the next sync. Your sessions so far stay."),
        el("div", { class: "row" },
          el("button", { type: "button", class: "danger", "data-role": "consent-withdraw-confirm", onclick: async () => {
            try { await api("/study/consent", { method: "POST", body: { decision: "withdraw" } }); pageSettings(); }
            catch (error) { note.replaceChildren(errorBox(error)); } } }, "Yes, withdraw"),
          el("button", { type: "button", class: "secondary", onclick: () => note.replaceChildren(el("p", { class: "status" }, "Kept: you are still in the study.")) }, "Stay in the study")));
    } }, "Withdraw consent…");
    card.append(
      el("p", {}, "Study ", el("strong", {}, study.protocol), ` (version ${study.version})`),
      el("p", { "data-role": "consent-standing" }, (CONSENT_WORDS[study.consent] || study.consent) + decided),
      study.consent === "accepted" ? el("div", { class: "row" }, withdraw) : null, note);
    card.hidden = false;
  }).catch((error) => { card.append(errorBox(error)); card.hidden = false; });
  return card;
}
