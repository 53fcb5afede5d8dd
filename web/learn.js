// Chronoception companion: the Learn page.
// Plain scripts that index.html loads in order (no build step); they share their top-level names.
"use strict";
async function pageLearn() {
  setTitle("Learn");
  main.replaceChildren(el("h1", {}, "Learn"), el("p", { class: "muted" }, "Loading…"));
  try {
    const data = await api("/learn");
    main.lastChild.replaceWith(...data.sections.map((section, i) => el("section", { class: "card learn-body", "aria-labelledby": `l${i}` },
      el("h2", { id: `l${i}` }, section.title), section.body.split(/\n\s*\n/).map((para) => el("p", {}, para.trim())))));
  } catch (error) { main.lastChild.replaceWith(errorBox(error)); }
}
