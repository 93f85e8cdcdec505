"""Reader for the TMLR daily digest e-mail.

    Daily TMLR digest for Aug 08, 2025
    Accepted papers
    ===============
    Title: ...
    Authors: A, B        (absent for anonymous submissions)
    Abstract: ...        (continues over lines; each line a paragraph)
    URL: https://openreview.net/forum?id=XXXX
    ---
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from ..errors import Problems
from ..model import Paper, SourceRef
from .authors import parse_authors, warn_unsure
from .ids import openreview_id, record_id
from .records import LONG_TITLE, RawDigest, placeholder_title

FORMAT = "tmlr"
_HEADER = re.compile(r"^\s*Daily TMLR digest for (.+?)\s*$", re.I)
_FIELD = re.compile(r"^(Title|Authors|Abstract|URL):\s?(.*)$")
_RULE = re.compile(r"^=+\s*$")
_SEP = re.compile(r"^-{3,}\s*$")
_LINK = re.compile(r"^https?://[^\s<>\"'`{}]+$", re.I)


def detect(text: str) -> bool:
    head = text.lstrip()[:2000]
    return bool(_HEADER.match(head.split("\n", 1)[0])) or (
        "\nTitle: " in "\n" + head and "\nAbstract: " in head
    )


@dataclass
class _Record:
    line: int
    section: str
    fields: dict[str, str] = field(default_factory=dict)
    field_lines: dict[str, int] = field(default_factory=dict)
    abstract: list[str] = field(default_factory=list)


def _section_status(section: str) -> tuple[str, tuple[str, ...]]:
    low = section.lower()
    if "submission" in low or "under review" in low:
        return "under review", ()
    if low.startswith("accepted"):
        return "accepted", ()
    # Certification headings (`Featured Certification`, ...) only ever hold accepted papers.
    return "accepted", (section,)


def _parse_date(text: str) -> dt.date | None:
    for fmt in ("%b %d, %Y", "%B %d, %Y", "%d %b %Y", "%Y-%m-%d"):
        try:
            return dt.datetime.strptime(text.strip(), fmt).date()
        except ValueError:
            continue
    return None


def read(path: str, text: str, problems: Problems) -> RawDigest:
    return _Reader(path, text.split("\n"), problems).run()


def _is_heading(lines: list[str], i: int) -> bool:
    """Line `i` (0-based) is a section name underlined with `===`."""
    return bool(lines[i].strip()) and i + 1 < len(lines) and bool(_RULE.match(lines[i + 1].rstrip()))


class _Reader:
    """One pass over the lines; every odd line is either kept (as abstract text) or reported."""

    def __init__(self, path: str, lines: list[str], problems: Problems) -> None:
        self.path, self.lines, self.problems = path, lines, problems
        self.title = "TMLR digest"
        self.date: dt.date | None = None
        self.section = "Accepted papers"
        self.current: _Record | None = None
        self.in_abstract = False
        self.papers: list[Paper] = []
        self.stray: list[tuple[int, str]] = []  # a run of lines outside any field

    def run(self) -> RawDigest:
        i, lines = 0, self.lines
        while i < len(lines):
            no, line = i + 1, lines[i].rstrip()
            i += 1
            if not line.strip():
                continue
            m = _HEADER.match(line)
            if m and self.current is None and not self.papers:
                self._flush_stray()
                self.title = line.strip()
                self.date = _parse_date(m.group(1))
                if self.date is None:
                    self.problems.warn(self.path, no, f"cannot read the digest date {m.group(1)[:60]!r}")
                continue
            if _is_heading(lines, no - 1) and not self._open_abstract():
                self.finish()
                self._flush_stray()
                self.section = line.strip()[:200]
                i += 1  # the underline
                continue
            if _SEP.match(line):
                if self._open_abstract() and not self._record_follows(no):
                    self.problems.warn(self.path, no, "'---' inside an abstract (no 'URL:' yet and no "
                                       "'Title:' after it); kept as abstract text")
                    self._abstract_line(line)
                else:
                    self.finish()
                continue
            fm = _FIELD.match(line)
            if fm:
                if not self._field_is_text(no, fm.group(1), fm.group(2)):
                    self._field(no, fm.group(1), fm.group(2).strip())
                continue
            if self.in_abstract and self.current is not None:
                self._abstract_line(line)
            elif self.current is None and not self.papers and line.strip().upper() == "TMLR":
                continue  # the venue line under the header
            else:
                self.stray.append((no, line.strip()))
        self.finish()
        self._flush_stray()
        return RawDigest(self.path, FORMAT, self.title, self.date,
                         "digest header" if self.date else "", self.papers)

    def _open_abstract(self) -> bool:
        return self.in_abstract and self.current is not None and "URL" not in self.current.fields

    def _next_text(self, no: int) -> str:
        for k in range(no, len(self.lines)):  # by index: slicing would copy the rest of the file
            if self.lines[k].strip():
                return self.lines[k].rstrip()
        return ""

    def _record_follows(self, no: int) -> bool:
        """After line `no`: end of file, a new record, a section or another separator."""
        nxt = self._next_text(no)
        idx = next((k for k in range(no, len(self.lines)) if self.lines[k].strip()), None)
        return (not nxt or bool(_FIELD.match(nxt)) or bool(_SEP.match(nxt))
                or (idx is not None and _is_heading(self.lines, idx)))

    def _field_is_text(self, no: int, name: str, value: str) -> bool:
        """A `Name:` line inside an abstract that is prose, not the next field or record."""
        cur = self.current
        if not self._open_abstract() or cur is None:
            return False
        if name == "URL":
            if " " not in value.strip():
                return False
            what = "a line starting with 'URL:' that is not a link"
        elif name == "Title":
            if _FIELD.match(self._next_text(no)):
                return False  # a new record whose '---' is missing
            what = "a line starting with 'Title:'"
        elif name in cur.fields:
            what = f"a second '{name}:' line"
        else:
            return False
        self.problems.warn(self.path, no, f"{what} inside the abstract; kept as abstract text")
        self._abstract_line(f"{name}: {value}")
        return True

    def _field(self, no: int, name: str, value: str) -> None:
        self._flush_stray()
        cur = self.current
        if name == "Title" and cur is not None and "Title" in cur.fields:
            self.problems.warn(self.path, no, "'Title:' inside a record that already has one; "
                               "starting a new record (is a '---' separator missing?)")
            self.finish()
            cur = None
        if cur is None:
            cur = self.current = _Record(no, self.section)
        if name in cur.fields:
            self.problems.warn(self.path, no, f"duplicate '{name}:' field; keeping the first")
            self.in_abstract = False
            return
        cur.fields[name] = value
        cur.field_lines[name] = no
        self.in_abstract = name == "Abstract"
        if self.in_abstract and value:
            cur.abstract.append(value)

    def _abstract_line(self, line: str) -> None:
        assert self.current is not None
        self.current.abstract.append(line.strip())

    def finish(self) -> None:
        cur = self.current
        if cur is not None and (cur.fields or cur.abstract):
            self.papers.append(_paper(self.path, cur, self.date, self.problems))
        self.current, self.in_abstract = None, False

    def _flush_stray(self) -> None:
        if not self.stray:
            return
        (first_no, first), (last_no, _) = self.stray[0], self.stray[-1]
        more = (f" (and {len(self.stray) - 1} more such lines, up to line {last_no})"
                if len(self.stray) > 1 else "")
        self.problems.warn(self.path, first_no, f"unexpected line outside a field: {first[:60]!r}{more}")
        self.stray = []


def _paper(path: str, rec: _Record, date: dt.date | None, problems: Problems) -> Paper:
    status, labels = _section_status(rec.section)
    authors = parse_authors(rec.fields.get("Authors", ""))
    warn_unsure(authors, path, rec.field_lines.get("Authors", rec.line), problems)
    abstract = "\n\n".join(" ".join(p.split()) for p in rec.abstract)
    url = rec.fields.get("URL") or None
    if url is not None and not _LINK.match(url):
        problems.warn(path, rec.field_lines["URL"], f"'URL:' is not an http(s) link; ignored: {url[:60]!r}")
        url = ""
    title = " ".join(rec.fields.get("Title", "").split())
    missing = not title
    if missing:
        title = placeholder_title(authors.names, abstract)
        problems.warn(path, rec.line, f"record has no 'Title:'; using the placeholder {title!r}")
    if not abstract:
        problems.warn(path, rec.field_lines.get("Title", rec.line), "record has no abstract")
    if url is None:
        problems.warn(path, rec.field_lines.get("Title", rec.line), "record has no 'URL:'")
    url = url or None
    if len(title) > LONG_TITLE:
        problems.warn(path, rec.field_lines.get("Title", rec.line),
                      f"title is {len(title)} characters long (is a line break missing?)")
    orid = openreview_id(url)
    pid = record_id(title, abstract, openreview=orid, missing_title=missing)
    return Paper(
        id=pid,
        title=title,
        authors=authors.names,
        authors_complete=authors.complete,
        abstract=abstract,
        origin=SourceRef(path, rec.line),
        url=url,
        venue="TMLR",
        status=status,
        labels=labels,
        title_missing=missing,
        openreview_id=orid,
        date=date,
        sources=(SourceRef(path, rec.line),),
        aliases=(pid,),
    )
