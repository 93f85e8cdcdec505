"""The "Related papers" section of a paper page: the data of the neighbourhood picture (drawn by
static/readinglist.js) and the list with reasons."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..model import Paper
from . import escape
from .graph import Neighbour, neighbour, neighbourhood_data
from .html import Ids, heading


def neighbours(papers: Iterable[Paper]) -> dict[str, Neighbour]:
    """Each paper as the pages of its related papers show it (`graph.neighbour`), by id: a build
    makes them once for all its paper pages (render_site), not once per page that shows them."""
    return {p.id: neighbour(p) for p in papers}


def related_section(paper: Paper, near: Mapping[str, Neighbour], ids: Ids) -> str:
    """The papers related to `paper`, with the reasons (`near`: the library's papers as
    neighbours by id, `neighbours`; at least those related to `paper`; `ids`: the page's heading
    ids so far)."""
    links = [(r, near[r.id]) for r in paper.related if r.id in near and r.id != paper.id]
    if not links:
        return ""
    lines = [heading(2, "Related papers", ids)]
    # The picture, drawn by the page's script from these scores and edges and the list below it.
    lines.append(f'<div class="rl-graph"{neighbourhood_data([(r.score, other) for r, other in links])}></div>')
    lines.append("<ol>")
    for r, other in links:
        lines.append(f'{other.item_head}<span class="rl-why">{escape.text(r.why)} · score {r.score:.2f}</span></li>')
    lines.append("</ol>")
    return "\n".join(lines)
