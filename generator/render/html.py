"""Pages the generator writes as HTML, not Markdown (paper pages): the pieces MkDocs' Markdown
would have made, made directly.

A paper page is a few headings, raw HTML blocks and two short lists, and ten thousand of them
spent half of `mkdocs build` in Python-Markdown. Written as HTML (still a valid Markdown file:
raw HTML passes through), the MkDocs plugin hands the body to the theme as it is
(site/plugin.py, front-matter flag `rl_html`). The markup is what `toc` (with `permalink`)
and `pymdownx.highlight` produce, so the theme, its table of contents and copy buttons behave
the same (tests/render/test_html_pages.py).
"""

from __future__ import annotations

import html
import re

from markdown.extensions.toc import slugify

from ..runtime.switches import memoized
from . import escape

# Front-matter key that marks a page whose body is finished HTML.
FLAG = "rl_html"
_HEADING = re.compile(r'<h([1-6]) id="([^"]+)">(.*?)<a class="headerlink" href="#\2"', re.S)


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


# READINGLIST_TEXT_CACHE=off turns it off (runtime/switches.memoized; the `no-text-cache` variant).
@memoized(1 << 14)
def _base_id(text_html: str) -> str:
    # Memoized: every paper page has the same few section headings; 0.11 s and 0.13 s of a build.
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


def table(head: list[str], rows: list[list[str]], attrs: str = "") -> str:
    """An HTML table as Python-Markdown writes one (Material styles and wraps it the same);
    `attrs`: the table element's attributes, if any."""
    out = [f"<table {attrs}>" if attrs else "<table>", "<thead>", "<tr>", *(f"<th>{h}</th>" for h in head),
           "</tr>", "</thead>", "<tbody>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>")
    out += ["</tbody>", "</table>"]
    return "\n".join(out)


def code_block(code: str) -> str:
    """A code block in the markup `pymdownx.highlight` writes, so Material adds its copy button.

    Not coloured: Pygments' spans made a BibTeX entry three times longer (1.5 KB more per paper
    page, 15 MB at ten thousand papers) and cost two seconds of every build."""
    return f'<div class="highlight"><pre><span></span><code>{escape.markup(code, quote=False)}</code></pre></div>'


def cite_tabs(bibtex_block: str, references: list[tuple[str, str]]) -> str:
    """Content tabs BibTeX | APA | IEEE, in the markup pymdownx.tabbed (alternate style) writes, so
    Material's CSS and scripts treat them as its own tabs; each block is a code block, so Material
    gives it a copy button. `bibtex_block`: the entry's code block (`code_block`); `references`:
    (tab label, reference) as the references stage made them (render/references.py)."""
    blocks = [("BibTeX", bibtex_block), *((name, code_block(text)) for name, text in references)]
    n = len(blocks)
    inputs = "".join(f'<input{" checked" if i == 1 else ""} id="__tabbed_1_{i}" name="__tabbed_1" type="radio">'
                     for i in range(1, n + 1))
    labels = "".join(f'<label for="__tabbed_1_{i}">{escape.text(name)}</label>'
                     for i, (name, _) in enumerate(blocks, start=1))
    content = "".join(f'<div class="tabbed-block">{block}</div>' for _, block in blocks)
    # `#bibtex`: the section was "BibTeX" before it had tabs; links to it still land here. A marker
    # beside the tabs, not an id on them: Material names each code block's copy target after the
    # nearest id around it, and one id around all three blocks made all three copy the first.
    # `data-search-exclude`: the index Zensical and Material's own search cut from the page leaves
    # the tabs out, as Pagefind's records do (render/search_records.py): their labels ran
    # together in excerpts ("BibTeXAPAIEEE @article{"), and every word of the references is in
    # the page's header already. The key stays searchable in the "Cite as" line under them.
    return (f'<div id="bibtex"></div>\n<div class="tabbed-set tabbed-alternate rl-refs" data-tabs="1:{n}" '
            f'data-search-exclude>{inputs}'
            f'<div class="tabbed-labels">{labels}</div><div class="tabbed-content">{content}</div></div>')
