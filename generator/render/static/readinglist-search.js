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
    // The word the All papers filter searches for (below) ends every paper's record: not shown.
    return escapeHtml(String(text).replace(/\s*(<mark>)?rlpaper(<\/mark>)?\s*$/, ""))
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
  // ---- The All papers filter (generator/render/indexes.py, `filter_form`) ----------------------
  // Filter by tag, year, venue, status and reading status, sorted by date added, title or rating,
  // answered from the same Pagefind index: every paper's record carries these as Pagefind filters
  // and sort keys (generator/render/search_records.py, `facets`), so a filtered view loads the filter
  // index and the records of the rows it shows, never the whole list. The choices live in the
  // address (?tag=...&sort=...): a filtered view is a link to share, and opens as it was.
  var FILTERS = ["tag", "year", "venue", "status", "reading"];
  var SORTS = { "": { date: "desc" }, oldest: { date: "asc" }, title: { title: "asc" }, rating: { rating: "desc" },
                interest: { interest: "desc" } };
  var ROWS = 50;  // rows per "Show more"
  var EVERY = "rlpaper";
  var filterRun = 0;

  function filterState(form) {
    var state = {};
    FILTERS.concat(["sort"]).forEach(function (name) {
      var value = form.elements[name] ? form.elements[name].value : "";
      if (value)
        state[name] = value;
    });
    return state;
  }

  function rowHtml(d) {
    var m = d.meta || {};
    return "<tr><td><a href=\"" + escapeHtml(new URL(d.url, location.origin).href) + "\">" + escapeHtml(m.title || d.url) +
      "</a></td><td>" + escapeHtml(m.first || "") + "</td><td>" + escapeHtml(m.venue || "") + "</td><td>" +
      escapeHtml(m.year || "") + "</td></tr>";
  }

  function applyFilter(form) {
    var page = form.closest("article") || document;
    // The page's own table and pagers: everything after the `data-rl-static` marker.
    var staticParts = page.querySelectorAll("[data-rl-static] ~ *");
    var out = page.querySelector("[data-rl-filter-results]");
    var state = filterState(form);
    var query = new URLSearchParams(state).toString();
    history.replaceState(history.state, "", location.pathname + (query ? "?" + query : "") + location.hash);
    var run = ++filterRun;
    if (!query) {  // no choice made: the page's own table
      out.hidden = true;
      out.innerHTML = "";
      staticParts.forEach(function (el) { el.hidden = false; });
      return;
    }
    var filters = { kind: "paper" };
    FILTERS.forEach(function (name) { if (state[name]) filters[name] = state[name]; });
    pagefind().then(function (mod) {
      // EVERY of generator/render/search_records.py: a word each paper's record holds (see there why).
      return mod.search(EVERY, { filters: filters, sort: SORTS[state.sort || ""] || SORTS[""] });
    }).then(function (found) {
      if (run !== filterRun)
        return;
      var results = found && found.results ? found.results : [];
      var shown = 0;
      staticParts.forEach(function (el) { el.hidden = true; });
      out.hidden = false;
      out.innerHTML = '<p class="rl-filter-count"></p><table><thead><tr><th>Title</th><th>First author</th>' +
        "<th>Venue</th><th>Year</th></tr></thead><tbody></tbody></table>" +
        '<button type="button" class="md-button rl-filter-more" hidden>Show more</button>';
      var body = out.querySelector("tbody");
      var more = out.querySelector(".rl-filter-more");
      var count = out.querySelector(".rl-filter-count");
      function next() {
        var slice = results.slice(shown, shown + ROWS);
        shown += slice.length;
        return Promise.all(slice.map(function (r) { return r.data(); })).then(function (data) {
          if (run !== filterRun)
            return;
          body.insertAdjacentHTML("beforeend", data.map(rowHtml).join(""));
          count.textContent = results.length === 0 ? "No papers match." : (results.length === 1 ? "1 paper" :
            results.length + " papers") + (shown < results.length ? ", showing " + shown + "." : ".");
          more.hidden = shown >= results.length;
        });
      }
      more.addEventListener("click", next);
      return next();
    }).catch(function (err) {
      console.error("readinglist filter:", err);
    });
  }

  function setUpFilter() {
    var form = document.querySelector("form[data-rl-filter]");
    if (!form || form.dataset.rlReady)
      return;
    form.dataset.rlReady = "1";
    var params = new URLSearchParams(location.search);
    FILTERS.concat(["sort"]).forEach(function (name) {
      var value = params.get(name);
      var select = form.elements[name];
      if (value && select && Array.prototype.some.call(select.options, function (o) { return o.value === value; }))
        select.value = value;
    });
    form.hidden = false;
    // Load what a filtered view needs while the reader looks at the form: the word's index chunk,
    // the filters and the sort orders (a second on a 10,000-paper list), so a choice shows at once.
    pagefind().then(function (mod) {
      return mod.search(EVERY, { filters: { kind: "paper" }, sort: SORTS[""] });
    }).then(function () { form.dataset.rlIndex = "ready"; }).catch(function (err) {
      console.error("readinglist filter:", err);
    });
    form.addEventListener("change", function () { applyFilter(form); });
    form.addEventListener("reset", function () { setTimeout(function () { applyFilter(form); }, 0); });
    if (params.toString())
      applyFilter(form);
  }

  if (window.document$ && window.document$.subscribe)
    window.document$.subscribe(setUpFilter);
  else if (document.readyState === "loading")
    document.addEventListener("DOMContentLoaded", setUpFilter);
  else
    setUpFilter();
})();
