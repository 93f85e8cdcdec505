"""Citation keys: `family name + year + first significant title word`, e.g. `maron2025oneshot`."""

from __future__ import annotations

import re

from unidecode import unidecode

from ..model import Paper
from .text import plain_title

STOP_WORDS = frozenset(
    "a an the on of for in to and or with via from by at as is are be its into towards toward "
    "using use beyond when what why how do does can we our new".split()
)
_PARTICLES = frozenset(
    "de del della der den di da dos das du van von la le y bin ter zu af st".split()
)


def family_name(name: str) -> str:
    """The family name of a display name `First [particles] Last`; one-word names are kept whole."""
    words = name.split()
    if len(words) <= 1:
        return name
    return words[-1]


def _ascii_word(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", unidecode(text).lower())


def first_title_word(title: str) -> str:
    for word in re.split(r"\s+", plain_title(title)):
        word = _ascii_word(word)
        if word and word not in STOP_WORDS and not word.isdigit():
            return word[:20]
    return "paper"


def base_key(paper: Paper) -> str:
    author = _ascii_word(family_name(paper.first_author)) or "anonymous"
    year = str(paper.year) if paper.year else "nd"
    return f"{author[:24]}{year}{first_title_word(paper.title)}"


def with_suffix(base: str, taken: set[str]) -> str:
    """`base`, else `basea`, `baseb`, ... (the BibTeX convention for same-author same-year works)."""
    if base not in taken:
        return base
    for n in range(26 * 27):
        suffix = chr(97 + n % 26) if n < 26 else chr(97 + n // 26 - 1) + chr(97 + n % 26)
        if base + suffix not in taken:
            return base + suffix
    # Past `basezz`: numbers, so a year of anonymous submissions can never stop the build.
    n = 2
    while f"{base}{n}" in taken:
        n += 1
    return f"{base}{n}"
