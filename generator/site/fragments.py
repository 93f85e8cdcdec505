"""Theme fragments rendered once per build and reused, like Hugo's `partialCached`.

Ten thousand paper pages share their chrome: the header, the tabs, the navigation sidebar, the
footer and the script config are the same on every paper page at the same folder depth, except
for a few per-page values (the title in the header, the table of contents in the sidebar).
Material renders that chrome per page, three quarters of each paper page's template time.

`PaperChrome` (site/paper_chrome.py) passes each of those blocks of `generator/theme/paper.html`
through a `FragmentCache`, with the block's name, the page and the hole values. The first page
renders the block and records where each hole value (say, its title) sits in the
output; later pages get the recorded output with their own hole values put in. A block is only
reused when every hole occurs exactly once in the first output, and the second page is rendered
both ways and compared: any difference and that block is rendered per page for the rest of the
build. `READINGLIST_FRAGMENTS=off` turns reuse off (the tests build both ways and compare).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from markupsafe import Markup

_OFF = object()  # a key whose block is rendered per page


def _page_key(name: str, page: Any) -> tuple[object, ...]:
    """What, besides the holes, a block's output may depend on for a page outside the nav."""
    meta = getattr(page, "meta", None) or {}
    hide = meta.get("hide") if isinstance(meta, dict) else None
    return (name, str(getattr(page, "url", "")).count("/"), repr(hide),
            getattr(page, "previous_page", None) is None, getattr(page, "next_page", None) is None,
            bool(getattr(page, "is_homepage", False)))


class FragmentCache:
    """The blocks rendered so far, by block name and what else their output may depend on."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled  # off: every block rendered per page (READINGLIST_FRAGMENTS=off)
        self.parts: dict[tuple[object, ...], object] = {}
        self.checked: set[tuple[object, ...]] = set()
        self.reused = 0

    def __call__(self, name: str, page: Any, holes: Sequence[str] = (),
                 caller: Callable[[], str] | None = None) -> Markup:
        assert caller is not None, "the block to render is passed as caller="
        holes = [str(h) for h in holes]
        key = _page_key(name, page)
        known = self.parts.get(key)
        if not self.enabled or known is _OFF:
            return Markup(caller())
        if known is None:
            out = str(caller())
            parts = _split(out, holes)
            if parts is not None:
                self.parts[key] = parts
            return Markup(out)
        assert isinstance(known, list)
        joined = _join(known, holes)
        if key not in self.checked:
            self.checked.add(key)
            fresh = str(caller())
            if joined != fresh:
                self.parts[key] = _OFF
                return Markup(fresh)
        self.reused += 1
        return Markup(joined)


def _split(out: str, holes: list[str]) -> list[str] | None:
    """`out` cut at each hole, in order; None when a hole is blank or not there exactly once."""
    parts: list[str] = []
    rest = out
    for hole in holes:
        if not hole.strip() or out.count(hole) != 1 or rest.count(hole) != 1:
            return None
        before, rest = rest.split(hole, 1)
        parts.append(before)
    parts.append(rest)
    return parts


def _join(parts: list[str], holes: list[str]) -> str:
    out = [parts[0]]
    for hole, part in zip(holes, parts[1:], strict=True):
        out += [hole, part]
    return "".join(out)
