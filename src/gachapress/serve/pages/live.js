// The preview's part of every page: a toolbar to each game's gallery, sheets, rulebook and Play
// page, an overlay listing check errors (the page below stays the last good build), and a
// reload when a newer build is published (a page made of PDFs when newer PDFs are: an edit
// publishes its faces and pages first, its PDFs a few seconds later).
(() => {
  const me = document.currentScript;
  const generation = Number(me.dataset.generation);
  const pdfs = me.dataset.pdfs === undefined ? null : Number(me.dataset.pdfs);
  const games = me.dataset.games.split(" ").filter(Boolean);
  const playable = (me.dataset.playable || "").split(" ").filter(Boolean);
  const style = document.createElement("style");
  style.textContent = `
    #gachapress-bar { position: sticky; top: 0; z-index: 2147483646; margin: 0 0 .5rem;
      font: 14px/1.6 system-ui, sans-serif; background: #222; color: #eee; padding: .3rem .8rem;
      display: flex; flex-wrap: wrap; gap: .2rem 1rem; }
    #gachapress-bar a { color: #fff; }
    #gachapress-pending { color: #fc6; }
    #gachapress-problems { position: fixed; bottom: 0; left: 0; right: 0; max-height: 45vh;
      overflow: auto; z-index: 2147483647; background: rgba(120, 0, 0, .94); color: #fff;
      font: 14px/1.5 ui-monospace, monospace; padding: .8rem 1rem; white-space: pre-wrap; }
    #gachapress-problems h2 { font: bold 15px system-ui, sans-serif; margin: 0 0 .4rem; }`;
  document.head.append(style);
  const bar = document.createElement("nav");
  bar.id = "gachapress-bar";
  bar.setAttribute("aria-label", "Preview");
  const link = (href, text) => {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    return a;
  };
  bar.append(link("/", "index"));
  // A rulebook or a Play page is in the language its reader chose: its Play links follow it
  // (elsewhere a Play page opens in its game's first language).
  const chosen = /\/rulebook\.[^/]+\.html$|^\/_serve\/play\//.test(location.pathname)
    ? document.documentElement.lang : "";
  const play = (game) => `/_serve/play/${game}${chosen ? `?lang=${encodeURIComponent(chosen)}` : ""}`;
  // A game's rulebook in that language, else in English, else in its one language.
  const books = Object.fromEntries((me.dataset.books || "").split(" ").filter(Boolean)
    .map((entry) => [entry.split(":")[0], entry.split(":")[1].split(",")]));
  const rulebook = (game) => {
    const langs = books[game] || [];
    const lang = langs.includes(chosen) ? chosen : langs.includes("en") ? "en" : langs[0];
    return lang ? `/${game}/rulebook.${lang}.html` : null;
  };
  for (const game of games) {
    const span = document.createElement("span");
    span.append(`${game}: `, link(`/_serve/gallery/${game}`, "cards"), " · ",
      link(`/_serve/sheets/${game}`, "sheets"));
    if (rulebook(game)) span.append(" · ", link(rulebook(game), "rulebook"));
    if (playable.includes(game)) span.append(" · ", link(play(game), "play"));
    bar.append(span);
  }
  const pending = document.createElement("span");
  pending.id = "gachapress-pending";
  pending.setAttribute("role", "status");
  pending.hidden = true;
  pending.textContent = "making the PDFs…";
  bar.append(pending);
  const skip = document.body.querySelector(":scope > a.skip");  // a book's skip link stays first
  if (skip) skip.after(bar); else document.body.prepend(bar);
  const overlay = document.createElement("section");
  overlay.id = "gachapress-problems";
  overlay.setAttribute("role", "alert");
  overlay.hidden = true;
  document.body.append(overlay);
  const show = (problems) => {
    overlay.replaceChildren();
    overlay.hidden = problems.length === 0;
    if (!problems.length) return;
    const title = document.createElement("h2");
    title.textContent = "The last save does not check; this page shows the last good build.";
    const list = document.createElement("div");
    list.textContent = problems.join("\n");
    overlay.append(title, list);
  };
  const events = new EventSource("/_serve/events");
  events.onmessage = (event) => {
    const state = JSON.parse(event.data);
    if (pdfs === null ? state.generation > generation : state.pdfs > pdfs) {
      events.close();
      location.reload();
      return;
    }
    pending.hidden = !state.pending;
    show(state.problems);
  };
})();
