"""Author lines as digests print them: `A, B and C`, `A and B`, `A, B, C et al. (+2 more)`.

Real arXiv author lines carry more than names, and all readers of free-text author lines
(arXiv e-mails and feeds, listing pages, TMLR digests) go through `parse_authors`:

- affiliations in parentheses, `Guillaume Drion (Montefiore Institute, University of Liège,
  Belgium)`, and arXiv's numbered form `A (1), B (1 and 2) ((1) Univ X, (2) Univ Y)`: an
  affiliation is not an author, so each parenthesised group is taken out (whole, nested groups
  too) before the list is split at its commas; `AuthorList.affiliations` keeps them apart;
- a list typed without commas, `James R. Kirk Robert E. Wray Peter Lindes`: split where its shape
  is unambiguous (given name, initials, family name, repeated; a two-word name may fill a gap);
  a name that looks like several run together but has no such shape is kept whole and listed in
  `AuthorList.unsure`, for the reader to warn with its file and line (content/names.yml cannot
  split it, but the curator can correct the digest).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import Problems

_ET_AL = re.compile(r"\s*,?\s*et al\.?\s*(?:\(\+\s*(\d+)\s*more\))?\s*$")
# `A, B, and C` (the serial comma) as well as `A, B and C`.
_SEPARATOR = re.compile(r",\s*and\s+|,\s*|\s+and\s+")
_PARTICLES = {
    "de", "del", "della", "der", "den", "di", "da", "dos", "das", "du", "van", "von", "la",
    "le", "y", "bin", "al", "el", "ter", "zu", "af", "st.",
}
# `R.`, `J.-P.`, `A.B.`: an initial of a given name.
_INITIAL = re.compile(r"^(?:[A-Z]\.-?)+$")
# A parenthesised group with up to two levels of nesting: `((1) Univ X, (2) Univ Y)`.
_GROUP = re.compile(r"\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)")
# arXiv's numbered affiliations: `(1)`, `(1 and 2)`, `(1, 3)`, `(1,2,3)`.
_NUMBERS = re.compile(r"^\(\s*\d+(?:\s*(?:,|and|&)\s*\d+)*\s*\)$")
_NUMBERED = re.compile(r"^\(\s*\(\s*\d")


@dataclass(frozen=True)
class AuthorList:
    names: tuple[str, ...]
    complete: bool
    more: int = 0
    # The affiliations printed in parentheses, in order of appearance (never authors).
    affiliations: tuple[str, ...] = ()
    # Names that look like several authors typed without commas but have no unambiguous split.
    unsure: tuple[str, ...] = ()


def _take_affiliations(text: str) -> tuple[str, tuple[str, ...]]:
    """`text` without its parenthesised groups, and the affiliations they held."""
    found: list[str] = []

    def take(m: re.Match[str]) -> str:
        group = m.group(0)
        if _NUMBERS.match(group):
            return " "
        if m.start() and not text[m.start() - 1].isspace() and text[m.start() - 1] not in ",;)":
            return group  # `f(x)` inside a word is no affiliation: arXiv prints `Name (Affiliation)`
        inner = group[1:-1].strip()
        if _NUMBERED.match(group):
            # `((1) Univ X, (2) Univ Y)`: one affiliation after each number.
            found.extend(a.strip(" ,;") for a in re.split(r"\(\s*\d+\s*\)", inner) if a.strip(" ,;"))
        elif inner:
            found.append(" ".join(inner.split()))
        return " "

    out = _GROUP.sub(take, text)
    # Spaces left before a comma by a removed group: `Drion (X), Ernst` -> `Drion , Ernst`.
    return " ".join(re.sub(r"\s+,", ",", out).split()), tuple(found)


def _is_word(word: str) -> bool:
    """A capitalised word that can be a given or family name (not an initial, not a particle)."""
    return word[:1].isupper() and not _INITIAL.match(word) and word.lower() not in _PARTICLES


def _split_run_together(name: str) -> tuple[str, ...] | None:
    """`James R. Kirk Robert E. Wray Peter Lindes` -> its three names; None when the words have
    no unambiguous split. Each run of initials sits between a given name and a family name (which
    may start with lower-case particles); a gap of two words between those names is a two-word
    name."""
    words = name.split()
    spans: list[tuple[int, int]] = []
    k = 0
    while k < len(words):
        if not _INITIAL.match(words[k]):
            k += 1
            continue
        start = k - 1
        while k < len(words) and _INITIAL.match(words[k]):
            k += 1
        while k < len(words) - 1 and words[k] in _PARTICLES:
            k += 1
        if start < 0 or k >= len(words) or not _is_word(words[start]) or not _is_word(words[k]):
            return None
        spans.append((start, k + 1))
        k += 1
    names: list[str] = []
    at = 0
    for start, end in [*spans, (len(words), len(words))]:
        gap = words[at:start]
        # Two words are one name; four could be two names or one with two family names.
        if len(gap) not in (0, 2) or not all(_is_word(w) for w in gap):
            return None
        names.extend(" ".join(gap[i:i + 2]) for i in range(0, len(gap), 2))
        if start < end:
            if start < at:
                return None
            names.append(" ".join(words[start:end]))
        at = end
    return tuple(names) if spans and len(names) >= 2 else None


def _run_together(name: str) -> bool:
    """A name that looks like several: five or more name words (particles and initials aside), or
    two runs of initials with two or more name words between them (`R. Kirk Robert E.`)."""
    words = name.split()
    if sum(1 for w in words if _is_word(w)) >= 5:
        return True
    between = -1  # name words since the last initial; -1 before the first
    for word in words:
        if _INITIAL.match(word):
            if between >= 2:
                return True
            between = 0
        elif between >= 0 and _is_word(word):
            between += 1
    return False


def _parts(line: str) -> tuple[list[str], bool, int, tuple[str, ...]]:
    """The pieces of an author line between its separators (each one name, or several names run
    together), whether the list is complete, the `(+N more)` count and the affiliations."""
    text = " ".join(line.split())
    more = 0
    complete = True
    # The pattern can only match where "et al" is; searching for it from every position is slow.
    m = _ET_AL.search(text) if "et al" in text else None
    if m:
        complete = False
        more = int(m.group(1)) if m.group(1) else 0
        text = text[: m.start()]
    affiliations: tuple[str, ...] = ()
    if "(" in text:
        text, affiliations = _take_affiliations(text)
    parts = [part.strip() for part in _SEPARATOR.split(text)]
    return [part for part in parts if part], complete, more, affiliations


def _names(parts: list[str]) -> tuple[list[str], list[str]]:
    """The names of the pieces (a piece that is several names run together split where it can
    be), and the pieces that look like several names but could not be split."""
    names: list[str] = []
    unsure: list[str] = []
    for part in parts:
        if len(part) > 20 and part.count(" ") >= 3 and _run_together(part):
            split = _split_run_together(part)
            if split:
                names.extend(split)
                continue
            unsure.append(part)
        names.append(part)
    return names, unsure


def parse_authors(line: str) -> AuthorList:
    parts, complete, more, affiliations = _parts(line)
    names, unsure = _names(parts)
    return AuthorList(tuple(names), complete, more, affiliations, tuple(unsure))


def warn_unsure(authors: AuthorList, path: str, line: int, problems: Problems) -> None:
    """Tell the curator about each name that looks like several authors typed without commas."""
    for name in authors.unsure:
        problems.warn(path, line, f"the author {name!r} looks like several names without commas between "
                      "them; kept as one (write the commas in the digest to split it)")


def _name_word(word: str) -> bool:
    """A word that can stand in a person's name: a particle, or a capitalised word without digits
    or symbols."""
    if word.lower() in _PARTICLES:
        return True
    if not (word[0].isupper() or word[0] in "'’("):
        return False
    return not (any(ch.isdigit() for ch in word) or any(ch in word for ch in ":;?!$\\{}[]=<>|"))


def looks_like_author_line(line: str) -> bool:
    """True for lines shaped like an author list (used to spot a record with no title line): every
    name one to six words that can stand in a name, and more than one name or `et al.`"""
    text = line.strip()
    if not text or text.endswith((".", ":")):
        return False
    parts, complete, _, _ = _parts(text)
    # Splitting names run together only regroups the words, so the words are checked first: a
    # line with a word no name has (most titles) needs no grouping into names.
    if not all(_name_word(w) for part in parts for w in part.split()):
        return False
    names, _ = _names(parts)
    if not names or not all(1 <= len(name.split()) <= 6 for name in names):
        return False
    # One capitalised phrase alone could as well be a short title.
    return len(names) >= 2 or not complete
