"""A paper as an entry of the pages that list many papers: All papers, tag, digest pages.

At ten thousand papers those pages hold some seventy thousand entries, and each paper's title,
first author and venue were escaped and its link worked out again on every page that lists it
(all-papers page, each of its tags' pages, its digest's page). `entry` does that once per paper
and keeps the pieces; the listing functions put them together into the same markup that
`html.table` and `links.paper_anchor` write (tests/test_listing.py compares them).
"""

from __future__ import annotations

from functools import lru_cache

from ..enrich.display import title_text
from ..model import Library, Paper
from . import escape
from .links import page_url, paper_anchor, paper_md
from .venue import venue_line

SortKey = tuple[int, str, str]


class Entry:
    """One paper's escaped cells, its sort key and its rows as written so far (by page depth)."""

    __slots__ = ("author", "key", "paper", "rows", "target", "title", "venue", "year")

    def __init__(self, paper: Paper) -> None:
        self.paper = paper
        title = title_text(paper.title)
        self.title = escape.text(title)
        self.author = escape.text(paper.short_authors)
        self.venue = escape.text(venue_line(paper))
        year = paper.year
        self.year = str(year or "")
        self.key: SortKey = (-(year or 0), title.lower(), paper.id)
        # The paper page's URL from the site root, which a link from a listing page prefixes.
        self.target = page_url(paper_md(paper))
        self.rows: dict[str, str] = {}


# Keyed by id(paper), holding the paper: a frozen Paper's entry never changes, and hashing a whole
# Paper costs more than the lookup saves (as in bibtex.block). A rebuild under `serve` makes new
# Paper objects: `all_order` drops the old ones' entries, the cap is a backstop.
_ENTRIES: dict[int, Entry] = {}
_MAX_ENTRIES = 50_000


def entry(paper: Paper) -> Entry:
    known = _ENTRIES.get(id(paper))
    if known is not None and known.paper is paper:
        return known
    if len(_ENTRIES) >= _MAX_ENTRIES:
        _ENTRIES.clear()
    made = _ENTRIES[id(paper)] = Entry(paper)
    return made


def sort_key(paper: Paper) -> SortKey:
    """Newest year first, then by title (the order of the All papers and tag pages)."""
    return entry(paper).key


def all_order(library: Library) -> list[Paper]:
    """The order of the All papers pages: newest year first, then by title."""
    _forget_unlisted(library.papers)
    return sorted(library.papers, key=sort_key)


def _forget_unlisted(papers: list[Paper]) -> None:
    """Drop the entries of papers not in `papers` (earlier builds'), once they outnumber these."""
    if len(_ENTRIES) > 2 * len(papers):
        listed = {id(p) for p in papers}
        for key in [key for key in _ENTRIES if key not in listed]:
            del _ENTRIES[key]


@lru_cache(maxsize=1 << 12)
def prefix(from_md: str) -> str | None:
    """What a link from `from_md`'s page to a paper page starts with (`../../`), or None when
    that page's URL lies under papers/ itself (then `url_from` works the link out in full)."""
    folders = page_url(from_md).split("/")[:-1]
    if folders and folders[0] == "papers":
        return None
    return "../" * len(folders)


def anchor(e: Entry, from_md: str) -> str:
    """`links.paper_anchor(paper, from_md)`, from the entry's pieces."""
    lead = prefix(from_md)
    if lead is None:
        return paper_anchor(e.paper, from_md)
    return f'<a href="{lead}{e.target}">{e.title}</a>'


def _rows(entries: list[Entry], from_md: str, venue: bool) -> list[str]:
    """The entries' table rows (Title, First author, [Venue,] Year): the same on every page of
    the same depth, so each is made once per paper."""
    lead = prefix(from_md)
    slot = f"{venue:d}{lead}" if lead is not None else f"{venue:d}\0{from_md}"
    out = []
    for e in entries:
        made = e.rows.get(slot)
        if made is None:
            cells = f"<td>{e.venue}</td><td>{e.year}</td>" if venue else f"<td>{e.year}</td>"
            made = e.rows[slot] = f"<tr><td>{anchor(e, from_md)}</td><td>{e.author}</td>{cells}</tr>"
        out.append(made)
    return out


def paper_rows_table(head: list[str], papers: list[Paper], from_md: str, venue: bool) -> str:
    """`html.table(head, rows)` of the papers' rows (Title, First author, [Venue,] Year)."""
    out = ["<table>", "<thead>", "<tr>", *(f"<th>{h}</th>" for h in head), "</tr>", "</thead>", "<tbody>"]
    out += _rows([entry(p) for p in papers], from_md, venue)
    out += ["</tbody>", "</table>"]
    return "\n".join(out)
