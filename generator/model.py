"""The typed, frozen model every later stage reads.

Readers produce `Paper` records with their source location; `enrich` returns new
`Paper` values (via `evolve`, a fast `dataclasses.replace`) with keys, slugs, tags and
related papers filled in, so each stage's output is a plain value that can be tested.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, fields
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from .notes.model import NoteIndex

STATUSES = ("accepted", "under review", "preprint")

_Record = TypeVar("_Record")


def evolve(record: _Record, **changes: Any) -> _Record:
    """`dataclasses.replace(record, **changes)` for the records below, about twenty times faster:
    the copy starts from the old record's fields instead of going through `__init__` (ten
    thousand papers are copied several times per build). None of them has a `__post_init__` or
    `__slots__`, so the result is the same record."""
    kind: type = type(record)
    unknown = changes.keys() - _field_names(kind)
    if unknown:
        raise TypeError(f"{kind.__name__} has no field {sorted(unknown)[0]!r}")
    new: _Record = object.__new__(kind)
    state = new.__dict__
    state.update(record.__dict__)
    state.update(changes)
    return new


@cache
def _field_names(kind: type) -> frozenset[str]:
    return frozenset(f.name for f in fields(kind))


@dataclass(frozen=True)
class SourceRef:
    """Where a record came from: the digest file (relative to the project) and its first line."""

    path: str
    line: int

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class Related:
    """A link to a similar paper, with the score and the human-readable reason."""

    id: str
    score: float
    why: str


def new_related(pid: str, score: float, why: str) -> Related:
    """`Related(pid, score, why)`, made without `__init__` (fifty thousand of them per build)."""
    link: Related = object.__new__(Related)
    state = link.__dict__
    state["id"], state["score"], state["why"] = pid, score, why
    return link


@dataclass(frozen=True)
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
    # Filled in by enrich:
    key: str = ""
    slug: str = ""
    tags: tuple[str, ...] = ()
    related: tuple[Related, ...] = ()
    # A note's front matter may correct the year (the digest date is when it was listed).
    year_override: int | None = None
    # The curator's BibTeX spelling of each author (`content/names.yml`); "" = automatic.
    bib_names: tuple[str, ...] = ()

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

    def by_id(self) -> dict[str, Paper]:
        return {p.id: p for p in self.papers}
