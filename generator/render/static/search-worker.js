/*
 * readinglist: Material for MkDocs' search worker protocol, answered by Pagefind.
 *
 * Material runs its search in a web worker whose URL comes from its configuration and talks to
 * it with four messages (see its integrations/search/worker/message): SETUP (0) with the lunr
 * index, READY (1), QUERY (2) with the text typed, and RESULT (3) with the items to show. This
 * worker keeps that protocol and Material's whole search box, but looks the query up in the
 * Pagefind index written by generator/search.py, which loads only the index chunks a query needs.
 *
 * The worker file lives at <site>/assets/javascripts/, so the site root (and any sub-path the site
 * is published under, such as /reading-list/) is two folders up from it.
 */
"use strict";

const SETUP = 0, READY = 1, QUERY = 2, RESULT = 3;
// Results whose title and excerpt are fetched (one small file each) and shown, best first.
const SHOWN = 20;
// Material sends a query at every key-up. Searching each prefix of a word ("d", "di", "dif", ...)
// would fetch the index chunks of every prefix (megabytes at ten thousand papers); wait until
// typing pauses, and ignore a lone character.
const PAUSE_MS = 120;
const MIN_LENGTH = 2;

const root = new URL("../../", self.location.href);
let pagefind = null;
let latest = 0;
let queue = Promise.resolve();

const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" };

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, c => ENTITIES[c]);
}

// Material inserts title and text as HTML: everything is escaped, then only Pagefind's
// <mark> highlights are let through.
function excerptHtml(text) {
  return escapeHtml(text)
    .replace(/&amp;(lt|gt|amp|quot|#39);/g, "&$1;")  // Pagefind escapes its excerpts itself
    .replace(/&lt;mark&gt;/g, "<mark>")
    .replace(/&lt;\/mark&gt;/g, "</mark>");
}

async function setup() {
  try {
    const mod = await import(new URL("pagefind/pagefind.js", root).href);
    await mod.options({ baseUrl: root.pathname, excerptLength: 40 });
    await mod.init();
    pagefind = mod;
  } catch (err) {
    console.error("readinglist search: cannot load the Pagefind index", err);
  }
  self.postMessage({ type: READY });
}

async function search(query) {
  const text = query.trim();
  if (!pagefind || text.length < MIN_LENGTH)
    return { items: [] };
  const found = await pagefind.search(text);
  if (!found || !found.results)
    return { items: [] };
  const top = found.results.slice(0, SHOWN);
  const data = await Promise.all(top.map(r => r.data()));
  const terms = {};
  for (const word of text.toLowerCase().split(/\s+/))
    if (word) terms[word] = true;
  return {
    items: data.map((d, i) => [{
      location: d.url,
      title: escapeHtml((d.meta && d.meta.title) || d.url),
      text: excerptHtml(d.excerpt || ""),
      score: top[i].score || 0,
      terms: terms
    }])
  };
}

self.addEventListener("message", ev => {
  const message = ev.data || {};
  if (message.type === SETUP) {
    queue = queue.then(setup);
  } else if (message.type === QUERY) {
    // Answer only the last query of a burst, in order, and drop those overtaken meanwhile.
    const id = ++latest;
    const query = String(message.data || "");
    setTimeout(() => {
      if (id !== latest)
        return;
      queue = queue.then(async () => {
        if (id !== latest)
          return;
        let result;
        try {
          result = await search(query);
        } catch (err) {
          console.error("readinglist search:", err);
          result = { items: [] };
        }
        if (id === latest)
          self.postMessage({ type: RESULT, data: result });
      });
    }, query.trim() ? PAUSE_MS : 0);
  }
});
