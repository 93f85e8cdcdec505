"""Reader for OpenReview notes as the API answers them: API v2 (`api2.openreview.net/notes?id=...`),
every content field wrapped as `{"value": ...}`, and API v1's plain fields alike.

    {"notes": [{"id": "ENdm5BM7aF", "forum": "ENdm5BM7aF", "pdate": 1754611200000,
                "content": {"title": {"value": "..."}, "authors": {"value": ["..."]},
                            "abstract": {"value": "..."}, "venue": {"value": "ICLR 2024 poster"},
                            "venueid": {"value": "ICLR.cc/2024/Conference"},
                            "_bibtex": {"value": "@inproceedings{...}"}}}], "count": 1}

A note is a paper known by its forum id (`openreview:ENdm5BM7aF`, as a TMLR digest's record of
it), dated by its publication date (`pdate`, else when it was made public or created). Its status
comes from the venue: `Submitted to ...` or a venue id ending in `/Submission` is under review, a
withdrawn or rejected submission a preprint, any other venue accepted; a TMLR paper reads as the
TMLR digests' (venue TMLR, its certifications as labels). The note's own BibTeX (`_bibtex`) gives
the entry's type and fields (`booktitle`, ...), as a .bib file's entry would; its key is not
pinned (OpenReview makes it; the list's keys are the list's own).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from ..errors import Problems
from ..model import Paper, SourceRef
from . import bibfile
from .ids import record_id
from .jsondoc import line_of, load
from .records import RawDigest, placeholder_title

FORMAT = "openreview"


def notes(data: Any) -> list[dict[str, Any]] | None:
    """The notes of a parsed JSON document (`{"notes": [...]}` or one note), or None."""
    found = data.get("notes") if isinstance(data, dict) and "notes" in data else [data]
    if not isinstance(found, list) or not all(isinstance(n, dict) and isinstance(n.get("content"), dict)
                                              and isinstance(n.get("id") or n.get("forum"), str) for n in found):
        return None
    return found


def detect(text: str) -> bool:
    return notes(load(text)) is not None


def plain(value: Any) -> str:
    """A field's text on one line. OpenReview's fields are plain text (an abstract may hold
    Markdown and `$...$`), not HTML: nothing is taken out; the pages escape it."""
    return " ".join(value.split()) if isinstance(value, str) else ""


def paragraphs(value: Any) -> str:
    if not isinstance(value, str):
        return ""
    return "\n\n".join(p for p in (" ".join(part.split()) for part in re.split(r"\n\s*\n", value)) if p)


def _value(content: dict[str, Any], key: str) -> Any:
    value = content.get(key)
    return value.get("value") if isinstance(value, dict) else value


def _date(note: dict[str, Any]) -> dt.date | None:
    for key in ("pdate", "odate", "cdate", "tcdate"):
        ms = note.get(key)
        if isinstance(ms, (int, float)) and not isinstance(ms, bool) and ms > 0:
            return dt.datetime.fromtimestamp(ms / 1000, dt.UTC).date()
    return None


def status(venue: str, venueid: str) -> str:
    """`accepted`, `under review` or `preprint` from a note's venue and venue id."""
    v, vid = venue.lower(), venueid.lower()
    if any(word in v or word in vid for word in ("withdrawn", "rejected", "desk_rejected", "desk rejected")):
        return "preprint"
    if v.startswith("submitted to") or "under review" in v or "decision pending" in v or vid.endswith(
            ("/submission", "/under_review", "/submitted")):
        return "under review"
    return "accepted" if venue or venueid else "preprint"


def _paper(note: dict[str, Any], text: str, path: str, problems: Problems) -> Paper:
    forum = str(note.get("forum") or note.get("id"))
    where = SourceRef(path, line_of(text, "id", str(note.get("id") or forum)))
    content: dict[str, Any] = note["content"]
    title = plain(_value(content, "title"))
    authors = _value(content, "authors")
    names = tuple(plain(a) for a in authors if plain(a)) if isinstance(authors, list) else ()
    abstract = paragraphs(_value(content, "abstract"))
    venue, venueid = plain(_value(content, "venue")), plain(_value(content, "venueid"))
    state = status(venue, venueid)
    tmlr = venueid.split("/")[0] == "TMLR" or "TMLR" in venue.split()
    labels = _value(content, "certifications")
    if not title:
        problems.warn(path, where.line, f"OpenReview note {forum} has no title; using a placeholder title")
    entry = _entry(_value(content, "_bibtex"), path)
    pid = record_id(title, abstract, openreview=forum)
    return Paper(
        id=pid,
        title=title or placeholder_title(names, abstract),
        authors=names,
        abstract=abstract,
        origin=where,
        url=f"https://openreview.net/forum?id={forum}",
        venue="TMLR" if tmlr else venue or "OpenReview",
        status=state,
        title_missing=not title,
        labels=tuple(plain(x) for x in labels if plain(x)) if tmlr and isinstance(labels, list) else (),
        openreview_id=forum,
        date=_date(note),
        sources=(where,),
        bib_type=entry.bib_type if entry and names else "",
        bib_fields=entry.bib_fields if entry and names else (),
        bib_names=entry.bib_names if entry and len(entry.bib_names) == len(names) else (),
        aliases=(pid,),
    )


def _entry(bibtex: Any, path: str) -> Paper | None:
    """The note's `_bibtex` read as a .bib entry (None when it has none or it does not parse)."""
    if not isinstance(bibtex, str) or "@" not in bibtex:
        return None
    raw = bibfile.read(path, bibtex, Problems())
    return raw.papers[0] if len(raw.papers) == 1 else None


def read(path: str, text: str, problems: Problems) -> RawDigest:
    found = notes(load(text)) or []
    papers = [_paper(note, text, path, problems) for note in found]
    name = path.rsplit("/", 1)[-1]
    title = f"OpenReview forum {papers[0].openreview_id}" if len(papers) == 1 else f"OpenReview notes {name}"
    return RawDigest(path=path, format=FORMAT, title=title, date=None, date_source="", papers=papers)
