"""Reader for arXiv's subject-class mailing lists (the daily cs or cs.LG e-mail).

    Submissions to:
    Machine Learning
     received from  Fri  9 Jun 23 18:00:00 GMT  to  Mon 12 Jun 23 18:00:00 GMT
    ------------------------------------------------------------------------------
    \\\\
    arXiv:2306.06130                       (or `arXiv:2211.06617 (*cross-listing*)`)
    Date: Fri, 9 Jun 2023 17:59:58 GMT   (4711kb,D)      (or `replaced with revised version ...`)

    Title: ...                             (fields wrap onto indented lines)
    Authors: A, B, and C
    Categories: cs.LG cs.AI
    Comments: / Journal-ref: / DOI: / Report-no: / ACM-class: / MSC-class:   (optional)
    \\\\
      The abstract, over lines; an indented line after a sentence starts a paragraph.
    \\\\ ( https://arxiv.org/abs/2306.06130 ,  4711kb)

Sections are marked by lines of `%-%-` (cross-lists), `%%--%%` (replacements) and `%%%---%%%`
(the end). A file may be a part of an e-mail: records are found wherever they start. Text pasted
from a web mail page indents with no-break spaces; they count as spaces. TeX in the fields is
decoded (sources/tex.py).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from ..errors import Problems
from ..model import Paper, SourceRef
from .authors import parse_authors, warn_unsure
from .ids import arxiv_id, doi
from .records import RawDigest, arxiv_paper
from .tex import tex_paragraphs, tex_title, tex_to_text

FORMAT = "arxiv-email"
_START = re.compile(r"^\\\\\s*$")
_ID_LINE = re.compile(r"^arXiv:(\S+)\s*(\(\*cross-listing\*\))?\s*$")
_END_LINK = re.compile(r"^\\\\\s*\(\s*(https?://arxiv\.org/abs/\S+)\s*,")
_FIELD = re.compile(r"^([A-Z][A-Za-z-]+):\s?(.*)$")
_RECEIVED = re.compile(r"received from\s+.+?\s+to\s+\w{3}\s+(\d{1,2})\s+(\w{3})\s+(\d{2,4})", re.I)
_RULE = re.compile(r"^-{20,}\s*$")
_CROSS = re.compile(r"^(%-){10,}")
_REPLACED = re.compile(r"^(%%--){5,}")
_END = re.compile(r"^(%%%---){3,}")
_FIELDS = {"Title", "Authors", "Categories", "Comments", "Journal-ref", "DOI", "Report-no", "ACM-class",
           "MSC-class", "Date"}


def detect(text: str) -> bool:
    head = text[:20000]
    # Each record starts after a line `\\`: a text without one (every other digest) is not looked
    # at line by line (the search tries each of its 20,000 first characters).
    if "\\\\" not in head:
        return False
    head = head.replace("\u00a0", " ")
    return bool(re.search(r"(?m)^\\\\\s*\n\s*arXiv:\d{4}\.\d{4,5}|^\\\\\s*\n\s*arXiv:[a-z-]+(\.[A-Z]{2})?/\d{7}",
                          head))


@dataclass
class _Record:
    line: int
    ident: str
    cross: bool
    section: str
    replaced: bool = False
    fields: dict[str, str] = field(default_factory=dict)
    field_lines: dict[str, int] = field(default_factory=dict)
    abstract: list[str] = field(default_factory=list)
    link: str = ""
    closed: bool = False


def _digest_date(text: str) -> dt.date | None:
    m = _RECEIVED.search(text[:5000])
    if not m:
        return None
    day, month, year = m.groups()
    year = year if len(year) == 4 else "20" + year
    try:
        return dt.datetime.strptime(f"{day} {month} {year}", "%d %b %Y").date()
    except ValueError:
        return None


def _records(lines: list[str], path: str, problems: Problems) -> list[_Record]:
    out: list[_Record] = []
    section = "new"
    rec: _Record | None = None
    part = "fields"  # of the current record: fields, then the abstract
    last_field = ""
    for n, raw in enumerate(lines, start=1):
        line = raw.replace("\u00a0", " ").rstrip()
        if _END.match(line) or _REPLACED.match(line) or _CROSS.match(line) or _RULE.match(line):
            _close(rec, path, problems)
            rec = None
            if _CROSS.match(line):
                section = "cross"
            elif _REPLACED.match(line):
                section = "replace"
            elif _END.match(line):
                section = "end"
            continue
        if _START.match(line) and n < len(lines) and _ID_LINE.match(lines[n].replace("\u00a0", " ").strip()):
            _close(rec, path, problems)
            m = _ID_LINE.match(lines[n].replace("\u00a0", " ").strip())
            assert m is not None
            rec = _Record(n, m.group(1), bool(m.group(2)), section)
            out.append(rec)
            part, last_field = "id", ""
            continue
        if rec is None or rec.closed:
            continue
        if part == "id":  # the arXiv: line itself
            part = "fields"
            continue
        end = _END_LINK.match(line)
        if end:
            rec.link, rec.closed = end.group(1), True
            continue
        if part == "fields":
            if _START.match(line):
                part = "abstract"
                continue
            if line.startswith("replaced with revised version"):
                rec.replaced = True
                continue
            m = _FIELD.match(line)
            if m and m.group(1) in _FIELDS:
                last_field = m.group(1)
                rec.fields[last_field] = m.group(2).strip()
                rec.field_lines[last_field] = n
            elif line[:1] == " " and last_field:
                rec.fields[last_field] += " " + line.strip()
            elif line.strip():
                problems.warn(path, n, f"unexpected line in the record of arXiv:{rec.ident}; ignored: "
                              f"{line.strip()[:60]!r}")
            continue
        rec.abstract.append(line)
    _close(rec, path, problems)
    return out


def _close(rec: _Record | None, path: str, problems: Problems) -> None:
    if rec is not None and not rec.closed:
        rec.closed = True
        if not rec.link:
            problems.warn(path, rec.line, f"the record of arXiv:{rec.ident} ends without its "
                          "`\\\\ ( https://arxiv.org/abs/... )` line (a cut e-mail?); kept as read")


def _abstract(lines: list[str]) -> str:
    """Paragraphs: an indented line after a line that ends a sentence starts a new one."""
    paras: list[list[str]] = []
    for line in lines:
        text = line.strip()
        if not text:
            if paras and paras[-1]:
                paras.append([])
            continue
        new = not paras or (line[:1] == " " and paras[-1] and paras[-1][-1].endswith((".", "?", "!", ":")))
        if new and (not paras or paras[-1]):
            paras.append([])
        paras[-1].append(text)
    return tex_paragraphs("\n\n".join(" ".join(p) for p in paras if p))


def _paper(rec: _Record, path: str, problems: Problems) -> Paper | None:
    ident = arxiv_id("arXiv:" + rec.ident)
    if ident is None:
        problems.warn(path, rec.line, f"'arXiv:{rec.ident}' is not an arXiv identifier; record skipped")
        return None
    title = tex_title(rec.fields.get("Title", ""))
    # Affiliations in parentheses are taken out by parse_authors (never authors).
    authors = parse_authors(tex_to_text(rec.fields.get("Authors", "")))
    warn_unsure(authors, path, rec.field_lines.get("Authors", rec.line), problems)
    abstract = _abstract(rec.abstract)
    if not title:
        problems.warn(path, rec.line, f"the record of arXiv:{ident} has no Title line; using a placeholder title")
    categories = tuple(rec.fields.get("Categories", "").split())
    where = SourceRef(path, rec.line)
    return arxiv_paper(
        ident, title, authors.names, abstract, where, complete=authors.complete, categories=categories,
        doi=doi(rec.fields.get("DOI")), journal_ref=tex_to_text(rec.fields.get("Journal-ref", "")),
        comments=tex_to_text(rec.fields.get("Comments", "")), replacement=rec.replaced or rec.section == "replace")


def read(path: str, text: str, problems: Problems) -> RawDigest:
    lines = text.splitlines()
    date = _digest_date(text)
    title = "arXiv mailing"
    m = re.search(r"(?m)^Subject:\s*(.+)$", text[:3000])
    if m:
        title = " ".join(m.group(1).split())
    if date:
        title += f" of {date:%b} {date.day}, {date.year}"
    papers = [p for p in (_paper(r, path, problems) for r in _records(lines, path, problems)) if p is not None]
    return RawDigest(path=path, format=FORMAT, title=title, date=date,
                     date_source="text" if date else "", papers=papers)
