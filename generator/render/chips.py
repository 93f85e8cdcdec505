"""The tag chips at the top of a paper page, each a link to its tag page (render/tags.py): drawn
here rather than by Material's tags plugin (see tags.py for why), with the tags' page paths from
render/tagnames.py, so the paper page needs nothing of the tag pages."""

from __future__ import annotations

from collections.abc import Mapping

from ..model import Paper
from . import escape
from .links import url_from
from .tagnames import tag_md


def chip_links(from_md: str, slugs: Mapping[str, str]) -> dict[str, str]:
    """Each tag's chip (by tag name) as the page `from_md` draws it: a link to its tag page."""
    return {t: f'<a href="{url_from(from_md, tag_md(slug))}" class="md-tag">{escape.text(t)}</a>'
            for t, slug in slugs.items()}


def chips(paper: Paper, from_md: str, slugs: Mapping[str, str]) -> str:
    """A paper's tags as Material draws them (`partials/tags.html`), each linking to its tag page."""
    return chip_nav(paper, chip_links(from_md, {t: slugs[t] for t in paper.tags if t in slugs}))


def chip_nav(paper: Paper, links: Mapping[str, str]) -> str:
    """`chips` from the chips of the page's tags made beforehand (`chip_links`): every paper page
    draws the same chip for a tag (RenderContext.paper_chips makes them once a build)."""
    if not paper.tags:
        return ""
    return ('<nav class="md-tags">' + "".join([links[t] for t in sorted(paper.tags, key=str.lower) if t in links])
            + "</nav>")


def tag_line(tag: str) -> str:
    """A tag's line of the `tags:` list of a paper page's front matter (the theme reads the tags
    there; the chips above draw them)."""
    return f"  - {escape.yaml_string(tag)}"
