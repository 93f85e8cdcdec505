"""The related-papers pictures: the map of the whole list, drawn at build time as plain inline SVG
(no JavaScript, no network), and the data from which a paper page's script draws its neighbourhood.

The map is SVG. Colours come from Material's CSS variables
through classes in `readinglist.css` (`currentColor` for text), so both the light and the dark
palette work. Layouts are deterministic (fixed seed, rounded coordinates), so an unchanged list
gives byte-identical pages and write-if-changed leaves them alone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..enrich.display import title_text
from ..model import Paper
from ..runtime.switches import memoized
from . import escape
from .links import url_from

# Distinct hues that read on white and on Material's dark slate background alike.
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
           "#b07aa1", "#ff9da7", "#9c755f", "#17becf", "#bcbd22", "#7f6fd6")
OTHER_COLOUR = "#9e9e9e"


def short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0] if " " in text[: limit - 1] else text[: limit - 1]
    return cut.rstrip(" ,.:;–-") + "…"


def _label(paper: Paper) -> str:
    return title_text(paper.title)


XLINK = "http://www.w3.org/1999/xlink"


def title_html(title: str) -> str:
    """A paper's title as escaped text, as its neighbours' pages show it."""
    return escape.text(title_text(title))


# By title: each paper is shown on the pages of all the papers it is related to (a memo of the
# process, like the other memoized text functions): `title_text` of every neighbour again and again.
# READINGLIST_TEXT_CACHE=off turns it off (runtime/switches.memoized; the `no-text-cache` variant).
_texts = memoized(1 << 16)(title_html)


def _node(href: str, x: float, y: float, r: float, cls: str, title: str, label: str,
          anchor: str, lx: float, ly: float, fill: str | None = None) -> str:
    style = f' style="fill:{fill}"' if fill else ""
    text = (f'<text x="{lx:.1f}" y="{ly:.1f}" text-anchor="{anchor}">{escape.text(label)}</text>'
            if label else "")
    # xlink:href, not href: Material's instant navigation rewrites every relative `[href]` by
    # assignment, which throws on SVG links (their `href` property is read-only).
    return (f'<a xlink:href="{href}" class="{cls}"><title>{escape.text(title)}</title>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}"{style}/>{text}</a>')


# -- a paper's neighbourhood --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Neighbour:
    """What the pages of a paper's related papers show of it: the same on each of those pages
    (all paper pages share one folder)."""

    paper: Paper
    href: str      # the relative URL from any other paper page
    title: str     # escaped full title
    near: frozenset[str]  # the ids of its own related papers (the side edges)
    byline: str    # escaped first author(s) and year, as the list of related papers shows them
    # Its item in the list of related papers up to the reasons (render/related.py), made once:
    # the same on each of those pages (shown 50,000 times a build).
    item_head: str


def neighbour(paper: Paper) -> Neighbour:
    """`paper` as a neighbour on another paper's page."""
    title = _texts(paper.title)
    name = escape.text(paper.short_authors)
    href, byline = f"../{paper.slug}/", f"{name}, {paper.year}" if paper.year else name
    return Neighbour(paper, href, title, frozenset(q.id for q in paper.related), byline,
                     item_head=f'<li><a href="{href}">{title}</a> — {byline}<br />\n')


def neighbourhood_data(links: Sequence[tuple[float, Neighbour]]) -> str:
    """The attributes from which the page's script draws the picture of a paper and its related
    papers (static/readinglist.js, `rlDrawGraph`), beside the list of those papers that it reads
    for links and titles: each one's score (`data-scores`, in the list's order) and the pairs of
    them related to each other (`data-edges`, `i-j`). About 60 bytes, where the picture drawn at
    build time as SVG was about 3 KB a page (issue 46)."""
    if not links:
        return ""
    others = [other for _, other in links]
    pairs = [f"{i}-{j}" for i, a in enumerate(others) for j in range(i + 1, len(others))
             if others[j].paper.id in a.near or a.paper.id in others[j].near]
    scores = " ".join(f"{score:.2f}" for score, _ in links)
    return f' data-scores="{scores}"' + (f' data-edges="{" ".join(pairs)}"' if pairs else "")


# -- the map of the whole list ------------------------------------------------------------------


@dataclass(frozen=True)
class MapNode:
    paper: Paper
    x: float
    y: float
    colour: str
    degree: int


def layout(n: int, edges: Sequence[tuple[int, int, float]], seed: int = 7, iterations: int = 250) -> np.ndarray:
    """Fruchterman-Reingold force layout in the unit square, seeded: same graph, same picture."""
    if n == 0:
        return np.zeros((0, 2))
    rng = np.random.default_rng(seed)
    pos = rng.uniform(-0.5, 0.5, size=(n, 2))
    if n == 1:
        return np.full((1, 2), 0.5)
    k = 0.9 / math.sqrt(n)
    src = np.array([e[0] for e in edges], dtype=int)
    dst = np.array([e[1] for e in edges], dtype=int)
    wts = np.array([e[2] for e in edges], dtype=float)
    if len(wts):
        wts = 0.5 + wts / wts.max()
    temp = 0.08
    xy = pos.T.copy()  # x and y rows: 2-D arrays with fewer temporaries than an (n, n, 2) one
    for step in range(iterations):
        dx = xy[0][:, None] - xy[0][None, :]
        dy = xy[1][:, None] - xy[1][None, :]
        push = (k * k) / (dx * dx + dy * dy + 1e-6)  # repulsion k²/d
        force = np.stack(((dx * push).sum(1), (dy * push).sum(1)))
        if len(src):
            d = xy[:, src] - xy[:, dst]
            dl = np.sqrt((d * d).sum(0)) + 1e-9
            pull = d * (dl / k * wts)  # attraction d²/k, stronger for closer papers
            np.add.at(force.T, src, -pull.T)
            np.add.at(force.T, dst, pull.T)
        # Gravity keeps papers without strong links (and separate groups) on the page.
        force -= xy * (np.sqrt((xy * xy).sum(0)) / k * 0.6)
        length = np.sqrt((force * force).sum(0)) + 1e-9
        xy += force / length * np.minimum(length, temp)
        temp = 0.08 * (1 - step / iterations) + 0.001
    pos = xy.T
    lo, hi = pos.min(0), pos.max(0)
    span = np.where(hi - lo > 1e-9, hi - lo, 1.0)
    return np.round((pos - lo) / span, 4)


Box = tuple[float, float, float, float]


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def place_labels(points: list[tuple[float, float]], labels: dict[int, str], order: list[int],
                 width: float, height: float, font: float) -> dict[int, tuple[str, float, float]]:
    """Greedy label placement: right of the dot, else left, above or below; a label that would
    cover another label or a dot is left out (its title still shows on hover)."""
    taken: list[Box] = [(x - 6, y - 6, x + 6, y + 6) for x, y in points]
    placed: dict[int, tuple[str, float, float]] = {}
    for i in order:
        x, y = points[i]
        w, h = 0.56 * font * len(labels[i]), font * 1.1
        options = [("start", x + 9, y + 4, (x + 8, y - h / 2, x + 9 + w, y + h / 2)),
                   ("end", x - 9, y + 4, (x - 9 - w, y - h / 2, x - 8, y + h / 2)),
                   ("middle", x, y - 10, (x - w / 2, y - 10 - h, x + w / 2, y - 8)),
                   ("middle", x, y + 19, (x - w / 2, y + 8, x + w / 2, y + 8 + h))]
        own = (x - 6, y - 6, x + 6, y + 6)
        for anchor, lx, ly, box in options:
            inside = box[0] >= 0 and box[2] <= width and box[1] >= 0 and box[3] <= height
            if inside and not any(_overlaps(box, t) for t in taken if t != own):
                placed[i] = (anchor, lx, ly)
                taken.append(box)
                break
    return placed


def map_svg(nodes: list[MapNode], edges: list[tuple[int, int, float]], from_md: str, to_md: dict[str, str],
            label_order: list[int], width: int = 1000, height: int = 720, font: float = 11,
            ) -> tuple[str, set[int]]:
    """The map and the set of nodes whose title is written next to them."""
    margin = 40
    parts = [f'<svg xmlns:xlink="{XLINK}" class="rl-graph-svg rl-map-svg" viewBox="0 0 {width} {height}" role="group" '
             f'aria-label="Map of all papers" xmlns="http://www.w3.org/2000/svg" font-size="{font:g}">']
    points = [(margin + n.x * (width - 2 * margin), margin + n.y * (height - 2 * margin)) for n in nodes]
    best = max((w for _, _, w in edges), default=1.0) or 1.0
    for a, b, w in edges:
        (x1, y1), (x2, y2) = points[a], points[b]
        parts.append(f'<line class="rl-edge" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                     f'stroke-width="{0.6 + 2.4 * w / best:.1f}"/>')
    labels = {i: short(_label(nodes[i].paper), 30) for i in label_order}
    placed = place_labels(points, labels, label_order, width, height, font)
    for i, node in enumerate(nodes):
        x, y = points[i]
        anchor, lx, ly = placed.get(i, ("start", x, y))
        parts.append(_node(url_from(from_md, to_md[node.paper.id]), x, y, 4 + min(node.degree, 8) * 0.6,
                           "rl-node rl-node--map", _label(node.paper), labels[i] if i in placed else "",
                           anchor, lx, ly, node.colour))
    parts.append("</svg>")
    return "".join(parts), set(placed)
