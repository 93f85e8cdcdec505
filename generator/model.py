"""The typed, frozen model every later stage reads.

Readers produce `Paper` records with their source location; `enrich` returns new
`Paper` values (via `evolve`, a fast `dataclasses.replace`) with keys, slugs, tags and
related papers filled in, so each stage's output is a plain value that can be tested.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from functools import cache
from operator import attrgetter
from types import MemberDescriptorType
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from .notes.model import NoteIndex

# `published`: an arXiv paper whose record gives a journal reference or a publisher's DOI.
STATUSES = ("accepted", "published", "under review", "preprint")

_Record = TypeVar("_Record")


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


def evolve(record: _Record, **changes: Any) -> _Record:
    """`dataclasses.replace(record, **changes)` for the records below, several times faster: the
    copy takes the old record's fields in one call (`attrgetter`) and sets each through its slot
    without going through `__init__` (ten thousand papers are copied several times per build).
    None of them has a `__post_init__`, so the result is the same record."""
    kind: type = type(record)
    index, values, _ = _fields_of(kind)
    state = list(values(record))
    for name, value in changes.items():
        at = index.get(name)
        if at is None:
            raise TypeError(f"{kind.__name__} has no field {name!r}")
        state[at] = value
    new: _Record = _filled(kind, state)
    return new


def _filled(kind: type, values: Sequence[Any]) -> Any:
    """A new `kind` holding `values`, its fields' values in order, set without `__init__`."""
    new: Any = object.__new__(kind)
    for put, value in zip(_fields_of(kind)[2], values, strict=True):
        put(new, value)
    return new


# Frozen records are set as `__init__` sets them (their own setattr refuses).
_set = object.__setattr__
Setter = Callable[[Any, Any], None]


@cache
def _fields_of(kind: type) -> tuple[dict[str, int], Callable[[Any], tuple[Any, ...]], tuple[Setter, ...]]:
    """(field -> its place, all the fields' values in one call, each field's setter)."""
    names = tuple(f.name for f in fields(kind))
    values = attrgetter(*names) if len(names) > 1 else lambda record: (getattr(record, names[0]),)
    return {name: i for i, name in enumerate(names)}, values, tuple(_setter(kind, name) for name in names)


def _setter(kind: type, name: str) -> Setter:
    slot = kind.__dict__.get(name)
    if type(slot) is MemberDescriptorType:
        return slot.__set__  # type: ignore[no-any-return]
    return lambda record, value: _set(record, name, value)


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


def new_related(pid: str, score: float, why: str) -> Related:
    """`Related(pid, score, why)`, made without `__init__` (fifty thousand of them per build)."""
    link: Related = object.__new__(Related)
    _RELATED_ID(link, pid)
    _RELATED_SCORE(link, score)
    _RELATED_WHY(link, why)
    return link


# Each field's setter (a slot's descriptor): new_related sets three, fifty thousand times a build.
_RELATED_ID, _RELATED_SCORE, _RELATED_WHY = _fields_of(Related)[2]


# Papers, their links and source locations have slots, not a dict: the render reads their fields
# a few million times a build (a slot is read in a fifth of the time of a dict entry), and each
# is a fifth of the memory.
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
    # The ids of the records merged into this one (enrich/merge.py), its own first.
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

    def by_id(self) -> dict[str, Paper]:
        return {p.id: p for p in self.papers}
