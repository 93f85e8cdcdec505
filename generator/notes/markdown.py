"""Note bodies: Markdown to HTML with markdown-it-py, `[[wiki-links]]` included.

The curator's Markdown is trusted, but it must not break the page around it: raw HTML is
shown as text, headings sit below the note's own heading, and characters that MkDocs'
Python-Markdown extensions would still act on inside the HTML block (fence markers) are
written as entities. Code spans and code blocks are never scanned for wiki-links because
the wiki-link rule is an inline rule: markdown-it consumes code before it gets a chance.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from ..render.escape import markup

# (target, label, line offset inside the body) for every [[...]] in a body, in order.
RawLink = tuple[str, "str | None", int]
# What a link renders as: (href or None when unresolved, link text already escaped for HTML).
Rendered = tuple["str | None", str]

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _wikilink(state: StateInline, silent: bool) -> bool:
    src, pos = state.src, state.pos
    if not src.startswith("[[", pos):
        return False
    end = src.find("]]", pos + 2)
    if end < 0:
        return False
    inner = src[pos + 2:end]
    if not inner.strip() or "[" in inner or len(inner) > 400:
        return False
    if not silent:
        target, _, label = inner.partition("|")
        token = state.push("wikilink", "", 0)
        token.content = inner
        token.meta = {"target": " ".join(target.split()), "label": " ".join(label.split()) or None,
                      "offset": src.count("\n", 0, pos)}
    state.pos = end + 2
    return True


def _render_wikilink(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    meta = tokens[idx].meta
    href, text = env["wikilinks"].get(meta["target"], (None, markup(meta["target"])))
    if meta["label"]:
        text = markup(meta["label"])
    if href is None:
        return f'<span class="rl-wikilink rl-wikilink--missing">{text}</span>'
    return f'<a class="rl-wikilink" href="{markup(href)}">{text}</a>'


@lru_cache(maxsize=1)
def parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable(["table", "strikethrough"])
    md.inline.ruler.before("link", "wikilink", _wikilink)
    md.add_render_rule("wikilink", _render_wikilink)
    return md


def _parse(body: str) -> list[Token]:
    tokens = parser().parse(_CONTROL.sub("", body), {})
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            # The note sits under an h2 on the paper page: its `#` becomes h3, and so on.
            token.tag = f"h{min(6, int(token.tag[1]) + 2)}"
    return tokens


@lru_cache(maxsize=4096)
def wikilinks(body: str) -> tuple[RawLink, ...]:
    """Every wiki-link in `body` with its line offset (0 = the body's first line)."""
    out: list[RawLink] = []
    block_line = 0
    for token in _parse(body):
        if token.map is not None:
            block_line = token.map[0]
        for child in token.children or ():
            if child.type == "wikilink":
                out.append((child.meta["target"], child.meta["label"], block_line + child.meta["offset"]))
    return tuple(out)


@lru_cache(maxsize=4096)
def render_body(body: str, resolved: tuple[tuple[str, Rendered], ...]) -> str:
    """HTML of a note body; `resolved` maps each wiki-link target to what it renders as."""
    if not body.strip():
        return ""
    md = parser()
    html = md.renderer.render(_parse(body), md.options, {"wikilinks": dict(resolved)})
    # Inside the raw HTML block, Python-Markdown's fence preprocessors would still see ``` and ~~~.
    return html.replace("`", "&#96;").replace("~", "&#126;").strip("\n")


def resolve_all(links: tuple[RawLink, ...], lookup: Callable[[str], Rendered]) -> tuple[tuple[str, Rendered], ...]:
    return tuple((target, lookup(target)) for target in dict.fromkeys(t for t, _, _ in links))
