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

// readinglist: a paper's related-papers picture, drawn here from what the page carries: the list
// of related papers under it (links and titles) and the graph's own `data-scores` (one score per
// item) and `data-edges` (pairs of items related to each other). Drawing it in the browser costs a
// page about 60 bytes instead of 3 KB of SVG; without JavaScript the list is there as before.
// The layout is the one the generator drew until issue 46 (generator/render/graph.py's history):
// the paper in the middle, closer and thicker for higher scores, right and left in turns.
var RL_SVG = "http://www.w3.org/2000/svg", RL_XLINK = "http://www.w3.org/1999/xlink";
function rlShort(text, limit) {
  text = text.split(/\s+/).filter(Boolean).join(" ");
  if (text.length <= limit) return text;
  var head = text.slice(0, limit - 1);
  var cut = head.indexOf(" ") >= 0 ? head.slice(0, head.lastIndexOf(" ")) : head;
  return cut.replace(/[ ,.:;\u2013-]+$/, "") + "\u2026";
}
function rlEl(name, attrs, parent) {
  var el = document.createElementNS(RL_SVG, name);
  Object.keys(attrs).forEach(function (k) { el.setAttribute(k, attrs[k]); });
  if (parent) parent.appendChild(el);
  return el;
}
function rlNode(svg, href, cls, title, x, y, r, label, anchor, lx, ly) {
  var a = rlEl("a", { "class": cls }, null);
  // xlink:href, not href: Material's instant navigation rewrites relative [href]s by assignment,
  // which throws on SVG links; it follows xlink:href links as ordinary ones.
  a.setAttributeNS(RL_XLINK, "xlink:href", href);
  rlEl("title", {}, a).textContent = title;
  rlEl("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: r.toFixed(1) }, a);
  if (label) rlEl("text", { x: lx.toFixed(1), y: ly.toFixed(1), "text-anchor": anchor }, a).textContent = label;
  svg.appendChild(a);
}
function rlDrawGraph(box) {
  var list = box.nextElementSibling;
  if (!list || list.tagName !== "OL" || box.querySelector("svg")) return;
  var links = Array.prototype.map.call(list.children, function (li) { return li.querySelector("a"); });
  var scores = (box.getAttribute("data-scores") || "").split(" ").map(Number);
  if (!links.length || scores.length !== links.length) return;
  var width = 760, height = 300, cx = width / 2, cy = height / 2;
  var best = Math.max.apply(null, scores) || 1;
  var svg = rlEl("svg", { "class": "rl-graph-svg", viewBox: "0 0 " + width + " " + height, role: "group",
                          "aria-label": "Related papers graph", "font-size": "12" }, null);
  var right = Math.ceil(links.length / 2), left = Math.floor(links.length / 2);
  var points = links.map(function (_, i) {
    var side = i % 2 === 0 ? 1 : -1, rows = side === 1 ? right : left;
    var angle = Math.PI * ((Math.floor(i / 2) + 0.5) / Math.max(rows, 1) - 0.5) * 0.8;
    if (rows === 1) angle = -0.35 * side;  // one paper a side: tilted, off the centre's line
    var near = 0.62 + 0.38 * (1 - scores[i] / best);
    return [cx + side * Math.cos(angle) * width * 0.22 * near, cy + Math.sin(angle) * height * 0.40 * near * 1.15];
  });
  (box.getAttribute("data-edges") || "").split(" ").filter(Boolean).forEach(function (pair) {
    var ends = pair.split("-").map(Number), a = points[ends[0]], b = points[ends[1]];
    if (a && b) rlEl("line", { "class": "rl-edge rl-edge--side", x1: a[0].toFixed(1), y1: a[1].toFixed(1),
                               x2: b[0].toFixed(1), y2: b[1].toFixed(1) }, svg);
  });
  points.forEach(function (p, i) {
    var line = rlEl("line", { "class": "rl-edge", x1: cx.toFixed(1), y1: cy.toFixed(1), x2: p[0].toFixed(1),
                              y2: p[1].toFixed(1), "stroke-width": (1 + 5 * scores[i] / best).toFixed(1) }, svg);
    rlEl("title", {}, line).textContent = "score " + scores[i].toFixed(2);
  });
  points.forEach(function (p, i) {
    var title = links[i].textContent, east = p[0] >= cx;
    rlNode(svg, links[i].getAttribute("href"), "rl-node", title + " (score " + scores[i].toFixed(2) + ")",
           p[0], p[1], 6 + 3 * scores[i] / best, rlShort(title, 40), east ? "start" : "end",
           p[0] + (east ? 11 : -11), p[1] + 4);
  });
  var h1 = document.querySelector("article h1, h1");
  var me = h1 ? h1.cloneNode(true) : null;
  if (me) Array.prototype.forEach.call(me.querySelectorAll(".headerlink"), function (a) { a.remove(); });
  rlNode(svg, "./", "rl-node rl-node--self", me ? me.textContent.trim() : "", cx, cy, 10, "this paper", "middle",
         cx, cy + 26);
  box.appendChild(svg);
}
function rlDrawGraphs() {
  Array.prototype.forEach.call(document.querySelectorAll(".rl-graph[data-scores]"), rlDrawGraph);
}
if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
  window.document$.subscribe(rlDrawGraphs);
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", rlDrawGraphs);
} else {
  rlDrawGraphs();
}
