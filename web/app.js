// Chronoception companion: the router; it starts the app once every page's script is loaded.
// Plain scripts that index.html loads in order (no build step); they share their top-level names.
"use strict";
// ---- router ------------------------------------------------------------------------------
function route() {
  // A page's filters follow a "?" (#/sessions?mode=fear&from=…), so back and forward restore them.
  const whole = location.hash.replace(/^#\/?/, ""), mark = whole.indexOf("?");
  const hash = mark < 0 ? whole : whole.slice(0, mark), query = new URLSearchParams(mark < 0 ? "" : whole.slice(mark + 1));
  const [page, arg] = [hash.split("/")[0] || "home", decodeURIComponent(hash.split("/").slice(1).join("/"))];
  if (!localStorage.getItem(ONBOARDED) && page !== "welcome") { location.replace("#/welcome"); return; }
  const tab = { day: "progress", session: "progress", sessions: "progress", welcome: "" }[page] ?? page;
  for (const a of document.querySelectorAll("nav.tabs a")) {
    if (a.dataset.page === tab) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
  }
  const pages = { welcome: pageWelcome, home: pageHome, progress: pageProgress, learn: pageLearn, settings: pageSettings,
    day: () => pageDay(arg), session: () => pageSession(arg), sessions: () => pageSessions(query) };
  (pages[page] || pageHome)();
  if (document.activeElement && document.activeElement !== document.body && !main.contains(document.activeElement)) main.focus({ preventScroll: true });
}
// A page's request answered "this browser has no key" (core.js's api()): the pair step takes the page,
// and the tabs are hidden (every page needs the key). Once paired, the page continues where it was
// (onboarding first if not done) and the live events start again with the new cookie.
function showPairStep() {
  const tabs = document.querySelector("nav.tabs");
  // A page's requests leave together: the first 401 shows the step, the others find it shown. A page
  // opened while it was shown (a hash typed in the address bar) drew over it: it is drawn again.
  if (tabs.hidden && main.querySelector("[data-role^=pair-]")) return;
  tabs.hidden = true;
  setTitle("Pair this browser");
  pagePair(() => {
    document.querySelector("nav.tabs").hidden = false;
    if (source) source.close();
    source = null;
    startEvents();
    route();
  });
}
window.addEventListener("hashchange", route);
startEvents();
route();
