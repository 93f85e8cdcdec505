"""Text helpers shared by enrich and render: plain titles and ASCII slugs."""

from __future__ import annotations

import re

from unidecode import unidecode

_CMD_ARG = re.compile(r"\\(?:math[a-z]*|text[a-z]*|emph|bm|operatorname)\s*\{([^{}]*)\}")
_DOLLAR = re.compile(r"\$([^$]+)\$")


def plain_title(title: str) -> str:
    """A title as plain text: `\\mathsf{VISTA}` -> `VISTA`, `$x$` -> `x`."""
    text = _CMD_ARG.sub(r"\1", title)
    text = _DOLLAR.sub(lambda m: _CMD_ARG.sub(r"\1", m.group(1)), text)
    return " ".join(text.split())


def ascii_words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", unidecode(text).lower())


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


def balance_braces(text: str) -> str:
    """Drop every brace that has no partner, so untrusted text cannot close a BibTeX field or
    entry early (or leave one open); balanced groups such as `\\mathsf{VISTA}` are kept."""
    out: list[str] = []
    open_at: list[int] = []
    for ch in text:
        if ch == "{":
            open_at.append(len(out))
        elif ch == "}":
            if not open_at:
                continue
            open_at.pop()
        out.append(ch)
    for i in reversed(open_at):
        del out[i]
    return "".join(out)


def bibtex_name(name: str) -> str:
    """An author name for BibTeX: no braces at all (pybtex splits names into parts, and a brace
    group split across parts is unbalanced), white space folded."""
    return " ".join(name.replace("{", " ").replace("}", " ").split())
