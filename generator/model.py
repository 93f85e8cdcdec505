"""The typed, frozen model every later stage reads.

Readers produce `Paper` records with their source location; `enrich` returns new
`Paper` values (via `dataclasses.replace`) with keys, slugs, tags and
related papers filled in, so each stage's output is a plain value that can be tested.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .errors import count

if TYPE_CHECKING:
    from .notes.model import NoteIndex

# `published`: an arXiv paper whose record gives a journal reference or a publisher's DOI.
STATUSES = ("accepted", "published", "under review", "preprint")


def short_authors(authors: Sequence[str], complete: bool = True) -> str:
    """The byline of lists and related papers: `A`, `A and B`; `A et al.` from three authors on,
    or when the digest cut the list (`et al.` never stands for one name that could be shown)."""
    if not authors:
        return "Anonymous"
    if len(authors) == 1 and complete:
        return authors[0]
    if len(authors) == 2 and complete:
        return f"{authors[0]} and {authors[1]}"
    return f"{authors[0]} et al."


@dataclass(frozen=True, slots=True)
class SourceRef:
    """Where a record came from: the digest file (relative to the project) and its first line."""

    path: str
    line: int

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True, slots=True)
class Related:
    """A link to a similar paper, with the score and the human-readable reason."""

    id: str
    score: float
    why: str


# Papers, their links and source locations have slots, not a dict: a record has exactly its
# fields (a misspelt attribute is an error, not a new field) and takes less memory per paper.
@dataclass(frozen=True, slots=True)
class Paper:
    id: str
    title: str
    authors: tuple[str, ...]
    abstract: str
    origin: SourceRef
    url: str | None = None
    venue: str = ""
    status: str = "preprint"
    authors_complete: bool = True
    title_missing: bool = False
    labels: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    cross_listed_from: str | None = None
    openreview_id: str | None = None
    arxiv_id: str | None = None
    doi: str | None = None
    date: dt.date | None = None
    sources: tuple[SourceRef, ...] = ()
    # What arXiv announcements carry (sources/arxiv_*.py): the journal reference and comments as
    # given, and whether the record announced a new version of a paper (a replacement).
    journal_ref: str = ""
    comments: str = ""
    replacement: bool = False
    # A paper read from a .bib file (sources/bibfile.py): its key there, its entry type and its
    # fields as written (raw TeX, in file order), which the site's BibTeX keeps.
    bib_key: str = ""
    bib_type: str = ""
    bib_fields: tuple[tuple[str, str], ...] = ()
    # The ids of the records merged into this one (enrich/merge.py), its own first; a record as a
    # reader makes it (sources/) holds its own id.
    aliases: tuple[str, ...] = ()
    # Filled in by enrich:
    key: str = ""
    slug: str = ""
    tags: tuple[str, ...] = ()
    related: tuple[Related, ...] = ()
    # A note's front matter may correct the year (the digest date is when it was listed).
    year_override: int | None = None
    # The curator's BibTeX spelling of each author (`content/names.yml`); "" = automatic.
    bib_names: tuple[str, ...] = ()
    # The BibTeX entry (enrich/bibtex), written once the notes are applied (a note may retitle).
    bibtex: str = ""
    # How much it is like the papers the curator read (0 to 1, two places) and why, in a few
    # words (enrich/interest.py).
    interest: float = 0.0
    why: str = ""

    @property
    def year(self) -> int | None:
        if self.year_override is not None:
            return self.year_override
        return self.date.year if self.date else None

    @property
    def anonymous(self) -> bool:
        return not self.authors

    @property
    def first_author(self) -> str:
        return self.authors[0] if self.authors else "Anonymous"

    @property
    def short_authors(self) -> str:
        """`A`, `A and B` or `A et al.` (see `short_authors`)."""
        return short_authors(self.authors, self.authors_complete)

    @property
    def page(self) -> str:
        """URL of the paper page relative to the site root."""
        return f"papers/{self.slug}/"


@dataclass(frozen=True)
class Digest:
    """One input file and what it held, in order."""

    path: str
    format: str
    title: str
    date: dt.date | None
    date_source: str
    paper_ids: tuple[str, ...] = ()
    slug: str = ""

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class DigestCount:
    """What the keep rules did to one digest: its papers, how many each rule kept, how many a
    note kept, and how many were left out."""

    path: str
    papers: int
    kept: int
    by_rule: tuple[tuple[int, int], ...]  # (rule number, papers it kept)
    by_note: int = 0

    @property
    def left_out(self) -> int:
        return self.papers - self.kept

    def line(self) -> str:
        """`seeds/x.txt: 340 papers, 28 kept by your keep rules, 312 left out (rule 1: 20, rule 2: 8)`."""
        detail = [f"rule {n}: {k}" for n, k in self.by_rule]
        if self.by_note:
            detail.append(count(self.by_note, "note"))
        return (f"{self.path}: {count(self.papers, 'paper')}, {self.kept} kept by your keep rules, "
                f"{self.left_out} left out" + (f" ({', '.join(detail)})" if detail else ""))


@dataclass
class Library:
    """Everything collected before rendering: the whole model the pages need."""

    papers: list[Paper] = field(default_factory=list)
    digests: list[Digest] = field(default_factory=list)
    notes: NoteIndex | None = None  # the curator's notes, attached after enrich
    # The topic taxonomy as (name, description), in the curator's order (tag pages, map legend).
    topics: tuple[tuple[str, str], ...] = ()
    # Tags the curator gave in notes that are no topic of the taxonomy, as first spelled.
    own_tags: tuple[str, ...] = ()
    # arXiv replacements of papers the list does not have, left out (enrich/merge.py).
    skipped_replacements: int = 0
    # What the keep rules (extra.readinglist.keep) did to each digest they apply to (keep.py).
    keep_counts: tuple[DigestCount, ...] = ()
    # Whether the papers' interest was learned from the notes' signals (False: the topics' fallback).
    interest_learned: bool = False

    def by_id(self) -> dict[str, Paper]:
        return {p.id: p for p in self.papers}
