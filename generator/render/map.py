"""The Map page (`map.md`): every paper as a node coloured by its main topic, edges for strong
similarity, a legend. Past `MAX_NODES` papers only the best-connected ones are drawn (a force
layout is O(n²) per step and thousands of dots say nothing); the page says so."""

from __future__ import annotations

import heapq
from collections import Counter

from ..enrich.display import title_text
from ..model import Library, Paper
from . import escape
from .graph import OTHER_COLOUR, PALETTE, MapNode, layout, map_svg
from .links import paper_md, rel
from .tagnames import tag_md, tag_slugs

MAP_MD = "map.md"
MAX_NODES = 300
MAX_LABELS = 60
# An edge on the map means a related link at least this strong (or the paper's best link).
STRONG = 0.2
# A paper takes its map colour from one of its strongest few topics.
CANDIDATES = 3


def legend_topics(papers: list[Paper], topics: list[str], size: int = len(PALETTE)) -> list[str]:
    """The topics that colour the map: picked greedily so that as many papers as possible get a
    colour from one of their `CANDIDATES` strongest topics (one colour per topic, few colours)."""
    known = set(topics)
    tops = [[t for t in p.tags if t in known][:CANDIDATES] for p in papers]
    chosen: list[str] = []
    left = list(range(len(papers)))
    while left and len(chosen) < size:
        score: Counter[str] = Counter()
        for i in left:
            for rank, t in enumerate(tops[i]):
                score[t] += CANDIDATES - rank  # a paper's main topic counts most
        if not score:
            break
        best = min(score, key=lambda t: (-score[t], topics.index(t)))
        chosen.append(best)
        left = [i for i in left if best not in tops[i]]
    return chosen


def colour_topic(paper: Paper, legend: list[str]) -> str | None:
    """The paper's strongest topic that has a colour on the map."""
    shown = set(legend)
    for tag in paper.tags[:CANDIDATES + 2]:
        if tag in shown:
            return tag
    return None


def strong_edges(papers: list[Paper]) -> dict[tuple[str, str], float]:
    """Undirected edges: each paper's best link, and any link scoring at least STRONG."""
    ids = {p.id for p in papers}
    edges: dict[tuple[str, str], float] = {}
    # Written for speed (fifty thousand links at ten thousand papers): the best link by hand, the
    # others filtered by score before anything else is looked at, and `max(edges.get(key, 0.0),
    # score)` spelt out (`max(a, b)` is `b if b > a else a`).
    for p in papers:
        pid, related = p.id, p.related
        if not related:
            continue
        for r in (related[0], *[r for r in related[1:] if not r.score < STRONG]):
            rid = r.id
            if rid not in ids:
                continue
            key = (pid, rid) if pid < rid else (rid, pid)
            score = r.score
            old = edges.get(key, 0.0)
            edges[key] = score if score > old else old
    return edges


def render_map(library: Library) -> str:
    papers = library.papers
    all_edges = strong_edges(papers)
    degree: Counter[str] = Counter(a for a, _ in all_edges)
    degree.update(b for _, b in all_edges)
    order = {p.id: i for i, p in enumerate(papers)}
    # nsmallest is sorted(...)[:MAX_NODES] (ties too) without sorting all ten thousand.
    drawn = heapq.nsmallest(MAX_NODES, papers, key=lambda p: (-degree[p.id], order[p.id]))
    drawn.sort(key=lambda p: order[p.id])
    index = {p.id: i for i, p in enumerate(drawn)}
    # The drawn papers' edges only, then sorted: the same order as sorting them all first.
    edges = [(index[a], index[b], w) for (a, b), w in sorted(e for e in all_edges.items()
                                                              if e[0][0] in index and e[0][1] in index)]

    names = [name for name, _ in library.topics]
    legend = legend_topics(drawn, names)
    colour = {t: PALETTE[i] for i, t in enumerate(legend)}
    mains = {p.id: colour_topic(p, legend) for p in drawn}
    counts = Counter(m for m in mains.values() if m)

    pos = layout(len(drawn), edges)
    nodes = [MapNode(p, float(pos[i, 0]), float(pos[i, 1]), colour.get(mains[p.id] or "", OTHER_COLOUR),
                     degree[p.id]) for i, p in enumerate(drawn)]
    label_order = sorted(range(len(drawn)), key=lambda i: (-nodes[i].degree, i))[:MAX_LABELS]
    to_md = {p.id: paper_md(p) for p in drawn}
    svg, labelled = map_svg(nodes, edges, MAP_MD, to_md, label_order)

    slugs = tag_slugs(list({t for p in papers for t in p.tags}))
    lines = [
        "---", "title: Map", "hide:", "  - toc", "---", "", "# Map of the reading list", "",
        f"{len(drawn)} papers, coloured by their main topic (or, when that topic has no colour of its "
        "own, their strongest topic that has one); a line joins two papers when one is among "
        f"the other's closest (its best related paper, or similarity at least {STRONG:.2f}). "
        "Thicker lines mean more similar. Click a dot to open the paper.", "",
    ]
    if len(drawn) < len(papers):
        lines += [f'!!! note "Showing {len(drawn)} of {len(papers)} papers"',
                  f"    Only the {len(drawn)} best-connected papers are drawn, so the map stays readable. "
                  "Every paper is on [All papers](all.md) and on its tag pages.", ""]
    if len(labelled) < len(drawn):
        lines += [f"Titles are written next to {len(labelled)} papers (the best-connected ones that have "
                  "room); hover a dot for any other title.", ""]
    # 41 cut-short titles would make the map match most searches: kept out of the index.
    # The legend is a Markdown list (styled as `.rl-map + ul`): map.md is not an index.md, so its
    # links are Markdown links, which MkDocs and Zensical both resolve (render/links.py says why).
    # The SVG's xlink:href links are relative to the page's URL: neither engine rewrites them.
    lines += [f'<div class="rl-graph rl-map" data-search-exclude>{svg}</div>', ""]
    for t in legend:
        link = f"[{escape.text(t)}]({rel(MAP_MD, tag_md(slugs[t]))})" if t in slugs else escape.text(t)
        lines.append(f'- <span class="rl-swatch" style="background:{colour[t]}"></span>{link} ({counts[t]})')
    others = len(drawn) - sum(counts[t] for t in legend)
    if others:
        lines.append(f'- <span class="rl-swatch" style="background:{OTHER_COLOUR}"></span>'
                     f"other topics ({others})")
    lines.append("")
    unlabelled = [p for i, p in enumerate(drawn) if i not in labelled]
    if unlabelled and len(drawn) <= 120:
        lines += ["## Papers without a label on the map", ""]
        lines += [f"- [{escape.text(title_text(p.title))}]({paper_md(p)})" for p in unlabelled]
        lines.append("")
    return "\n".join(lines)

