"""Author lines as digests print them: `A, B and C`, `A and B`, `A, B, C et al. (+2 more)`."""

from __future__ import annotations

import re
from dataclasses import dataclass

_ET_AL = re.compile(r"\s*,?\s*et al\.?\s*(?:\(\+\s*(\d+)\s*more\))?\s*$")
# `A, B, and C` (the serial comma) as well as `A, B and C`.
_SEPARATOR = re.compile(r",\s*and\s+|,\s*|\s+and\s+")
_PARTICLES = {
    "de", "del", "della", "der", "den", "di", "da", "dos", "das", "du", "van", "von", "la",
    "le", "y", "bin", "al", "el", "ter", "zu", "af", "st.",
}


@dataclass(frozen=True)
class AuthorList:
    names: tuple[str, ...]
    complete: bool
    more: int = 0


def parse_authors(line: str) -> AuthorList:
    text = " ".join(line.split())
    more = 0
    complete = True
    # The pattern can only match where "et al" is; searching for it from every position is slow.
    m = _ET_AL.search(text) if "et al" in text else None
    if m:
        complete = False
        more = int(m.group(1)) if m.group(1) else 0
        text = text[: m.start()]
    names = [n.strip() for n in _SEPARATOR.split(text) if n.strip()]
    return AuthorList(tuple(names), complete, more)


def _looks_like_name(name: str) -> bool:
    words = name.split()
    if not 1 <= len(words) <= 6:
        return False
    for w in words:
        if w.lower() in _PARTICLES:
            continue
        if not (w[0].isupper() or w[0] in "'’("):
            return False
        if any(ch.isdigit() for ch in w) or any(ch in w for ch in ":;?!$\\{}[]=<>|"):
            return False
    return True


def looks_like_author_line(line: str) -> bool:
    """True for lines shaped like an author list (used to spot a record with no title line)."""
    text = line.strip()
    if not text or text.endswith((".", ":")):
        return False
    authors = parse_authors(text)
    if not authors.names or not all(_looks_like_name(n) for n in authors.names):
        return False
    # One capitalised phrase alone could as well be a short title.
    return len(authors.names) >= 2 or not authors.complete
