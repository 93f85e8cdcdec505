"""The CSL fields of a paper read from a .bib file (sources/bibfile.py): what its entry says, every
field a citation prints, in CSL's words, as pandoc's BibLaTeX reader maps them (`pandoc -f biblatex
-t csljson`; tests/render/test_references_pandoc.py compares the two field by field).

- the type: `@article` is `article-journal`, `@inproceedings` `paper-conference`, `@book`
  `book`, `@incollection` `chapter`, `@techreport` `report`, a thesis `thesis`, `@online`
  `webpage`; `@misc` and anything else `document` (CSL's generic type; pandoc gives none), but an
  arXiv preprint is an `article` with `publisher` arXiv, as the other papers' (render/csl.py);
- `container-title` (journal, journaltitle, or the booktitle of an entry in a book: not of a
  `@book` or `@proceedings`, the book itself) and its abbreviation
  (`container-title-short`: shortjournal), `collection-title` (series),
  `volume`, `issue` (an article's number; another type's number is its `number`, or the series'
  `collection-number`), `page` (`6840--6851` -> `6840-6851`), `edition`, `publisher` (or the
  institution, school, organization, or how it was published), `genre` (a report's or thesis'
  type), `publisher-place` (address or location), `event` (eventtitle), `ISBN`, `ISSN`,
  and the editors;
- `issued`: the year, with the month only when the entry has one (`month`, or a `date` of
  `YYYY-MM[-DD]`, which gives the day too): a year-only entry is dated by its year alone;
  `accessed` from `urldate` (IEEE prints `Accessed: Oct. 10, 2021.` before an address).

Empty fields (`pages = {}`, as NeurIPS writes them) are left out. What a citation does not print
is left out too: notes (in reference managers' exports they are the curator's remarks or the
manager's bookkeeping: `Publisher: ...`, `Google-Books-ID: ...`), keywords, abstracts (the item's
abstract is the page's), `file`. The title, authors, DOI, URL and arXiv id come from
the paper as for every other paper (render/csl.py).
"""

from __future__ import annotations

import re
from typing import Any

from ..model import Paper
from ..sources.dates import MONTH_NAMES
from ..sources.tex import tex_to_text

# BibTeX and BibLaTeX entry types -> CSL types (pandoc's mapping; `document` for the rest).
TYPES = {"article": "article-journal", "inproceedings": "paper-conference", "conference": "paper-conference",
         "book": "book", "mvbook": "book", "proceedings": "book", "collection": "book", "booklet": "pamphlet",
         "incollection": "chapter", "inbook": "chapter", "techreport": "report", "report": "report",
         "phdthesis": "thesis", "mastersthesis": "thesis", "thesis": "thesis", "online": "webpage",
         "www": "webpage", "manual": "book", "unpublished": "manuscript"}
_THESES = {"phdthesis": "PhD thesis", "mastersthesis": "Master's thesis"}
# Types whose `number` is the issue of a journal, and types whose `number` is the entry's own
# (a report's number); any other type's number is its series' (`collection-number`).
_ISSUE_NUMBER = {"article-journal"}
_OWN_NUMBER = {"report", "thesis", "article", "webpage", "pamphlet", "document", "manuscript"}
_MONTHS = {m[:3]: n for n, m in enumerate(MONTH_NAMES, start=1)}
_DATE = re.compile(r"^\s*(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?")


def bib_type(paper: Paper) -> str:
    """The CSL type of a paper read from a .bib file."""
    return TYPES.get(paper.bib_type, "document")


# The types that sit in a book (`booktitle`). BibTeX's styles and pandoc read `booktitle` only in
# these: a `@proceedings` or `@book` is the book itself (ADS writes the title into both).
_IN_BOOK = {"inproceedings", "conference", "incollection", "inbook", "bookinbook", "inreference", "suppbook",
            "suppcollection"}
# Fields copied as they are, (CSL variable, the .bib fields that give it, first found wins), in
# the order the item lists them (CSL-JSON files keep it). IEEE cites a journal by its abbreviation.
_BEFORE_NUMBER: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("container-title", ("journal", "journaltitle")),
    ("container-title-short", ("shortjournal", "journalabbrev")),
    ("collection-title", ("series",)),
    ("volume", ("volume",)),
    ("edition", ("edition",)),
)
_AFTER_GENRE: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("publisher", ("publisher", "institution", "school", "organization", "howpublished")),
    ("publisher-place", ("address", "location")),
    ("event", ("eventtitle",)),
    ("ISBN", ("isbn",)),
    ("ISSN", ("issn",)),
)


def bib_csl_fields(paper: Paper, csl_type: str) -> dict[str, Any]:
    """The entry's own fields for its CSL item, in CSL's names (see above), in a fixed order."""
    raw = {name: value for name, value in paper.bib_fields}

    def text(*names: str) -> str:
        for name in names:
            value = tex_to_text(raw.get(name, "")).strip()
            if value:
                return value
        return ""

    out: dict[str, Any] = {}

    def copy(fields: tuple[tuple[str, tuple[str, ...]], ...]) -> None:
        for key, names in fields:
            value = text(*names)
            if value:
                out[key] = value

    copy(_BEFORE_NUMBER)
    if "container-title" not in out and paper.bib_type in _IN_BOOK and text("booktitle"):
        out = {"container-title": text("booktitle"), **out}
    number = text("number", "issue")
    if number:
        if csl_type in _ISSUE_NUMBER:
            out["issue"] = number
        elif csl_type in _OWN_NUMBER or not text("series"):
            out["number"] = number
        else:
            out["collection-number"] = number
    pages = text("pages")
    if pages:
        out["page"] = re.sub(r"\s*[-‐‑–—]+\s*", "-", pages)
    genre = text("type") or _THESES.get(paper.bib_type, "")
    if genre:
        out["genre"] = genre
    copy(_AFTER_GENRE)
    return out


def bib_accessed(paper: Paper) -> list[int]:
    """The `urldate` as [year, month, day] (as much as it gives), or []."""
    date = _DATE.match(next((value for name, value in paper.bib_fields if name == "urldate"), ""))
    if not date:
        return []
    parts = [int(part) for part in date.groups() if part]
    return parts if len(parts) == 1 or (1 <= parts[1] <= 12 and (len(parts) == 2 or 1 <= parts[2] <= 31)) else []


def bib_issued(paper: Paper) -> list[int]:
    """[year], [year, month] or [year, month, day]: as much of the date as the entry gives."""
    raw = {name: value for name, value in paper.bib_fields}
    date = _DATE.match(raw.get("date", ""))
    year_text = re.search(r"\d{4}", raw.get("year", ""))
    year = int(year_text.group(0)) if year_text else int(date.group(1)) if date else None
    if year is None:
        return []
    if date and int(date.group(1)) == year and date.group(2) and 1 <= int(date.group(2)) <= 12:
        parts = [year, int(date.group(2))]
        if date.group(3) and 1 <= int(date.group(3)) <= 31:
            parts.append(int(date.group(3)))
        return parts
    month = _month(raw.get("month", ""))
    return [year, month] if month else [year]


def _month(text: str) -> int | None:
    """`jun`, `June`, `6`, `06` -> 6; a range or anything else (`06--11 Aug`) -> None."""
    text = text.strip().lower().rstrip(".")
    if text.isdigit():
        return int(text) if 1 <= int(text) <= 12 else None
    if len(text) >= 3 and text.isalpha():
        month = _MONTHS.get(text[:3])
        if month and MONTH_NAMES[month - 1].startswith(text):
            return month
    return None


def bib_subtitle(paper: Paper) -> str:
    """BibLaTeX's `subtitle`, as plain text ("" when none)."""
    return " ".join(tex_to_text(next((v for name, v in paper.bib_fields if name == "subtitle"), "")).split())


def bib_editors(paper: Paper, role: str = "editor") -> list[dict[str, str]]:
    """The entry's editors (or its translators, `role` "translator") as CSL names (pybtex's
    split of the field, TeX decoded; a corporate `{Name}` as one literal name)."""
    from pybtex.bibtex.utils import split_name_list
    from pybtex.database import Person

    from ..sources.bibquirks import corporate

    raw = next((value for name, value in paper.bib_fields if name == role), "")
    if not raw:
        return []
    names = []
    for one in split_name_list(raw):
        if one.strip().lower() == "others":
            continue
        person = Person(one)
        if corporate(person):
            names.append({"literal": " ".join(tex_to_text(one).split())})
            continue
        family = tex_to_text(" ".join(person.last_names))
        name = {"family": family} if family else {"literal": tex_to_text(one)}
        given = tex_to_text(" ".join(person.first_names + person.middle_names))
        if given and family:
            name["given"] = given
        particle = tex_to_text(" ".join(person.prelast_names))
        if particle and family:
            name["non-dropping-particle"] = particle
        names.append(name)
    return names
