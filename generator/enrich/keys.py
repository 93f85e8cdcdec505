"""Citation keys: `family name + year + first significant title word`, e.g. `maron2025oneshot`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from ..errors import Problems
from ..model import Paper
from .bibtex.names import override_family, split_name
from .text import plain_title, to_ascii

STOP_WORDS = frozenset(
    "a an the on of for in to and or with via from by at as is are be its into towards toward "
    "using use beyond when what why how do does can we our new".split()
)


def family_name(name: str) -> str:
    """The family name as BibTeX sees it, without lower-case particles: `Navas Gómez`, `Waals` for
    `Johannes van der Waals`, `Del Maestro` for `Adrian Del Maestro` (a capitalised particle is
    part of it), `ORZALESI` for a one-word name (see `bibtex.names.split_name`). Keys made before
    capitalised particles counted (`maestro2012luttinger`) stay: the registry keeps them."""
    return split_name(name).family or name


_NOT_ASCII_WORD = re.compile(r"[^a-z0-9]")
_SPACES = re.compile(r"\s+")


def _ascii_word(text: str) -> str:
    return _NOT_ASCII_WORD.sub("", to_ascii(text).lower())


def first_title_word(title: str) -> str:
    for word in _SPACES.split(plain_title(title)):
        word = _ascii_word(word)
        if word and word not in STOP_WORDS and not word.isdigit():
            return word[:20]
    return "paper"


def base_key(paper: Paper) -> str:
    """`maron2025oneshot`: first author's family name, year (`nd` when unknown), first
    significant title word; ASCII lowercase letters and digits only. Anonymous submissions
    get `anonymous`; a paper whose digest lost its title gets `untitled`."""
    spelled = paper.bib_names[0] if paper.bib_names else ""
    family = override_family(spelled) if spelled else family_name(paper.first_author)
    author = _ascii_word(family) or "anonymous"
    year = str(paper.year) if paper.year else "nd"
    word = "untitled" if paper.title_missing else first_title_word(paper.title)
    return f"{author[:24]}{year}{word}"


# What a key may hold so that bibtex, biber, `\cite` and hyperref all accept it.
VALID_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_:.+/-]{0,99}$")


def valid_key(key: str) -> bool:
    return bool(VALID_KEY.match(key))


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


def apply_year_overrides(papers: list[Paper], years: Mapping[str, int],
                         problems: Problems) -> list[Paper]:
    """Papers with a note's year in place of the digest's (before keys and BibTeX use it)."""
    out = []
    for paper in papers:
        year = years.get(paper.id)
        if year is None:
            out.append(paper)
        elif isinstance(year, int) and not isinstance(year, bool) and 1800 <= year <= 2100:
            out.append(replace(paper, year_override=year))
        else:
            problems.warn("content/notes", 0, f"the note of {paper.id} sets year {year!r}, which is "
                          f"not a year between 1800 and 2100; keeping {paper.year}")
            out.append(paper)
    return out
