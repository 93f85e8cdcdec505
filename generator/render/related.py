"""The "Related papers" section of a paper page: the neighbourhood picture and the list with reasons."""

from __future__ import annotations

from collections.abc import Mapping

from ..model import Paper
from . import escape
from .graph import Neighbour, neighbour, neighbourhood_svg
from .html import Ids, heading

# A paper is listed on the pages of each paper it is related to (five on average): its link and
# byline are made once per build (keyed by id, valid while it is the same object).
_ITEMS: dict[str, tuple[Paper, str]] = {}
_MAX_ITEMS = 50_000


def _byline(paper: Paper) -> str:
    name = escape.text(paper.short_authors)
    return f"{name}, {paper.year}" if paper.year else name


def _item_head(other: Neighbour) -> str:
    """`<li><a href>Title</a> — Byline<br />` of a related paper, from any other paper page."""
    known = _ITEMS.get(other.paper.id)
    if known is not None and known[0] is other.paper:
        return known[1]
    if len(_ITEMS) >= _MAX_ITEMS:
        _ITEMS.clear()
    head = f'<li><a href="{other.href}">{other.title}</a> — {_byline(other.paper)}<br />\n'
    _ITEMS[other.paper.id] = (other.paper, head)
    return head


def related_section(paper: Paper, by_id: Mapping[str, Paper], ids: Ids | None = None) -> str:
    """The papers related to `paper` (`by_id`: the library's papers by id), with the reasons."""
    links = [(r, neighbour(by_id[r.id])) for r in paper.related if r.id in by_id and r.id != paper.id]
    if not links:
        return ""
    lines = [heading(2, "Related papers", ids or Ids())]
    svg = neighbourhood_svg(paper, [(r.score, other) for r, other in links])
    if svg:
        # The labels repeat the list below, cut short: kept out of the search index.
        lines.append(f'<div class="rl-graph" data-search-exclude>{svg}</div>')
    lines.append("<ol>")
    for r, other in links:
        lines.append(f'{_item_head(other)}<span class="rl-why">{escape.text(r.why)} · score {r.score:.2f}</span></li>')
    lines.append("</ol>")
    return "\n".join(lines)
