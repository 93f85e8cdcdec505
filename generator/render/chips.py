"""The tag chips at the top of a paper page, each a link to its tag page (render/tags.py): drawn
here rather than by Material's tags plugin (see tags.py for why), with the tags' page paths from
render/tagnames.py, so the paper page needs nothing of the tag pages."""

from __future__ import annotations

from collections.abc import Mapping

from ..model import Paper
from . import escape
from .links import url_from
from .tagnames import tag_md


def chips(paper: Paper, from_md: str, slugs: Mapping[str, str]) -> str:
    """A paper's tags as Material draws them (`partials/tags.html`), each linking to its tag page."""
    if not paper.tags:
        return ""
    links = [f'<a href="{url_from(from_md, tag_md(slugs[t]))}" class="md-tag">{escape.text(t)}</a>'
             for t in sorted(paper.tags, key=str.lower) if t in slugs]
    return '<nav class="md-tags">' + "".join(links) + "</nav>"
