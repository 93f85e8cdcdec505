"""Pages that list every paper, split so each stays small at ten thousand papers.

The first page keeps the page's own path (`all.md`, `digests/<slug>/index.md`); page n lives in
a folder under the first page's URL (`all/2/index.md`, URL `all/2/`). These pages are written as
HTML (see render/html.py), so pager links are relative URLs; the tests follow every one of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ..config import Config
from ..errors import ConfigError
from ..model import Paper
from .links import page_url, rel, url_from

T = TypeVar("T")

# Two hundred table rows make a page of about 60 KB of HTML that a phone still renders quickly.
PAGE_SIZE = 200
# Page numbers shown either side of the current one before the pager elides with "…".
WINDOW = 2


def pages(items: Sequence[T], size: int = PAGE_SIZE) -> list[list[T]]:
    """`items` in runs of `size`; always at least one (possibly empty) page."""
    if size < 1:
        raise ValueError(f"page size must be at least 1, got {size}")
    return [list(items[i : i + size]) for i in range(0, len(items), size)] or [[]]


def page_md(base_md: str, n: int) -> str:
    """Docs path of page `n` (1-based) of the listing whose first page is `base_md`."""
    if n < 1:
        raise ValueError(f"pages count from 1, got {n}")
    if n == 1:
        return base_md
    return f"{page_url(base_md)}{n}/index.md"


def page_numbers(current: int, total: int, window: int = WINDOW) -> list[int | None]:
    """The numbers a pager shows: first, last, and `window` either side of `current`; None is a gap."""
    keep = {1, total, *range(current - window, current + window + 1)}
    out: list[int | None] = []
    for n in range(1, total + 1):
        if n in keep:
            out.append(n)
        elif out and out[-1] is not None:
            out.append(None)
    return out


def _link(base_md: str, n: int, label: str, from_md: str, markdown: bool) -> str:
    if markdown:  # a page that is not an index.md (render/links.py): a Markdown link to the file
        return f"[{label}]({rel(from_md, page_md(base_md, n))})"
    return f'<a href="{url_from(from_md, page_md(base_md, n))}">{label}</a>'


def _paragraph(cls: str, text: str, markdown: bool) -> str:
    return f"{text}\n{{: .{cls} }}" if markdown else f'<p class="{cls}">{text}</p>'


def pager(base_md: str, current: int, total: int, from_md: str, *, markdown: bool = False) -> str:
    """`← Previous · 1 … 4 <strong>5</strong> 6 … 50 · Next →` as one paragraph (empty for one page);
    `markdown`: as a Markdown paragraph with Markdown links (attr_list gives it its class)."""
    if total <= 1:
        return ""

    def link(n: int, label: str) -> str:
        return _link(base_md, n, label, from_md, markdown)

    parts = []
    if current > 1:
        parts.append(link(current - 1, "← Previous"))
    numbers = []
    for n in page_numbers(current, total):
        if n is None:
            numbers.append("…")
        elif n == current:
            numbers.append(f"<strong>{n}</strong>")
        else:
            numbers.append(link(n, str(n)))
    parts.append(" ".join(numbers))
    if current < total:
        parts.append(link(current + 1, "Next →"))
    return _paragraph("rl-pager", "Pages: " + " · ".join(parts), markdown)


def year_starts(chunks: list[list[Paper]]) -> list[tuple[int | None, int]]:
    """(year, page number) for the page on which each year's papers begin, in page order."""
    out: list[tuple[int | None, int]] = []
    seen: set[int | None] = set()
    for n, chunk in enumerate(chunks, start=1):
        for paper in chunk:
            if paper.year not in seen:
                seen.add(paper.year)
                out.append((paper.year, n))
    return out


def year_links(starts: list[tuple[int | None, int]], base_md: str, from_md: str, *, markdown: bool = False) -> str:
    """`Years: 2026 · 2025 · undated` linking to the page where each year begins."""
    links = [_link(base_md, n, str(year or "undated"), from_md, markdown) for year, n in starts]
    return _paragraph("rl-years", "Years: " + " · ".join(links), markdown)


def page_size(config: Config) -> int:
    """`extra.readinglist.page_size` in mkdocs.yml (papers per listing page), default PAGE_SIZE."""
    value = config.extra.get("page_size", PAGE_SIZE)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"mkdocs.yml: extra.readinglist.page_size: expected a whole number of at least 1, "
                          f"got {value!r}")
    return value
