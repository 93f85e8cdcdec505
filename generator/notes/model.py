"""What a curator's note says, after validation: plain frozen values the later stages read."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

STATUSES = ("to-read", "reading", "read", "skipped")
STATUS_LABELS = {"to-read": "To read", "reading": "Reading", "read": "Read", "skipped": "Skipped"}
FIELDS = ("status", "rating", "added", "tags", "remove_tags", "title", "year", "citekey", "hidden",
          "accept_warnings")


FOR, AGAINST = 1, -1


def signal_of(status: str | None, rating: int | None) -> int | None:
    """What a note says of its paper to the interest model: `rating: 4`-`5` or `status: read` /
    `reading` count FOR it, `rating: 1`-`2` or `status: skipped` AGAINST it (a rating wins over
    the status); else None."""
    if rating in (4, 5):
        return FOR
    if rating in (1, 2):
        return AGAINST
    if status in ("read", "reading"):
        return FOR
    if status == "skipped":
        return AGAINST
    return None


@dataclass(frozen=True)
class Note:
    """One file under content/notes/. Every field is optional; invalid ones were dropped with a warning."""

    path: str  # as shown in messages, relative to the project: content/notes/<stem>.md
    stem: str  # the citation key or slug the file is named by
    status: str | None = None
    rating: int | None = None
    added: dt.date | None = None
    tags: tuple[str, ...] = ()
    remove_tags: tuple[str, ...] = ()
    title: str | None = None
    year: int | None = None
    citekey: str | None = None
    hidden: bool = False
    # The curator has read the warnings about this paper's record and takes it as it is: they
    # are no longer reported (notes/apply.py), so `check --strict` passes.
    accept_warnings: bool = False
    body: str = ""
    body_line: int = 1  # line of the file where the body starts, for link warnings
    lines: tuple[tuple[str, int], ...] = ()  # front-matter key -> its line in the file
    broken: bool = False  # the front matter could not be parsed at all (its fields are missing)

    def line_of(self, key: str) -> int:
        return dict(self.lines).get(key, 1)

    def overrides(self) -> tuple[object, ...]:
        """The fields that change the model itself or the build's messages (not just the note section)."""
        return (self.title, self.year, self.citekey, self.tags, self.remove_tags, self.hidden, self.accept_warnings,
                self.signal)

    @property
    def signal(self) -> int | None:
        """For (1) or against (-1) the paper, or None: what the interest model learns from
        (enrich/interest.py); a change of it changes every paper's interest."""
        return signal_of(self.status, self.rating)

    @property
    def has_overrides(self) -> bool:
        return self.overrides() != (None, None, None, (), (), False, False, None)


@dataclass(frozen=True)
class Link:
    """A `[[target]]` or `[[target|label]]` in a note body, and what it resolved to."""

    target: str
    label: str | None
    line: int
    paper_id: str | None = None


@dataclass
class NoteIndex:
    """Every note, matched to its paper, with its wiki-links resolved (attached to the Library)."""

    by_paper: dict[str, Note] = field(default_factory=dict)
    orphans: list[Note] = field(default_factory=list)
    links: dict[str, tuple[Link, ...]] = field(default_factory=dict)  # note path -> its links
    mentions: dict[str, tuple[str, ...]] = field(default_factory=dict)  # paper id -> ids whose notes link to it
    stems: dict[str, str] = field(default_factory=dict)  # key or slug -> paper id, hidden papers too
    hidden: set[str] = field(default_factory=set)  # ids of papers a note hides
