/*
 * readinglist: the search box answered by Pagefind, through Pagefind's own JavaScript API.
 *
 * The readinglist MkDocs plugin writes a Pagefind index of the papers (generator/site/search.py)
 * and overrides Material's documented partials/search.html with the same box minus its
 * `data-md-component` attributes, so Material's own search leaves it alone. This script listens
 * for typing in that box (by delegation: paper pages insert the box from a shared script, and
 * instant navigation swaps pages), looks the query up with `pagefind.search`, which loads only
 * the index chunks a query needs, and lists the results in Material's result markup.
 *
 * The script lives at <site>/assets/javascripts/, so the site root (and any sub-path the site is
 * published under, such as /reading-list/) is two folders up from it.
 */
(function () {
  "use strict";
  if (window.__readinglistSearch)
    return;
  window.__readinglistSearch = true;

  // Results whose title and excerpt are fetched (one small file each) and shown, best first.
  var SHOWN = 20;
  // Searching each prefix of a word would fetch the index chunks of every prefix: wait until
  // typing pauses, and ignore a lone character.
  var PAUSE_MS = 120;
  var MIN_LENGTH = 2;
  var ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" };

  var root = new URL("../../", document.currentScript.src);
  var loading = null;
  var latest = 0;
  var timer = null;
  var shownFor = null;  // the text whose results are listed

  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, function (c) { return ENTITIES[c]; });
  }

  // Everything is escaped, then only Pagefind's <mark> highlights are let through.
  function excerptHtml(text) {
    return escapeHtml(text)
      .replace(/&amp;(lt|gt|amp|quot|#39);/g, "&$1;")  // Pagefind escapes its excerpts itself
      .replace(/&lt;mark&gt;/g, "<mark>")
      .replace(/&lt;\/mark&gt;/g, "</mark>");
  }

  function pagefind() {
    if (!loading) {
      loading = import(new URL("pagefind/pagefind.js", root).href).then(function (mod) {
        return mod.options({ baseUrl: root.pathname, excerptLength: 40 }).then(function () {
          return mod.init();
        }).then(function () { return mod; });
      });
    }
    return loading;
  }

  function show(box, html, meta) {
    var dialog = box.closest("[data-rl-search]");
    if (!dialog)
      return;
    dialog.querySelector(".md-search-result__list").innerHTML = html;
    dialog.querySelector(".md-search-result__meta").textContent = meta;
  }

  function search(box) {
    var text = box.value.trim();
    var id = ++latest;
    if (text.length < MIN_LENGTH) {
      show(box, "", "Type to start searching");
      return;
    }
    pagefind().then(function (mod) {
      return mod.search(text);
    }).then(function (found) {
      var top = (found && found.results ? found.results : []).slice(0, SHOWN);
      return Promise.all(top.map(function (r) { return r.data(); })).then(function (data) {
        return [found.results.length, data];
      });
    }).then(function (res) {
      if (id !== latest)
        return;  // overtaken by a later query
      var items = res[1].map(function (d) {
        var paper = d.filters && d.filters.paper;  // a note's record names its paper there
        var title = (paper && paper[0]) || (d.meta && d.meta.title) || d.url;
        var part = d.meta && d.meta.part ? '<p class="rl-search-part">' + escapeHtml(d.meta.part) + "</p>" : "";
        // `?h=` as Material's own results have it: its search.highlight marks the words on the page.
        var href = new URL(d.url, location.origin);
        href.searchParams.set("h", text);
        return '<li class="md-search-result__item"><a href="' + escapeHtml(href.href) +
          '" class="md-search-result__link" tabindex="-1"><article class="md-search-result__article md-typeset">' +
          "<h1>" + escapeHtml(title) + "</h1>" + part + "<p>" + excerptHtml(d.excerpt || "") + "</p></article></a></li>";
      });
      var n = res[0];
      shownFor = text;
      show(box, items.join(""), n === 0 ? "No matching documents" : n === 1 ? "1 matching document"
        : n + " matching documents");
    }).catch(function (err) {
      console.error("readinglist search:", err);
    });
  }

  document.addEventListener("keyup", function (ev) {
    var box = ev.target;
    if (!(box instanceof HTMLInputElement) || !box.matches("[data-rl-search] .md-search__input"))
      return;
    clearTimeout(timer);
    if (box.value.trim() !== shownFor) {
      // The list shown is for other text: gone at once, not when the new results come.
      shownFor = null;
      ++latest;
      show(box, "", "");
    }
    timer = setTimeout(function () { search(box); }, PAUSE_MS);
  });
  document.addEventListener("submit", function (ev) {
    if (ev.target.closest && ev.target.closest("[data-rl-search]"))
      ev.preventDefault();  // Enter opens nothing on its own: a result is a link
  });
  // Material's search component opened and closed the dialog (its `__search` toggle, which its
  // CSS reads) as the box gained focus or a result was chosen; without it, this script does.
  function toggle(open) {
    var el = document.getElementById("__search");
    if (el && el.checked !== open) {
      el.checked = open;
      el.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }
  document.addEventListener("focusin", function (ev) {
    if (ev.target instanceof HTMLInputElement && ev.target.matches("[data-rl-search] .md-search__input"))
      toggle(true);
  });
  document.addEventListener("click", function (ev) {
    if (ev.target.closest && ev.target.closest("[data-rl-search] .md-search-result__link"))
      toggle(false);
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape" && ev.target.matches && ev.target.matches("[data-rl-search] .md-search__input")) {
      toggle(false);
      ev.target.blur();
    }
  });
  // The search toggle: focus the box when the dialog opens (Material's search component did).
  document.addEventListener("change", function (ev) {
    if (ev.target.id === "__search" && ev.target.checked) {
      var box = document.querySelector("[data-rl-search] .md-search__input");
      if (box)
        setTimeout(function () { box.focus(); }, 0);
    }
  });
})();
