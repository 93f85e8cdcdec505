"""Machine-readable exports at the site root: `papers.json` and `references.bib`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ..enrich.display import title_text
from ..model import Library, Paper
from .venue import venue_line


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
        "date": paper.date.isoformat() if paper.date else None,
        "categories": list(paper.categories),
        "sources": list(dict.fromkeys(s.name for s in paper.sources)),
        "tags": list(paper.tags),
        "related": [
            {"key": by_id[r.id].key, "score": round(r.score, 4), "why": r.why}
            for r in paper.related if r.id in by_id
        ],
        "page": paper.page,
    }


def papers_json(library: Library) -> str:
    return "".join(papers_json_pieces(library))


# Papers per piece: the records are made and written a piece at a time.
PIECE = 500


def papers_json_pieces(library: Library, size: int | None = None) -> Iterator[str]:
    """`papers.json`, `size` (PIECE) papers at a time: the pieces joined are the file. One record
    per line: the same JSON as `indent=`, but json's C encoder only runs without indent, and the
    file is a third smaller."""
    size = size or PIECE
    by_id = library.by_id()
    papers = library.papers
    for start in range(0, len(papers), size):
        head = "[\n" if start == 0 else ",\n"
        records = (json.dumps(paper_record(p, by_id), ensure_ascii=False) for p in papers[start:start + size])
        yield head + ",\n".join(map(_html_safe, records))
    yield "\n]\n" if papers else "[\n]\n"


def _html_safe(text: str) -> str:
    # json.dumps escapes nothing HTML-relevant by default; `<` cannot matter in a .json file
    # served as application/json, but escape it anyway for anyone who inlines the file.
    return text.replace("<", "\\u003c").replace(">", "\\u003e")
