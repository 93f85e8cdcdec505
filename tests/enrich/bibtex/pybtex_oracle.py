"""pybtex as the oracle of the generator's BibTeX.

The generator writes each entry itself (`bibtex.block`, names by `bibtex.bib_name`): building
pybtex's `Entry`, its `Person`s and `BibliographyData` was half the time of an entry, ten
thousand times a build. Here the same entry is built as those objects, from the paper's type
and fields (`bibtex.kind_and_fields`) and its authors as `Person`s, and written by pybtex's own
BibTeX writer: the tests compare the two texts byte for byte. `read_back` is the other
direction: what pybtex reads from the text the generator wrote.
"""

from __future__ import annotations

from typing import Any

from pybtex.bibtex.utils import split_name_list
from pybtex.database import BibliographyData, Entry, Person, parse_string
from pybtex.database.output.bibtex import Writer

from generator.enrich import bibtex
from generator.enrich.bibtex.names import to_person
from generator.model import Paper


class LatexWriter(Writer):  # type: ignore[misc]
    """pybtex's BibTeX writer for values that already are LaTeX (as the generator's are):
    not encoded again (that would turn `\\&` into `\\\\&`), quoted in braces as most .bib
    files are, and months as the standard macros (`month = aug`), which bibtex prints as
    "August" and biber reads as 8."""

    def _encode(self, text: str) -> str:
        return text

    def quote(self, s: str) -> str:
        self.check_braces(s)
        return "{" + s + "}"

    def _write_field(self, stream: Any, type: str, value: str) -> None:
        if type == "month" and value in bibtex.MONTHS:
            stream.write(f",\n    {type} = {value}")
        else:
            super()._write_field(stream, type, value)


def people(paper: Paper) -> list[Person]:
    """The entry's authors as pybtex persons: an entry read from a .bib file keeps its own
    names; others are `to_person` of each name (with the curator's spelling), `Anonymous` for
    none, `others` after a truncated list."""
    if paper.bib_fields:
        return [Person(name) for raw in bibtex.author_names(paper) for name in split_name_list(raw)]
    spelled = paper.bib_names or ("",) * len(paper.authors)
    persons = [to_person(a, o) for a, o in zip(paper.authors, spelled, strict=False)] or [Person(last="Anonymous")]
    if paper.authors and not paper.authors_complete:
        persons.append(Person(last="others"))
    return persons


def pybtex_entry(paper: Paper) -> Entry:
    kind, fields = bibtex.kind_and_fields(paper)
    return Entry(kind, fields=fields, persons={"author": people(paper)})


def pybtex_text(papers: list[Paper]) -> str:
    """What pybtex writes for the papers' entries, under their keys, as one .bib file."""
    data = BibliographyData(entries={p.key: pybtex_entry(p) for p in papers})
    return str(LatexWriter(encoding="UTF-8").to_string(data))


def written_name(person: Person) -> str:
    """A name as pybtex's writer writes it in an `author` field (`von Last, Jr, First`)."""
    return str(LatexWriter(encoding="UTF-8")._format_name(None, person))


def read_back(paper: Paper) -> Entry:
    """The paper's entry as pybtex reads it from the text the generator writes (`bibtex.block`):
    its type, its fields (a month macro read as the month's name: `aug` is "August") and its
    authors as persons. A paper read but not yet given its key (by enrich) is written under
    `unkeyed`."""
    [entry] = parse_string(bibtex.block(paper, paper.key or "unkeyed"), "bibtex").entries.values()
    return entry
