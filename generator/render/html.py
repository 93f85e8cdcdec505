"""Pages the generator writes as HTML, not Markdown (paper pages): the pieces MkDocs' Markdown
would have made, made directly.

A paper page is a few headings, raw HTML blocks and two short lists, and ten thousand of them
spent half of `mkdocs build` in Python-Markdown. Written as HTML (still a valid Markdown file:
raw HTML passes through), the MkDocs plugin hands the body to the theme as it is
(`mkdocs_plugin.py`, front-matter flag `rl_html`). The markup is what `toc` (with `permalink`)
and `pymdownx.highlight` produce, so the theme, its table of contents and copy buttons behave
the same (tests/test_html_pages.py).
"""

from __future__ import annotations

import html
import re
from functools import lru_cache

from markdown.extensions.toc import slugify

from . import escape

# Front-matter key that marks a page whose body is finished HTML.
FLAG = "rl_html"
_HEADING = re.compile(r'<h([1-6]) id="([^"]+)">(.*?)<a class="headerlink" href="#\2"', re.S)
_ID = re.compile(r'\bid="([^"]+)"')


class Ids:
    """Heading ids as Python-Markdown's `toc` makes them: slugified text, `_1`, `_2` on repeats."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def make(self, text_html: str) -> str:
        base = _base_id(text_html)
        out, n = base, 0
        while out in self.seen:
            n += 1
            out = f"{base}_{n}"
        self.seen.add(out)
        return out


@lru_cache(maxsize=1 << 14)
def _base_id(text_html: str) -> str:
    # Cached: every paper page has the same few section headings.
    return slugify(html.unescape(re.sub(r"<[^>]*>", "", text_html)), "-") or "_"


def heading(level: int, text_html: str, ids: Ids) -> str:
    """`<h2 id="x">Text<a class="headerlink" …>¶</a></h2>`: `text_html` is already escaped."""
    anchor = ids.make(text_html)
    return (f'<h{level} id="{anchor}">{text_html}<a class="headerlink" href="#{anchor}" '
            f'title="Permanent link">&para;</a></h{level}>')


def toc_tokens(body: str) -> list[dict[str, object]]:
    """The table of contents of an HTML body, nested by level, in the shape `toc` gives MkDocs."""
    root: list[dict[str, object]] = []
    stack: list[tuple[int, list[dict[str, object]]]] = [(0, root)]
    for m in _HEADING.finditer(body):
        level = int(m.group(1))
        token: dict[str, object] = {"level": level, "id": m.group(2), "name": m.group(3).strip(),
                                    "children": []}
        while stack[-1][0] >= level:
            stack.pop()
        stack[-1][1].append(token)
        children = token["children"]
        assert isinstance(children, list)
        stack.append((level, children))
    return root


def anchor_ids(body: str) -> set[str]:
    return set(_ID.findall(body))


def table(head: list[str], rows: list[list[str]]) -> str:
    """An HTML table as Python-Markdown writes one (Material styles and wraps it the same)."""
    out = ["<table>", "<thead>", "<tr>", *(f"<th>{h}</th>" for h in head), "</tr>", "</thead>", "<tbody>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>")
    out += ["</tbody>", "</table>"]
    return "\n".join(out)


def code_block(code: str) -> str:
    """A code block in the markup `pymdownx.highlight` writes, so Material adds its copy button.

    Not coloured: Pygments' spans made a BibTeX entry three times longer (1.5 KB more per paper
    page, 15 MB at ten thousand papers) and cost two seconds of every build."""
    return f'<div class="highlight"><pre><span></span><code>{escape.markup(code, quote=False)}</code></pre></div>'
