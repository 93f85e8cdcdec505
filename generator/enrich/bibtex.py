"""BibTeX entries built as pybtex objects and written by pybtex's writer."""

from __future__ import annotations

from pybtex.database import BibliographyData, Entry, Person

from ..model import Paper
from .text import balance_braces, bibtex_name, plain_title

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _person(name: str) -> Person:
    words = name.split()
    if len(words) == 1:
        return Person(last=name)
    return Person(first=" ".join(words[:-1]), last=words[-1])


def make_entry(paper: Paper) -> Entry:
    # Digest text is untrusted: braces are balanced so a crafted title cannot end the field.
    fields: dict[str, str] = {"title": "{" + balance_braces(plain_title(paper.title)) + "}"}
    if paper.year:
        fields["year"] = str(paper.year)
    if paper.url:
        fields["url"] = paper.url.replace("{", "%7B").replace("}", "%7D")
    if paper.venue == "TMLR" and paper.status == "accepted":
        kind = "article"
        fields["journal"] = "Transactions on Machine Learning Research"
    else:
        kind = "misc"
    names = [bibtex_name(a) for a in paper.authors]
    persons = {"author": [_person(n) for n in names if n] or [Person(last="Anonymous")]}
    if not paper.authors_complete:
        persons["author"].append(Person("others"))
    return Entry(kind, fields=fields, persons=persons)


def entry_text(paper: Paper) -> str:
    data = BibliographyData(entries={paper.key: make_entry(paper)})
    return str(data.to_string("bibtex")).strip()


def bibliography(papers: list[Paper]) -> str:
    data = BibliographyData(entries={p.key: make_entry(p) for p in papers})
    return str(data.to_string("bibtex"))
