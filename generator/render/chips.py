"""The tag chips at the top of a paper page, each a link to its tag page (render/tags.py): drawn
here rather than by Material's tags plugin (see tags.py for why), with the tags' page paths from
render/tagnames.py, so the paper page needs nothing of the tag pages."""

from __future__ import annotations

from ..model import Paper
from . import escape
from .links import page_url, url_from
from .tagnames import tag_md


def chips(paper: Paper, from_md: str, slugs: dict[str, str]) -> str:
    """A paper's tags as Material draws them (`partials/tags.html`), each linking to its tag page."""
    if not paper.tags:
        return ""
    # The chip of a tag is the same on every page of a folder (all paper pages share one): made once.
    # Keyed by the page's folder: every paper page (papers/<slug>/) shares one, except a page under
    # tags/, whose link may point to its own folder.
    url = page_url(from_md)
    where = (url.rstrip("/").rpartition("/")[0], url.count("/")) if not url.startswith("tags/") else (from_md, 0)
    links = [_chip(where, from_md, t, slugs[t]) for t in sorted(paper.tags, key=str.lower) if t in slugs]
    return '<nav class="md-tags">' + "".join(links) + "</nav>"


_CHIPS: dict[tuple[tuple[str, int], str, str], str] = {}


def _chip(where: tuple[str, int], from_md: str, tag: str, slug: str) -> str:
    known = _CHIPS.get((where, tag, slug))
    if known is None:
        if len(_CHIPS) >= 1 << 14:
            _CHIPS.clear()
        known = _CHIPS[where, tag, slug] = (f'<a href="{url_from(from_md, tag_md(slug))}" class="md-tag">'
                                            f"{escape.text(tag)}</a>")
    return known
