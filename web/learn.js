// Chronoception companion: the Learn page.
// Plain scripts that index.html loads in order (no build step); they share their top-level names.
"use strict";
// The Learn text (ChronoCore's LearnText, shared with `chronoception learn`) is plain text for a
// terminal: paragraphs split by blank lines, commands between backticks, terms as "Term — what it
// means" and FAQ entries as "Question? Answer.". On the page commands are code, terms and questions bold.
function learnParagraph(text) {
  const term = text.match(/^([^—.?]{1,40}) — ([\s\S]*)$/);
  if (term) return el("p", {}, el("strong", {}, term[1]), " — ", withCode(term[2]));
  const question = text.match(/^([^.?!]{10,160}\?) ([\s\S]*)$/);
  if (question) return el("p", {}, el("strong", {}, withCode(question[1])), " ", withCode(question[2]));
  return el("p", {}, withCode(text));
}
async function pageLearn() {
  setTitle("Learn");
  main.replaceChildren(el("h1", {}, "Learn"), el("p", { class: "muted" }, "Loading…"));
  try {
    const data = await api("/learn");
    main.lastChild.replaceWith(...data.sections.map((section, i) => el("section", { class: "card learn-body", "aria-labelledby": `l${i}` },
      el("h2", { id: `l${i}` }, section.title), section.body.split(/\n\s*\n/).map((para) => learnParagraph(para.trim().replace(/\s*\n\s*/g, " "))))));
  } catch (error) { main.lastChild.replaceWith(errorBox(error)); }
}
