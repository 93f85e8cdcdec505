"""BibTeX entries built as pybtex objects and written by pybtex's writer."""

from __future__ import annotations

from functools import lru_cache

from pybtex.database import BibliographyData, Entry, Person

from ..model import Paper
from .bibwriter import to_bibtex
from .text import plain_title

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


@lru_cache(maxsize=1 << 16)  # names recur across papers; parsing them is pybtex's slowest step
def _person(name: str) -> Person:
    words = name.split()
    if len(words) == 1:
        return Person(last=name)
    return Person(first=" ".join(words[:-1]), last=words[-1])


def make_entry(paper: Paper) -> Entry:
    fields: dict[str, str] = {"title": "{" + plain_title(paper.title) + "}"}
    if paper.year:
        fields["year"] = str(paper.year)
    if paper.url:
        fields["url"] = paper.url
    if paper.venue == "TMLR" and paper.status == "accepted":
        kind = "article"
        fields["journal"] = "Transactions on Machine Learning Research"
    else:
        kind = "misc"
    persons = {"author": [_person(a) for a in paper.authors] or [Person(last="Anonymous")]}
    if not paper.authors_complete:
        persons["author"].append(Person("others"))
    return Entry(kind, fields=fields, persons=persons)


def entry_text(paper: Paper) -> str:
    data = BibliographyData(entries={paper.key: make_entry(paper)})
    return to_bibtex(data).strip()


def bibliography(papers: list[Paper]) -> str:
    data = BibliographyData(entries={p.key: make_entry(p) for p in papers})
    return to_bibtex(data)
