"""The "Related papers" section of a paper page: the neighbourhood picture and the list with reasons."""

from __future__ import annotations

from ..model import Library, Paper
from . import escape
from .graph import neighbourhood_svg
from .html import Ids, heading
from .links import paper_anchor, paper_md


def _byline(paper: Paper) -> str:
    name = escape.text(paper.first_author)
    if len(paper.authors) > 1 or not paper.authors_complete:
        name += " et al."
    return f"{name}, {paper.year}" if paper.year else name


def related_section(paper: Paper, library: Library, by_id: dict[str, Paper] | None = None,
                    ids: Ids | None = None) -> str:
    by_id = by_id or library.by_id()
    links = [(r, by_id[r.id]) for r in paper.related if r.id in by_id]
    if not links:
        return ""
    me = paper_md(paper)
    to_md = {p.id: paper_md(p) for _, p in links}
    to_md[paper.id] = me
    lines = [heading(2, "Related papers", ids or Ids())]
    svg = neighbourhood_svg(paper, by_id, me, to_md)
    if svg:
        # The labels repeat the list below, cut short: kept out of the search index.
        lines.append(f'<div class="rl-graph" data-search-exclude>{svg}</div>')
    lines.append("<ol>")
    for r, other in links:
        lines.append(f"<li>{paper_anchor(other, me)} — {_byline(other)}<br />\n"
                     f'<span class="rl-why">{escape.text(r.why)} · score {r.score:.2f}</span></li>')
    lines.append("</ol>")
    return "\n".join(lines)
