"""What search indexes, made by the build: one record per paper (title, authors, abstract, citation
key, arXiv id, DOI and the All papers filter's facets), per note, per page of content/pages/ and
per tag description, from the render stage's context (`search_records`).

The build writes them into the docs folder as RECORDS, one JSON object a line (a dot file: MkDocs
leaves it out of the site); the MkDocs plugin hands that file to Pagefind (site/search.py), so
search reads no input of its own and matches no note to its paper again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from ..enrich.text import to_ascii
from ..model import Library, short_authors
from .plaintext import markdown_text

if TYPE_CHECKING:
    from .context import RenderContext

# The records' file in the docs folder.
RECORDS = ".search-records.json"
# `json.dumps(..., ensure_ascii=False)` without making an encoder for each of the 10,000 records.
_JSON = json.JSONEncoder(ensure_ascii=False).encode


@dataclass(frozen=True)
class Record:
    url: str
    title: str
    content: str
    part: str = ""  # what matched, shown under a result's title: "" (the paper), "Note", "Page" or "Tag"
    # A paper's facets for the All papers filter (readinglist-search.js): Pagefind filters, sort
    # keys and the table row's cells. None for notes, pages and tags, which the filter never lists.
    filters: dict[str, list[str]] | None = None
    sort: dict[str, str] | None = None
    row: dict[str, str] | None = None
    # The author names that hold accents, typed without them (`Louis Bethune, Bertram Hojer`): a
    # Pagefind metadata field, which Pagefind 1.5 searches but never cuts an excerpt from, so a
    # result never shows a name twice. (Pagefind folds the accents it can decompose itself, é
    # and ä, but not ø, ł or ß.)
    folded: str = ""

    def as_dict(self) -> dict[str, Any]:
        if self.filters is not None:
            meta = {"title": self.title, **(self.row or {}), **({FOLDED: self.folded} if self.folded else {})}
            return {"url": self.url, "content": self.content, "language": "en",
                    "meta": meta, "filters": self.filters, "sort": self.sort or {}}
        if self.part == "Note":
            # Pagefind searches a record's metadata too: a note's record is titled "Note" and names
            # its paper in a filter (never searched), so the paper's own title words find the
            # paper's record alone.
            return {"url": self.url, "content": self.content, "language": "en",
                    "meta": {"title": self.part, "part": self.part}, "filters": {"paper": [self.title]}}
        meta = {"title": self.title, **({"part": self.part} if self.part else {})}
        return {"url": self.url, "content": self.content, "language": "en", "meta": meta}


# The metadata field of a paper's record that holds its folded author names (Record.folded).
FOLDED = "names"

# A word only papers' records hold, once each. Pagefind 1.5 answers a search without a term by
# loading every chunk of its word index (5 MB at 10,000 papers; fixed upstream after 1.5.2, in
# Pagefind's pull request 1317); the All papers filter searches for this word instead, which
# loads the one chunk that holds it. readinglist-search.js keeps it out of result excerpts.
EVERY = "rlpaper"

# The reading statuses a note may give, in the filter's order.
READING = ("to-read", "reading", "read", "skipped")


def facets(paper: dict[str, Any], reading: tuple[str, int] | None) -> tuple[dict[str, list[str]],
                                                                               dict[str, str], dict[str, str]]:
    """(filters, sort keys, row cells) of one paper of `papers.json` for the All papers filter.
    Every paper has the filter `kind: paper`, so a query for all papers leaves out the notes,
    pages and tags that share the index; sort keys are strings Pagefind compares (dates as ISO
    text, ratings as numbers, titles case-folded)."""
    status, rating = reading or ("", 0)
    year = paper.get("year")
    filters: dict[str, list[str]] = {"kind": ["paper"], "tag": list(paper.get("tags") or []),
                                     "status": [str(paper.get("status") or "")]}
    if year:
        filters["year"] = [str(year)]
    if paper.get("venue"):
        filters["venue"] = [str(paper["venue"])]
    if status:
        filters["reading"] = [status]
    sort = {"date": str(paper.get("date") or "0000-00-00"),
            "title": one_spaced(str(paper.get("title") or "")).casefold(), "rating": str(rating),
            "interest": f"{paper.get('interest') or 0:.2f}"}
    authors = list(paper.get("authors") or [])
    first = short_authors(authors, bool(paper.get("authors_complete", True)))
    row = {"first": first, "venue": str(paper.get("venue_line") or ""), "year": str(year or "")}
    return filters, sort, row


def one_spaced(text: str) -> str:
    """`" ".join(text.split())`: the words of `text`, one space apart. Most texts are so already
    and are given back as they are: splitting the 10,000 abstracts into words to join them again
    took 0.1 s of a build. A printable text holds no white space but the space (`str.isprintable`
    is false for every other character `str.split` splits at), so one without two spaces in a row
    and without one at either end is its own words one space apart."""
    if text.isprintable() and "  " not in text and not text.startswith(" ") and not text.endswith(" "):
        return text
    return " ".join(text.split())


def identifiers(paper: dict[str, Any]) -> str:
    """The paper's citation key, arXiv id and DOI, each after its name (`Citation key smith2023robust
    · arXiv 2306.06130 · DOI 10.1103/PhysRevB.91.184507`): searchable, and after the abstract, so
    a result's excerpt reads title, authors, abstract, and shows them named when they matched."""
    named = [("Citation key", paper.get("key")), ("arXiv", paper.get("arxiv")), ("DOI", paper.get("doi"))]
    return " · ".join(f"{name} {value}" for name, value in named if value)


def record(paper: dict[str, Any], reading: tuple[str, int] | None = None) -> Record:
    """What search knows of one paper (an object of `papers.json`): title, authors, abstract, its
    citation key, arXiv id and DOI (`identifiers`), and its facets for the All papers filter
    (`reading`: its note's status and rating).

    The URL is relative to the site root, so the index works wherever the site is published; the
    search worker puts the site's own base path in front of it.
    """
    authors = ", ".join(paper.get("authors") or [])
    if paper.get("authors") and not paper.get("authors_complete", True):
        authors += " et al."
    # Typed without accents too: `Hojer` must find Højer. Only the names that have accents, in
    # their own field (Record.folded), out of the text excerpts are cut from. (An ASCII list,
    # most of them, has none: not looked at name by name.)
    folded = "" if authors.isascii() else ", ".join(" ".join(to_ascii(a).split()) for a in paper.get("authors") or []
                                                   if not a.isascii())
    title = one_spaced(paper.get("title") or "")
    parts = [authors, paper.get("abstract") or "", identifiers(paper)]
    content = "\n".join(filter(None, [title, *map(one_spaced, parts)]))
    # The word every paper's record ends with: the All papers filter searches for it (see EVERY).
    content += "\n" + EVERY
    page = str(paper.get("page") or "")
    filters, sort, row = facets(paper, reading)
    return Record(url=page, title=title, content=content,
                  filters=filters, sort=sort, row=row, folded=folded)


def records(papers: Iterable[dict[str, Any]], reading: dict[str, tuple[str, int]] | None = None) -> list[Record]:
    reading = reading or {}
    return [record(p, reading.get(str(p["page"]))) for p in papers if p.get("page")]


def search_records(ctx: RenderContext, pages: Mapping[str, str]) -> list[Record]:
    """Every record of the index: the papers (from their records of `papers.json`,
    `ctx.paper_records`, made once for both), then the curator's own words (`words_records`)."""
    return records(ctx.paper_records, _reading(ctx.library)) + words_records(ctx, pages)


def _reading(library: Library) -> dict[str, tuple[str, int]]:
    """Page -> (reading status, rating) of each paper with a note: the All papers filter's facets."""
    notes = library.notes.by_paper if library.notes is not None else {}
    return {str(p.page): (notes[p.id].status or "", notes[p.id].rating or 0) for p in library.papers
            if p.id in notes}


def words_records(ctx: RenderContext, pages: Mapping[str, str]) -> list[Record]:
    """The records of the curator's own words: each note (a record on its paper's page, so a word
    found only in a note finds that paper), each page of content/pages/ (`pages`, as
    `sources.pages.read_pages` read them) and the description of each tag that has a page."""
    from ..enrich.display import title_text
    from ..notes.load import split_front_matter

    library = ctx.library
    notes = library.notes.by_paper if library.notes is not None else {}
    links = library.notes.links if library.notes is not None else {}
    by_id = library.by_id()
    out = []
    for paper, note in sorted(((p, notes[p.id]) for p in library.papers if p.id in notes), key=lambda pn: pn[1].path):
        # The words the page shows: no Markdown, each [[wiki-link]] as its label or its paper's title.
        titles = {lk.target: title_text(by_id[lk.paper_id].title) for lk in links.get(note.path, ())
                  if lk.paper_id in by_id}
        text = markdown_text(note.body, titles) if note.body.strip() else ""
        if paper.page and text:
            title = " ".join(title_text(paper.title).split())
            out.append(Record(url=str(paper.page) + "#my-notes", title=title, content=text, part="Note"))
    for rel, text in pages.items():
        stem = rel[: -len(".md")] if rel.endswith(".md") else rel
        url = "" if stem == "index" else (stem[: -len("/index")] if stem.endswith("/index") else stem) + "/"
        raw = str(split_front_matter(text)[1])
        if raw.strip():
            heading = re.search(r"(?m)^#\s+(.+?)\s*#*\s*$", raw)
            out.append(Record(url=url, title=heading.group(1) if heading else PurePosixPath(rel).stem,
                              content=markdown_text(raw, page=True), part="Page"))
    # Tags with a page (a paper has them), at the page the context names.
    slugs = ctx.tag_slugs
    for name, description in library.topics:
        if name in slugs and description.strip():
            out.append(Record(url=f"tags/{slugs[name]}/", title=name, content=" ".join(description.split()),
                              part="Tag"))
    return out


def updated_records_file(old: str, ctx: RenderContext, pages: Mapping[str, str], changed: Collection[str]) -> str:
    """`records_file(search_records(ctx, pages))` after a note edit (`ctx`: the render context of
    the library with the edit), made from `old`, the file written for the same papers before it:
    the records of the papers in `changed` (ids: those whose note changed) and of the curator's
    words are made again, every other paper's line is kept (making all 10,000 again takes 0.5 to
    2 seconds, which the open tab would wait for).
    A file that does not start with a line for each paper, in order, is made whole."""
    from .exports import paper_record

    paged = [p for p in ctx.library.papers if p.page]
    lines = old.splitlines(keepends=True)[: len(paged)]
    if len(lines) < len(paged) or any(not line.startswith(_url_start(p.page))
                                      for p, line in zip(paged, lines, strict=True)):
        return records_file(search_records(ctx, pages))
    by_id, reading = ctx.library.by_id(), _reading(ctx.library)
    for i, paper in enumerate(paged):
        if paper.id in changed:
            lines[i] = records_file([record(paper_record(paper, by_id), reading.get(str(paper.page)))])
    return "".join(lines) + records_file(words_records(ctx, pages))


# A URL that JSON writes as it is, between quotes (a paper's page: `papers/<slug>/`).
_PLAIN_URL = re.compile(r"[\w./-]*", re.ASCII)


def _url_start(url: str) -> str:
    """How a record of `url` starts in RECORDS (`as_dict` puts the URL first)."""
    quoted = f'"{url}"' if _PLAIN_URL.fullmatch(url) else json.dumps(url, ensure_ascii=False)
    return f'{{"url": {quoted}, '


def records_file(recs: list[Record]) -> str:
    """RECORDS: each record as Pagefind takes it, one JSON object a line."""
    return "\n".join([_JSON(r.as_dict()) for r in recs]) + "\n" if recs else ""
