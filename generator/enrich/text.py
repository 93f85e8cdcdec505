"""Text helpers shared by enrich and render: plain titles and ASCII slugs."""

from __future__ import annotations

import re

from anyascii import anyascii

_CMD_ARG = re.compile(r"\\(?:math[a-z]*|text[a-z]*|emph|bm|operatorname)\s*\{([^{}]*)\}")
_DOLLAR = re.compile(r"\$([^$]+)\$")


def plain_title(title: str) -> str:
    """A title's words: `\\mathsf{VISTA}` -> `VISTA`, `$x$` -> `x`, other TeX left as it is. For
    slugs, keys and matching, which must not change; pages show `display.title_text`."""
    text = _CMD_ARG.sub(r"\1", title)
    text = _DOLLAR.sub(lambda m: _CMD_ARG.sub(r"\1", m.group(1)), text)
    return " ".join(text.split())


_ASCII_WORD = re.compile(r"[a-z0-9]+")
# Han ideographs and kana: anyascii writes each as a syllable and runs them together (刘伟 ->
# LiuWei); a name is spelled with them apart (Liu Wei), as keys, slugs and search want them.
SYLLABLES = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def to_ascii(text: str) -> str:
    """`text` transliterated to ASCII (anyascii: Grünefeld -> Grunefeld, Иван -> Ivan), ideographs
    and kana a syllable per word."""
    if text.isascii():
        return text
    return anyascii(SYLLABLES.sub(lambda m: " ".join(anyascii(c) for c in m.group()) + " ", text))


def ascii_words(text: str) -> list[str]:
    return _ASCII_WORD.findall(to_ascii(text).lower())


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

