"""A note's body as HTML: the tokens notes/markdown.py parses, with each `[[wiki-link]]` drawn as
a link to the paper the notes stage resolved it to (notes/apply.py, `NoteIndex.links`).

The curator's Markdown is trusted, but it must not break the page around it: raw HTML is
shown as text, headings sit below the note's own heading, and characters that MkDocs'
Python-Markdown extensions would still act on inside the HTML block (fence markers) are
written as entities.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ..enrich.display import title_text
from ..model import Paper
from ..notes.markdown import new_parser, parse, wikilinks
from ..notes.model import Link
from . import escape

# What a link renders as: (href or None when unresolved, link text already escaped for HTML).
Rendered = tuple["str | None", str]


def _render_wikilink(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    meta = tokens[idx].meta
    href, text = env["wikilinks"].get(meta["target"], (None, escape.markup(meta["target"])))
    if meta["label"]:
        text = escape.markup(meta["label"])
    if href is None:
        return f'<span class="rl-wikilink rl-wikilink--missing">{text}</span>'
    return f'<a class="rl-wikilink" href="{escape.markup(href)}">{text}</a>'


@lru_cache(maxsize=1)
def _renderer() -> MarkdownIt:
    # The one configured parser of the process (not a per-note speed-up): without it every note
    # body would build a new markdown-it parser and add the wikilink rule to it again.
    md = new_parser()
    md.add_render_rule("wikilink", _render_wikilink)
    return md


def render_body(body: str, resolved: tuple[tuple[str, Rendered], ...]) -> str:
    """HTML of a note body; `resolved` maps each wiki-link target to what it renders as."""
    if not body.strip():
        return ""
    md = _renderer()
    tokens = parse(body, md)
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            # The note sits under an h2 on the paper page: its `#` becomes h3, and so on.
            token.tag = f"h{min(6, int(token.tag[1]) + 2)}"
    html = md.renderer.render(tokens, md.options, {"wikilinks": dict(resolved)})
    # Inside the raw HTML block, Python-Markdown's fence preprocessors would still see ``` and ~~~.
    return escape.fence_chars(html).strip("\n")


def note_html(body: str, links: Sequence[Link], me: Paper, papers: Mapping[str, Paper],
              directory_urls: bool) -> str:
    """The body of `me`'s note as HTML, its wiki-links (`links`, as the notes stage resolved
    them) pointing at their papers' pages, titled by their papers' titles (`directory_urls`:
    mkdocs.yml's use_directory_urls)."""
    targets = {lk.target: lk.paper_id for lk in links}
    resolved: list[tuple[str, Rendered]] = []
    for target in dict.fromkeys(t for t, _, _ in wikilinks(body)):
        pid = targets.get(target)
        if pid is None:
            resolved.append((target, (None, escape.text(target))))
        else:
            p = papers[pid]
            resolved.append((target, (_href(me, p, directory_urls), escape.text(title_text(p.title)))))
    return render_body(body, tuple(resolved))


def _href(from_paper: Paper, to_paper: Paper, directory_urls: bool) -> str:
    """A link inside raw HTML, which MkDocs does not rewrite: write the final URL."""
    if directory_urls:
        return posixpath.relpath(f"papers/{to_paper.slug}/", f"papers/{from_paper.slug}/") + "/"
    return f"{to_paper.slug}.html"
