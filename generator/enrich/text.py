"""Text helpers shared by enrich and render: plain titles and ASCII slugs."""

from __future__ import annotations

import re
from functools import lru_cache

from unidecode import unidecode

_CMD_ARG = re.compile(r"\\(?:math[a-z]*|text[a-z]*|emph|bm|operatorname)\s*\{([^{}]*)\}")
_DOLLAR = re.compile(r"\$([^$]+)\$")


@lru_cache(maxsize=1 << 16)
def plain_title(title: str) -> str:
    """A title as plain text: `\\mathsf{VISTA}` -> `VISTA`, `$x$` -> `x`. (Cached: pages ask for
    each title many times, in lists, related papers and pictures.)"""
    text = _CMD_ARG.sub(r"\1", title)
    text = _DOLLAR.sub(lambda m: _CMD_ARG.sub(r"\1", m.group(1)), text)
    return " ".join(text.split())


_ASCII_WORD = re.compile(r"[a-z0-9]+")


def ascii_words(text: str) -> list[str]:
    return _ASCII_WORD.findall((text if text.isascii() else unidecode(text)).lower())


def slugify(text: str, limit: int = 60) -> str:
    """Safe, bounded URL segment: only [a-z0-9-], cut at a word boundary."""
    slug = ""
    for word in ascii_words(plain_title(text)):
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > limit:
            slug = slug or word[:limit]
            break
        slug = candidate
    slug = slug or "paper"
    # Names Windows reserves (whatever the extension) would make the built site uncopyable there;
    # `index` would be the folder's own page.
    if slug in _RESERVED:
        slug = f"{slug}-paper"
    return slug


_RESERVED = frozenset({"con", "prn", "aux", "nul", "index", "tags"}
                      | {f"{dev}{n}" for dev in ("com", "lpt") for n in range(10)})

