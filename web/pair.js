// Chronoception companion: pairing this browser with the device, for a browser that has no key (a
// phone or laptop beyond the device's own loopback). The router shows it (app.js's showPairStep) when
// any request answers that a key is needed; the person names the browser here and approves on the
// device with its button. The key comes back only as an HttpOnly cookie: this script never sees it.
// Plain scripts that index.html loads in order (no build step); they share their top-level names.
"use strict";
// The request under way survives the page being drawn again (a tab pressed, a hash changed): a
// second draw shows the same step instead of a new form.
let pairing = { step: "form", name: null, outcome: null, retryAt: 0 };

// "Chrome on Android", "Firefox on Windows", from navigator.userAgent: a name the person recognises
// in the device's list; they may change it.
function browserName(agent = navigator.userAgent) {
  const browsers = [[/Edg(e|A|iOS)?\//, "Edge"], [/OPR\/|Opera/, "Opera"], [/SamsungBrowser/, "Samsung Internet"], [/Firefox\/|FxiOS/, "Firefox"],
    [/Chrome\/|Chromium\/|CriOS/, "Chrome"], [/Safari\//, "Safari"]];
  const systems = [[/Android/, "Android"], [/iPhone/, "iPhone"], [/iPad/, "iPad"], [/CrOS/, "ChromeOS"], [/Windows/, "Windows"],
    [/Mac OS X|Macintosh/, "Mac"], [/Linux/, "Linux"]];
  const browser = (browsers.find(([pattern]) => pattern.test(agent)) || [null, "Browser"])[1];
  const system = (systems.find(([pattern]) => pattern.test(agent)) || [null, null])[1];
  return system ? `${browser} on ${system}` : browser;
}

// The device's answer in words, and whether trying again at once makes sense.
function pairingOutcome(status, code, retryAfter) {
  if (status === 403) return { title: "Not approved", text: "Nobody held the device's button while it asked, so this browser is not paired and nothing changed. Try again when you are next to the device." };
  if (status === 409 && code === "no_device") return { title: "No device here", text: "This companion runs without a device (it only shows a data folder), so there is no button to approve with. On the machine it runs on, make a key for this browser or ask for a login link." };
  if (status === 409) return { title: "Another request is waiting", text: "A pairing request is already waiting on the device (from this browser's address, or several from elsewhere). Approve it with a long press on the device, or let it expire — about half a minute after the device announced it — then try again." };
  if (status === 429) {
    const seconds = Math.max(1, parseInt(retryAfter, 10) || 60);
    return { title: "Too many requests", retrySeconds: seconds, text: code === "too_many_failures"
      ? `Too many failed sign-ins came from this address, so the device is not answering it for now. You can try again in ${seconds} seconds.`
      : `Too many pairing requests came from this address in the last minute. You can try again in ${seconds} seconds.` };
  }
  if (status === 422) return { title: "That name does not work", text: "A name is 1 to 64 characters, without line breaks. Change it and try again." };
  if (status === 0) return { title: "The device did not answer", text: "Check that it is on and reachable from here, then try again." };
  return { title: "Pairing did not work", text: `The device answered with an error (${status}). Try again; if it keeps happening, restart the device's program.` };
}

function pagePair(done) {
  const heading = el("h1", { tabindex: "-1" }, "Pair this browser");
  main.replaceChildren(heading, pairing.step === "waiting" ? waitingStep() : pairing.step === "failed" ? failedStep() : formStep());
  const focus = main.querySelector("[data-focus]") || heading;
  focus.focus({ preventScroll: true });

  function formStep() {
    const name = el("input", { type: "text", id: "pair-name", value: pairing.name || browserName(), maxlength: 64, autocomplete: "off",
      required: true, "aria-describedby": "pair-name-hint", "data-focus": true });
    return el("form", { class: "card", "data-role": "pair-form", "aria-labelledby": "pair-title", onsubmit: (event) => {
        event.preventDefault();
        const chosen = name.value.trim();
        if (!chosen) { name.focus(); return; }
        ask(chosen);
      } },
      el("h2", { id: "pair-title" }, "This browser is not paired yet"),
      el("p", {}, "To show your sessions and settings here, this browser needs a key of its own from the device. You ask for it here and approve it on the device, with its button: only someone holding the device can let a browser in."),
      el("label", { for: "pair-name" }, "Name for this browser"), name,
      el("p", { class: "hint", id: "pair-name-hint" }, "The device lists paired browsers by this name, and you can remove one in Settings."),
      el("div", { class: "row" }, el("button", { type: "submit", id: "pair-button" }, "Pair")));
  }

  function waitingStep() {
    return el("section", { class: "card", "data-role": "pair-waiting", "aria-labelledby": "approve-title" },
      el("h2", { id: "approve-title", tabindex: "-1", "data-focus": true }, "Approve on the device"),
      el("p", { role: "status" }, "The device is asking now whether to let in ", el("strong", {}, pairing.name), ". It announces the request with a buzz, two ticks and a buzz."),
      el("ol", { "data-role": "pair-instructions" },
        el("li", {}, "Go to the device. If a session is running, finish it first: a request waits until the session ends."),
        el("li", {}, "Hold the device's button down for a couple of seconds — a long press. A short tap would start a session instead."),
        el("li", {}, "This page carries on by itself as soon as the device says yes.")),
      el("p", { class: "hint" }, "The device asks for about half a minute. If nobody holds the button, nothing changes and you can try again. Other people's requests show their name and address on the device, so you can tell them from yours."));
  }

  function failedStep() {
    const outcome = pairing.outcome;
    const wait = Math.ceil((pairing.retryAt - Date.now()) / 1000);
    const again = el("button", { type: "button", id: "pair-again", "data-focus": true, disabled: wait > 0,
      onclick: () => { pairing.step = "form"; pagePair(done); } }, "Try again");
    if (wait > 0) {
      // The button comes back when the device will listen again.
      setTimeout(() => { if (again.isConnected) again.disabled = false; }, wait * 1000);
    }
    return el("section", { class: "card", "data-role": "pair-failed", "aria-labelledby": "failed-title" },
      el("h2", { id: "failed-title" }, outcome.title),
      el("p", { class: "status error", role: "alert", "data-role": "pair-message" }, outcome.text),
      el("div", { class: "row" }, again));
  }

  async function ask(name) {
    pairing = { step: "waiting", name, outcome: null, retryAt: 0 };
    pagePair(done);
    let response = null;
    try {
      // A long poll: the device answers when the button is held (201) or the request expires (403).
      response = await fetch(`${API}/pairing`, { method: "POST", credentials: "same-origin",
        headers: { Accept: "application/json", "Content-Type": "application/json" }, body: JSON.stringify({ name, deliver: "cookie" }) });
    } catch (_) { response = null; }
    if (response && response.status === 201) {
      pairing = { step: "form", name: null, outcome: null, retryAt: 0 };
      done();
      return;
    }
    let code = null;
    if (response) { try { const data = await response.json(); code = data && data.error ? data.error.code : null; } catch (_) { code = null; } }
    const outcome = pairingOutcome(response ? response.status : 0, code, response ? response.headers.get("Retry-After") : null);
    pairing = { step: "failed", name, outcome, retryAt: outcome.retrySeconds ? Date.now() + outcome.retrySeconds * 1000 : 0 };
    // Drawn again only if the pair step is still what the page shows.
    if (main.querySelector("[data-role=pair-waiting]")) pagePair(done);
  }
}
