"""Reader for text copied from a paper-listing page (arXiv-style subject listings).

Each record:

    Machine Learning · Cross-listed from cs.CL      (subject line)
    Title of the paper                              (sometimes missing)
    A, B, C et al. (+2 more)                        (authors)
    abstract broken over many short lines ...
    Read the full abstract ▾
    All authors A, B, C, D, E                       (optional, replaces the truncated list)
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from itertools import compress

from ..errors import Problems
from ..model import Paper, SourceRef
from .authors import AuthorList, looks_like_author_line, parse_authors, warn_unsure
from .ids import record_id
from .records import LONG_TITLE, RawDigest, placeholder_title
from .rejoin import rejoin
from .subjects import SUBJECT_NAME, parse_subject

FORMAT = "listing"
_MORE = re.compile(r"^\s*Read the full abstract\s*[▾▼v]?\s*$")
_ALL = re.compile(r"^\s*All authors\s+(.+?)\s*$")


def detect(text: str) -> bool:
    # (Splitting off the first 400 lines only: the whole of a 100 KB digest is split once, by read.)
    lines = [ln for ln in text.split("\n", 400)[:400] if ln.strip()]
    if any(_MORE.match(ln) for ln in lines):
        return True
    return bool(lines) and parse_subject(lines[0]) is not None and len(lines) > 3


@dataclass
class _Record:
    line: int
    subject: tuple[str, str | None]
    title: str = ""
    title_line: int = 0
    authors: AuthorList = field(default_factory=lambda: AuthorList((), True))
    abstract: list[str] = field(default_factory=list)
    closed: bool = False
    empty: bool = False


class _Lines(list[str]):
    """The lines of a digest, and which of them can matter to the reader beyond being text.

    Nearly every line is abstract text. The few that may be something else (a subject line,
    `Read the full abstract`, `All authors`) are found first, in C (one match of the subject
    names per line, a search of the whole text for the words), so the reader looks only at those
    and takes the runs of text between them whole.
    """

    def __init__(self, text: str) -> None:
        super().__init__(text.split("\n"))
        marked = set(compress(range(len(self)), map(SUBJECT_NAME.match, self)))
        marked.update(_lines_with(text, ("Cross-listed", "Read the full abstract", "All authors")))
        self.marked = sorted(marked)
        # parse_subject of every line that can be a subject line; any other line is not one.
        self.subjects = {i: parse_subject(self[i]) for i in self.marked}

    def subject(self, i: int) -> tuple[str, str | None] | None:
        return self.subjects.get(i)

    def next_marked(self, i: int) -> int:
        """The first marked line at or after `i` (the number of lines if there is none)."""
        k = bisect_left(self.marked, i)
        return self.marked[k] if k < len(self.marked) else len(self)


def _lines_with(text: str, words: tuple[str, ...]) -> list[int]:
    """The lines (0-based) of `text` that hold one of `words` (none holds a line break): each word
    found by searching the whole text, and its place counted to its line, rather than every line
    searched for every word (the words are on a few lines in a hundred)."""
    found: list[int] = []
    for word in words:
        at = text.find(word)
        while at >= 0:
            found.append(at)
            at = text.find(word, at + len(word))
    found.sort()
    lines: list[int] = []
    line = last = 0
    for at in found:
        line += text.count("\n", last, at)
        last = at
        lines.append(line)
    return lines


def _starts_record(lines: _Lines, i: int) -> bool:
    """A subject line that is followed by a title/author pair, not a keyword inside an abstract."""
    if lines.subject(i) is None:
        return False
    after = [ln for ln in lines[i + 1 : i + 4] if ln.strip()]
    return any(looks_like_author_line(ln) for ln in after[:2])


def read(path: str, text: str, problems: Problems) -> RawDigest:
    lines = _Lines(text)
    records: list[_Record] = []
    i, n = 0, len(lines)
    stray: list[int] = []
    while i < n:
        line = lines[i]
        subject = lines.subject(i) if line.strip() else None
        if subject is None:
            if line.strip():
                stray.append(i)
            i += 1
            continue
        _report_stray(path, lines, stray, problems)
        stray = []
        rec = _Record(i + 1, subject)
        i = _read_head(lines, i + 1, rec, path, problems)
        if rec.empty:
            if i < n and _MORE.match(lines[i]):
                i += 1
            continue
        i = _read_body(lines, i, rec, path, problems)
        records.append(rec)
    _report_stray(path, lines, stray, problems)
    return RawDigest(path, FORMAT, _digest_title(path), None, "",
                     [_paper(path, r, problems) for r in records])


def _report_stray(path: str, lines: list[str], stray: list[int], problems: Problems) -> None:
    """One message for a run of lines that belong to no record (a paste of a whole page)."""
    if not stray:
        return
    more = f" (and {len(stray) - 1} more such lines, up to line {stray[-1] + 1})" if len(stray) > 1 else ""
    problems.warn(path, stray[0] + 1, f"line outside any record (expected a subject line "
                  f"such as 'Machine Learning'): {lines[stray[0]].strip()[:60]!r}{more}")


def _next_nonblank(lines: list[str], i: int) -> int:
    while i < len(lines) and not lines[i].strip():
        i += 1
    return i


def _read_head(lines: _Lines, i: int, rec: _Record, path: str, problems: Problems) -> int:
    n = len(lines)
    a = _next_nonblank(lines, i)
    if a >= n or _MORE.match(lines[a]) or _starts_record(lines, a):
        problems.warn(path, rec.line, "record has nothing after its subject line (no title, "
                      "authors or abstract); skipped")
        rec.empty = True
        return a
    b = _next_nonblank(lines, a + 1)
    first = lines[a]
    second = lines[b] if b < n and not _MORE.match(lines[b]) and not _starts_record(lines, b) else ""
    if not second:
        b = a  # the body (or the next record) starts right after the title
    if looks_like_author_line(first) and not looks_like_author_line(second):
        rec.authors = parse_authors(first)
        warn_unsure(rec.authors, path, a + 1, problems)
        rec.title_line = a + 1
        problems.warn(path, a + 1, "record has no title line (the line after the subject is "
                      "the author list); using a placeholder title")
        return a + 1
    rec.title, rec.title_line = " ".join(first.split()), a + 1
    rec.authors = parse_authors(second)
    warn_unsure(rec.authors, path, b + 1, problems)
    if not rec.authors.names:
        problems.warn(path, rec.title_line, "record has no author line")
    return b + 1


def _read_body(lines: _Lines, i: int, rec: _Record, path: str, problems: Problems) -> int:
    n = len(lines)
    while i < n:
        # Up to the next marked line every line is abstract text (see _Lines).
        mark = lines.next_marked(i)
        if mark > i:
            rec.abstract.extend(lines[i:mark])
            i = mark
            continue
        line = lines[i]
        if "Read the full abstract" in line and _MORE.match(line):
            rec.closed = True
            i += 1
            j = _next_nonblank(lines, i)
            m = _ALL.match(lines[j]) if j < n else None
            if m:
                _apply_all_authors(rec, parse_authors(m.group(1)), path, j + 1, problems)
                i = j + 1
            break
        if "All authors" in line and _ALL.match(line) and rec.abstract:
            problems.warn(path, i + 1, "'All authors' line before 'Read the full abstract'")
            m = _ALL.match(line)
            assert m is not None
            _apply_all_authors(rec, parse_authors(m.group(1)), path, i + 1, problems)
            return i + 1
        if _starts_record(lines, i) or (lines.subject(i) and _next_nonblank(lines, i + 1) >= n):
            break  # the next record (or one cut off right after its subject line)
        rec.abstract.append(line)
        i += 1
    if not rec.closed:
        problems.warn(path, rec.line, "record ends without 'Read the full abstract ▾'; "
                      "the abstract may be cut short")
    if not "".join(rec.abstract).strip():
        problems.warn(path, rec.line, "record has no abstract")
    return i


def _apply_all_authors(rec: _Record, full: AuthorList, path: str, line: int,
                       problems: Problems) -> None:
    shown = rec.authors.names
    if tuple(full.names[: len(shown)]) != tuple(shown):
        problems.warn(path, line, "'All authors' does not start with the authors shown above; "
                      "using the full list")
    warn_unsure(full, path, line, problems)
    rec.authors = AuthorList(full.names, True, affiliations=full.affiliations)


def _digest_title(path: str) -> str:
    return "Listing " + path.rsplit("/", 1)[-1].rsplit(".", 1)[0]


def _paper(path: str, rec: _Record, problems: Problems) -> Paper:
    listed, cross = rec.subject
    abstract = rejoin(rec.abstract)
    title = rec.title or placeholder_title(rec.authors.names, abstract)
    if len(rec.title) > LONG_TITLE:
        problems.warn(path, rec.title_line, f"title is {len(rec.title)} characters long (is a line break missing?)")
    primary = cross or listed
    categories = (primary,) + ((listed,) if cross and listed != cross else ())
    # An arXiv id or DOI inside an abstract names a cited work, not this paper.
    pid = record_id(title, abstract, missing_title=not rec.title)
    return Paper(
        id=pid,
        title=title,
        authors=rec.authors.names,
        authors_complete=rec.authors.complete,
        abstract=abstract,
        origin=SourceRef(path, rec.line),
        url=None,
        venue="arXiv",
        status="preprint",
        title_missing=not rec.title,
        categories=categories,
        cross_listed_from=cross,
        sources=(SourceRef(path, rec.line),),
        aliases=(pid,),
    )
