// Chronoception companion: Settings' card of paired browsers and keys (who may use the device from
// beyond its own machine), each with where it paired from and when it was last used; one can be revoked.
// Plain scripts that index.html loads in order (no build step); they share their top-level names.
"use strict";
// Where a key came from, in words: the address it paired from, or how it was made.
function keyOrigin(key) {
  if (key.kind === "command-line") return "Made at the device's command line";
  if (key.kind === "login") return "Opened with a login link";
  if (key.paired_from === "loopback") return "Paired on the device's own machine";
  if (key.paired_from === "unix-socket") return "Paired from the device's command line";
  return key.paired_from ? `Paired from ${key.paired_from}` : "Paired on the device";
}

// `keys`: GET /keys's list. Revoking this browser's own key sends it back to the pair step.
function keysCard(keys) {
  const list = el("ul", { class: "plain", "data-role": "keys" });
  const note = el("div", { role: "status" });
  for (const key of keys) {
    list.append(el("li", { class: "spread", "data-key": key.id },
      el("div", {},
        el("p", {}, el("strong", { "data-role": "key-name" }, key.name), key.current ? [" ", el("span", { class: "badge info", "data-role": "this-browser" }, "this browser")] : null),
        el("p", { class: "hint", "data-role": "key-origin" }, keyOrigin(key), ` · added ${when(key.created_at)}`),
        el("p", { class: "hint", "data-role": "key-last-used" }, key.last_used_at ? `Last used ${when(key.last_used_at)}` : "Not used yet")),
      el("button", { type: "button", class: "secondary", "aria-label": `Revoke ${key.name}`, onclick: async (event) => {
        const warning = key.current
          ? `Revoke “${key.name}”? This is the browser you are using: it will need to pair again, with the device's button.`
          : `Revoke “${key.name}”? That browser or app will need to pair again, with the device's button.`;
        if (!confirm(warning)) return;
        try {
          await api(`/keys/${encodeURIComponent(key.id)}`, { method: "DELETE" });
          if (key.current) { route(); return; }
          event.target.closest("li").remove();
          note.replaceChildren(el("p", { class: "status ok" }, `Revoked “${key.name}”.`));
        } catch (error) { note.replaceChildren(errorBox(error)); }
      } }, "Revoke")));
  }
  const hint = el("p", { class: "hint", "data-role": "keys-hint" }, "To use the companion on a phone or another computer, open this page there at the device's address and press Pair; then hold the device's button down while it is idle. A key for a script is made with ",
    el("code", {}, "chronoception companion keys add NAME"), ".");
  // Without a device (`chronoception companion` over a data folder) there is no button to approve with.
  api("/device").then((data) => {
    if (data.device.state !== "NoDevice") return;
    hint.replaceChildren("This companion runs without a device, so a browser cannot pair here: open a login link instead (the companion prints one when it listens beyond this machine), or make a key with ",
      el("code", {}, "chronoception companion keys add NAME"), ".");
  }).catch(() => {});
  return el("section", { class: "card", "aria-labelledby": "st-keys", "data-role": "keys-card" }, el("h2", { id: "st-keys" }, "Paired browsers and keys"),
    keys.length ? list : el("p", { class: "muted" }, "None yet."),
    hint,
    note);
}
