"""Markdown as the words a reader sees on the page, for search (render/search_records.py).

A search result's excerpt is cut from the record's text, so a note's `**one-class**` must reach
the index as `one-class`, a `[[wiki-link]]` as the words the page shows for it (its label, or the
linked paper's title), a link as its text and an image as its alt text. markdown-it-py parses
the text (the notes stage's parser: notes/markdown.py), and the inline tokens' text is kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ..notes.markdown import new_parser, parse
from ..runtime.switches import memoized

# The first line of an admonition or a collapsible block of MkDocs' extensions (`!!! note "Title"`,
# `??? tip`) on a curator's page: its title is words, the rest of the marker line is not.
_ADMONITION = re.compile(r'(?m)^[ \t]*(?:!!!|\?\?\?\+?)[ \t]+[\w-]+(?:[ \t]+[\w-]+)*[ \t]*(?:"([^"\n]*)")?[ \t]*$')


@lru_cache(maxsize=1)
def _page_parser() -> MarkdownIt:
    """A curator's page may hold raw HTML, which MkDocs renders as HTML: left out of the words."""
    md = new_parser()
    md.options["html"] = True
    return md


def markdown_text(body: str, titles: Mapping[str, str] | None = None, *, page: bool = False) -> str:
    """The words of Markdown `body`, one space apart. `titles`: a wiki-link target's text (the
    linked paper's title) where it has no label. `page`: a page of content/pages/ (raw HTML and
    admonition markers left out) rather than a note (whose raw HTML the page shows as text)."""
    return _text(body, tuple(sorted((titles or {}).items())), page)


# Cached for the watcher, as notes/markdown.py's `wikilinks` is: on each save of a note the search
# records of every note are made again (search_records.updated_records_file), and parsing 1,000
# notes of 600 characters takes 0.75 s here; with the cache only the saved note is parsed.
# READINGLIST_TEXT_CACHE=off turns it off (runtime/switches.memoized).
@memoized(4096)
def _text(body: str, titles: tuple[tuple[str, str], ...], page: bool) -> str:
    if page:
        body = _ADMONITION.sub(lambda m: m.group(1) or "", body)
    tokens = parse(body, _page_parser() if page else None)
    return " ".join(" ".join(_blocks(tokens, dict(titles))).split())


def _blocks(tokens: Iterable[Token], titles: Mapping[str, str]) -> Iterable[str]:
    for token in tokens:
        if token.type == "inline":
            yield "".join(_inline(token.children or (), titles))
        elif token.type in ("code_block", "fence"):
            yield token.content


def _inline(children: Iterable[Token], titles: Mapping[str, str]) -> Iterable[str]:
    for child in children:
        if child.type in ("text", "code_inline"):
            yield child.content
        elif child.type in ("softbreak", "hardbreak"):
            yield " "
        elif child.type == "image":
            yield from _inline(child.children or (), titles)
        elif child.type == "wikilink":
            meta = child.meta
            yield meta["label"] or titles.get(meta["target"], meta["target"])
