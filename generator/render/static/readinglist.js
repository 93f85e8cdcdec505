// readinglist: "Download <key>.bib" on a paper page saves the entry shown in its BibTeX block.
// The entry is on the page already, so the site needs no .bib file per paper (10,000 files fewer
// for MkDocs to copy and check on every rebuild). One listener on the document, so it keeps
// working across Material's instant navigation.
document.addEventListener("click", function (event) {
  var link = event.target.closest ? event.target.closest("a.rl-bib-download") : null;
  if (!link) return;
  // The entry is the first tab of "Cite" (with formatted references), else the block under "BibTeX".
  var code = document.querySelector(".rl-refs .tabbed-block:first-child code, h2#bibtex ~ .highlight code");
  if (!code) return;
  event.preventDefault();
  var blob = new Blob([code.textContent.replace(/\n*$/, "\n")], { type: "application/x-bibtex" });
  var save = document.createElement("a");
  save.href = URL.createObjectURL(blob);
  save.download = link.getAttribute("data-file") || "entry.bib";
  document.body.appendChild(save);
  save.click();
  save.remove();
  setTimeout(function () { URL.revokeObjectURL(save.href); }, 10000);
});

// readinglist: on the home page, "New" beside each of the newest papers this browser has not
// shown there before. What it has shown is kept in the browser's own storage (localStorage,
// one list per site), so there is no server and nothing leaves the browser; the first visit
// marks nothing. Run on every page Material's instant navigation shows (document$), else once.
function rlMarkNew() {
  var heading = document.getElementById("newest-papers");
  var list = heading && heading.nextElementSibling;
  if (!list || list.tagName !== "UL") return;
  var links = Array.prototype.slice.call(list.querySelectorAll("li > a:first-child"));
  var here = links.map(function (a) { return new URL(a.getAttribute("href"), location.href).pathname; });
  var key = "readinglist.seen:" + location.pathname.replace(/index\.html$/, "");
  var seen = null;
  try { seen = JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { seen = null; }
  if (Array.isArray(seen)) {
    links.forEach(function (a, i) {
      if (seen.indexOf(here[i]) >= 0 || a.parentNode.querySelector(".rl-new")) return;
      var mark = document.createElement("span");
      mark.className = "rl-new";
      mark.textContent = "New";
      mark.title = "Added since your last visit";
      a.insertAdjacentElement("afterend", mark);
    });
  }
  var kept = here.concat((seen || []).filter(function (p) { return here.indexOf(p) < 0; })).slice(0, 1000);
  try { localStorage.setItem(key, JSON.stringify(kept)); } catch (e) { /* storage off: no marks */ }
}
if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
  window.document$.subscribe(rlMarkNew);
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", rlMarkNew);
} else {
  rlMarkNew();
}

// readinglist: `/`, `s` and `f` open the search box, as Material promises, on every engine. The
// handler listens through `keyboard$`, the observable Material and Zensical both publish for
// custom keyboard shortcuts (Material's documentation, "Customization"): it only sees keys typed
// outside a text field, and `claim()` keeps the key from reaching the box it opens.
// - Material's own search (stock MkDocs) answers these keys itself: nothing to do.
// - The readinglist plugin's box (Pagefind; site/templates/partials/search.html) carries no
//   `data-md-component`, so Material's search component, which held the shortcuts, does not run:
//   the search toggle is opened here, and readinglist-search.js focuses the box when it opens.
// - Zensical opens its search dialog on `/` (its button, `[data-md-component=search] button`) but
//   not on `s` or `f`: those press the same button.
(function () {
  if (window.__rlSearchKeys || typeof window.keyboard$ === "undefined" || !window.keyboard$.subscribe)
    return;
  window.__rlSearchKeys = true;
  window.keyboard$.subscribe(function (key) {
    if (key.mode !== "global" || key.meta || ["/", "s", "f"].indexOf(key.type) < 0)
      return;
    if (document.querySelector("[data-md-component=search-query]"))
      return;  // Material's own search component, which has these shortcuts
    var toggle = document.getElementById("__search");
    if (document.querySelector("[data-rl-search] .md-search__input") && toggle) {
      key.claim();
      toggle.checked = true;
      toggle.dispatchEvent(new Event("change", { bubbles: true }));
      return;
    }
    var button = document.querySelector("[data-md-component=search] button");
    if (key.type !== "/" && button instanceof HTMLButtonElement) {
      key.claim();
      button.click();
    }
  });
})();

// readinglist: on a digest page, "most interesting first" sorts its list by each paper's interest
// (the choice's data-interest, one score per item: generator/render/indexes.py; enrich/interest.py
// learns them from the notes), and "as listed" puts the digest's order back. Without the script
// the list stays as listed.
function rlOrder() {
  var choice = document.querySelector("[data-rl-order]");
  var list = choice && choice.nextElementSibling;
  if (!list || list.tagName !== "OL" || choice.getAttribute("data-rl-ready")) return;
  var items = Array.prototype.slice.call(list.children);
  var scores = (choice.getAttribute("data-interest") || "").split(" ").map(parseFloat);
  if (scores.length !== items.length) return;
  choice.hidden = false;
  choice.setAttribute("data-rl-ready", "1");
  choice.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-rl-by]") : null;
    if (!button) return;
    var byInterest = button.getAttribute("data-rl-by") === "interest";
    var order = items.slice();
    if (byInterest) {
      // Stable: equal scores keep the digest's order.
      order.sort(function (a, b) {
        var i = items.indexOf(a), j = items.indexOf(b);
        return scores[j] - scores[i] || i - j;
      });
    }
    order.forEach(function (li) { list.appendChild(li); });
    choice.querySelectorAll("button").forEach(function (b) { b.setAttribute("aria-pressed", String(b === button)); });
  });
}
if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
  window.document$.subscribe(rlOrder);
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", rlOrder);
} else {
  rlOrder();
}
