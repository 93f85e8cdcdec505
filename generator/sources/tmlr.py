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
from .authors import parse_authors
from .common import RawDigest, openreview_id, placeholder_title, record_id

FORMAT = "tmlr"
_HEADER = re.compile(r"^\s*Daily TMLR digest for (.+?)\s*$", re.I)
_FIELD = re.compile(r"^(Title|Authors|Abstract|URL):\s?(.*)$")
_RULE = re.compile(r"^=+\s*$")
_SEP = re.compile(r"^-{3,}\s*$")


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
    lines = text.split("\n")
    title = "TMLR digest"
    date: dt.date | None = None
    records: list[_Record] = []
    section = "Accepted papers"
    current: _Record | None = None
    in_abstract = False

    def finish() -> None:
        nonlocal current, in_abstract
        if current is not None and (current.fields or current.abstract):
            records.append(current)
        current, in_abstract = None, False

    for no, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        m = _HEADER.match(line)
        if m and current is None:
            title = line.strip()
            date = _parse_date(m.group(1))
            if date is None:
                problems.warn(path, no, f"cannot read the digest date {m.group(1)!r}")
            continue
        if _RULE.match(line) and no > 1 and lines[no - 2].strip():
            finish()
            section = lines[no - 2].strip()
            continue
        if no < len(lines) and _RULE.match(lines[no].rstrip()) and line.strip():
            continue  # a section heading; handled on its underline
        if _SEP.match(line):
            finish()
            continue
        fm = _FIELD.match(line)
        if fm:
            name, value = fm.group(1), fm.group(2).strip()
            if name == "Title" and current is not None and "Title" in current.fields:
                problems.warn(path, no, "'Title:' inside a record that already has one; "
                              "starting a new record (is a '---' separator missing?)")
                finish()
            if current is None:
                current = _Record(no, section)
            if name in current.fields:
                problems.warn(path, no, f"duplicate '{name}:' field; keeping the first")
                continue
            current.fields[name] = value
            current.field_lines[name] = no
            in_abstract = name == "Abstract"
            if in_abstract and value:
                current.abstract.append(value)
            continue
        if not line.strip():
            continue
        if in_abstract and current is not None:
            current.abstract.append(line.strip())
        elif current is None and line.strip().upper() == "TMLR":
            continue  # the venue line under the header
        else:
            problems.warn(path, no, f"unexpected line outside a field: {line.strip()[:60]!r}")
    finish()
    return RawDigest(path, FORMAT, title, date, "digest header" if date else "",
                     [_paper(path, r, date, problems) for r in records])


def _paper(path: str, rec: _Record, date: dt.date | None, problems: Problems) -> Paper:
    status, labels = _section_status(rec.section)
    authors = parse_authors(rec.fields.get("Authors", ""))
    abstract = "\n\n".join(" ".join(p.split()) for p in rec.abstract)
    url = rec.fields.get("URL") or None
    title = " ".join(rec.fields.get("Title", "").split())
    missing = not title
    if missing:
        title = placeholder_title(authors.names, abstract)
        problems.warn(path, rec.line, f"record has no 'Title:'; using the placeholder {title!r}")
    if not abstract:
        problems.warn(path, rec.field_lines.get("Title", rec.line), "record has no abstract")
    if url is None:
        problems.warn(path, rec.field_lines.get("Title", rec.line), "record has no 'URL:'")
    orid = openreview_id(url)
    return Paper(
        id=record_id(title, abstract, openreview=orid, missing_title=missing),
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
    )
