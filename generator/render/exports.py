"""Machine-readable exports at the site root: `papers.json` and `references.bib`."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from typing import Any

from ..enrich.display import title_text
from ..model import Library, Paper
from . import escape
from .venue import venue_line

# json.dumps(..., ensure_ascii=False) builds an encoder per call; one does for the file.
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


# Papers per piece: a piece is a few hundred kilobytes, so the file is never one 30 MB string
# (and its 30 MB encoding) at 10,000 papers.
PIECE = 500


def papers_json_pieces(library: Library, size: int | None = None) -> Iterator[str]:
    """`papers.json`, `size` (PIECE) papers at a time: the pieces joined are the file."""
    size = size or PIECE
    by_id = library.by_id()
    # json.dumps escapes nothing HTML-relevant by default; `<` cannot matter in a .json file
    # served as application/json, but escape it anyway for anyone who inlines the file.
    # One record per line: the same JSON as `indent=`, but json's C encoder only runs without indent
    # (five times faster at ten thousand papers) and the file is a third smaller.
    # Each key as a JSON string, once: a paper is the related paper of five others on average.
    keys = {p.id: _string(p.key) for p in library.papers}
    papers = library.papers
    for start in range(0, len(papers), size):
        parts = ["[\n" if start == 0 else ",\n"]
        for n, p in enumerate(papers[start:start + size]):
            try:
                record = record_parts(p, keys)
            except TypeError:  # a field of a type record_parts does not write: json's own way
                record = (_JSON(paper_record(p, by_id)),)
            if n:
                parts.append(",\n")
            parts += map(_html_safe, record)
        yield "".join(parts)
    yield "\n]\n" if papers else "[\n]\n"


def _html_safe(text: str) -> str:
    if "<" in text:
        text = text.replace("<", "\\u003c")
    if ">" in text:
        text = text.replace(">", "\\u003e")
    return text


def record_parts(paper: Paper, keys: dict[str, str]) -> tuple[str, ...]:
    """`_JSON(paper_record(paper, by_id))` in pieces, written directly: the dict and json's walk
    over it cost twice the strings' own encoding (tests/render/test_oracle_listings.py compares the two).
    The abstract, a third of the file, is handed on as it is when it needs no escaping, to be
    copied once, into the file: each new megabyte of memory costs time here. `keys`: each
    paper's key as a JSON string, by id. Raises TypeError for a value it cannot vouch for (not a
    str where a str belongs, say)."""
    s = _string
    p = paper
    links = [r for r in p.related if r.id in keys]
    # json writes a float as its repr, but NaN and the infinities as words: those go to json.
    if not all(map(math.isfinite, [r.score for r in links])):
        raise TypeError("not a finite score")
    related = ", ".join([f'{{"key": {keys[r.id]}, "score": {_float_repr(round(r.score, 4))}, "why": {s(r.why)}}}'
                         for r in links])
    return (*own_record(p), f', "tags": {_strings(p.tags)}, "related": [{related}], "page": {s(p.page)}}}')


def own_record(paper: Paper) -> tuple[str, ...]:
    """The pieces of the paper's record that depend on its own fields alone:
    all but its tags, related papers and page. Raises TypeError as `record_parts` does."""
    s = _string
    p = paper
    date = p.date
    head = (f'{{"id": {s(p.id)}, "key": {s(p.key)}, "title": {s(title_text(p.title))}, '
            f'"title_source": {s(p.title)}, "authors": {_strings(p.authors)}, '
            f'"authors_complete": {_bool(p.authors_complete)}, "abstract": ')
    tail = (f', "url": {_opt(p.url)}, "arxiv": {_opt(p.arxiv_id)}, "doi": {_opt(p.doi)}, '
            f'"openreview": {_opt(p.openreview_id)}, "venue": {s(p.venue)}, '
            f'"venue_line": {s(venue_line(p))}, "status": {s(p.status)}, "labels": {_strings(p.labels)}, '
            f'"year": {_int(p.year)}, "date": {"null" if date is None else s(date.isoformat())}, '
            f'"categories": {_strings(p.categories)}, "sources": {_strings(dict.fromkeys(r.name for r in p.sources))}')
    abstract = p.abstract
    # No character json or `_html_safe` would change (isprintable is False for every control
    # character, and for a few more, which then take the longer way): four scans in C.
    if (type(abstract) is str and abstract.isprintable() and '"' not in abstract and "\\" not in abstract
            and "<" not in abstract and ">" not in abstract):
        return head, '"', abstract, '"', tail
    return head, s(abstract), tail


_string = escape.json_string  # raises TypeError for anything but a str
# How json writes a finite float (also a subclass such as numpy.float64); TypeError for an int.
_float_repr = float.__repr__


def _opt(value: str | None) -> str:
    return "null" if value is None else _string(value)


def _strings(values: Iterable[str]) -> str:
    return "[" + ", ".join(map(_string, values)) + "]"


def _bool(value: bool) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    raise TypeError(value)


def _int(value: int | None) -> str:
    if value is None:
        return "null"
    if type(value) is not int:
        raise TypeError(value)
    return int.__repr__(value)
