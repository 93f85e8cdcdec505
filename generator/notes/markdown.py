"""Note bodies parsed with markdown-it-py, `[[wiki-links]]` included: the notes stage reads them,
the render stage (render/notebody.py) turns the same tokens into HTML.

Code spans and code blocks are never scanned for wiki-links because the wiki-link rule is an
inline rule: markdown-it consumes code before it gets a chance.
"""

from __future__ import annotations

import re
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from ..runtime.switches import memoized

# (target, label, line offset inside the body) for every [[...]] in a body, in order.
RawLink = tuple[str, "str | None", int]

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


def new_parser() -> MarkdownIt:
    """A CommonMark parser with tables, strikethrough and the `wikilink` inline token (raw HTML
    is not parsed as HTML: it stays text). A new one each call: the render stage adds its rule
    for drawing a `wikilink` to its own."""
    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable(["table", "strikethrough"])
    md.inline.ruler.before("link", "wikilink", _wikilink)
    return md


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    # The one configured parser of the process (not a per-note speed-up): without it every
    # `parse` would build a new markdown-it parser.
    return new_parser()


def parse(body: str, md: MarkdownIt | None = None) -> list[Token]:
    """The tokens of a note body (control characters dropped), parsed by `md` or by this module's parser."""
    return (md or _parser()).parse(_CONTROL.sub("", body), {})


# Cached for the watcher (`readinglist serve`/`watch`), not for the build: its fast path indexes
# every note again on each save (notes.apply.reindex), and with the cache only the saved note is
# parsed. 1,000 notes on 10,000 synthetic papers: 28 ms instead of 209 ms a save (CPU, medians of
# five interleaved rounds; issue 34). In a build it spares render's second parse of each note,
# which was lost in the noise (1,000 notes: -0.41 s, rounds spreading over 0.5 s), far from the
# 3 % of the build that a build speed-up must save.
# READINGLIST_TEXT_CACHE=off turns it off (runtime/switches.memoized; the `no-text-cache` variant).
@memoized(4096)
def wikilinks(body: str) -> tuple[RawLink, ...]:
    """Every wiki-link in `body` with its line offset (0 = the body's first line)."""
    out: list[RawLink] = []
    block_line = 0
    for token in parse(body):
        if token.map is not None:
            block_line = token.map[0]
        for child in token.children or ():
            if child.type == "wikilink":
                out.append((child.meta["target"], child.meta["label"], block_line + child.meta["offset"]))
    return tuple(out)
