"""Machine-readable exports at the site root: `papers.json` and `references.bib`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..enrich.display import title_text
from ..model import Library, Paper
from . import escape
from .cslbib import bib_issued
from .venue import venue_line

# `json.dumps(..., ensure_ascii=False)` without making an encoder for each of the 10,000 records.
_JSON = json.JSONEncoder(ensure_ascii=False).encode


def paper_record(paper: Paper, by_id: dict[str, Paper]) -> dict[str, Any]:
    return {
        "id": paper.id,
        "key": paper.key,
        "title": title_text(paper.title),
        "title_source": paper.title,
        "authors": list(paper.authors),
        "authors_complete": paper.authors_complete,
        "abstract": paper.abstract,
        "url": paper.url,
        "arxiv": paper.arxiv_id,
        "doi": paper.doi,
        "openreview": paper.openreview_id,
        "venue": paper.venue,
        "venue_line": venue_line(paper),
        "status": paper.status,
        "labels": list(paper.labels),
        "year": paper.year,
        "date": _date(paper),
        "categories": list(paper.categories),
        "sources": list(dict.fromkeys(s.name for s in paper.sources)),
        "tags": list(paper.tags),
        "related": [
            {"key": by_id[r.id].key, "score": round(r.score, 4), "why": r.why}
            for r in paper.related if r.id in by_id
        ],
        "page": paper.page,
        # enrich/interest.py: two places and a few words, to keep the record small.
        "interest": paper.interest,
        "why": paper.why,
    }


def _date(paper: Paper) -> str | None:
    """`2020-05-15`, or for a .bib entry as much as it gives (`2009`, `2009-11`): no invented
    month or day."""
    if paper.bib_fields:
        parts = bib_issued(paper)
        if parts:
            return "-".join([f"{parts[0]:04d}", *(f"{part:02d}" for part in parts[1:])])
    return paper.date.isoformat() if paper.date else None


def paper_records(library: Library) -> list[dict[str, Any]]:
    """Each paper's record, in the library's order: papers.json's and the search index's (a build
    makes them once, `RenderContext.paper_records`)."""
    by_id = library.by_id()
    return [paper_record(p, by_id) for p in library.papers]


# Keys of a record that papers.json leaves out: `references.json` (CSL-JSON, item `id` = the
# record's `key`) holds them, and each download appears once in full (issue 46): the abstract
# alone was a third of papers.json. Search still indexes it (the records keep it).
IN_REFERENCES_JSON = frozenset({"abstract"})


def papers_json(records: Sequence[dict[str, Any]]) -> str:
    """`papers.json` of the papers' `records` (`paper_records`) without what `references.json`
    holds (`IN_REFERENCES_JSON`): one record per line (the same JSON as `indent=`, a third
    smaller), `<` and `>` escaped (`escape.json_in_html`)."""
    # Escaped line by line, not as one text: most lines are ASCII, a joined text with one wide
    # character is wide throughout, and replacing in it took longer (measured on the seeded list).
    lines = [escape.json_in_html(_JSON({k: v for k, v in r.items() if k not in IN_REFERENCES_JSON}))
             for r in records]
    return "[\n" + ",\n".join(lines) + "\n]\n" if records else "[\n]\n"
