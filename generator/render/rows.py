"""A paper as a row of the pages that list many papers: All papers, tag and digest pages.

`Entry` holds a paper's escaped title, first author and venue and its page's URL from the site
root, made where a page lists the paper; `sort_key` is its place on those pages.
`paper_rows_table` and `anchor` put the pieces together into the markup that `html.table` and
`links.paper_anchor` write (tests/render/test_oracle_listings.py compares them). Not to be
confused with sources/listing.py, the reader of paper-listing pages.

Each paper's entry is made once per build (`entries`, by `render_listings`) and every listing
that shows the paper (All papers, its digest's page, each of its tags' pages) takes it from
there: at 10,000 papers that is 10,000 entries instead of 50,000 (issue 34, third round). They
are an argument, not kept anywhere: a new build makes new ones.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..enrich.display import title_text
from ..model import Paper
from . import escape
from .links import page_url, paper_anchor, paper_md
from .venue import venue_line

SortKey = tuple[int, str, str]


class Entry:
    """One paper's escaped cells and its page's URL from the site root."""

    __slots__ = ("author", "paper", "target", "title", "venue", "year")

    def __init__(self, paper: Paper) -> None:
        self.paper = paper
        self.title = escape.text(title_text(paper.title))
        self.author = escape.text(paper.short_authors)
        self.venue = escape.text(venue_line(paper))
        self.year = str(paper.year or "")
        # The paper page's URL from the site root, which a link from a listing page prefixes.
        self.target = page_url(paper_md(paper))


def entries(papers: Iterable[Paper]) -> dict[str, Entry]:
    """Each paper's `Entry`, by id: made once for all the listings of a build."""
    return {p.id: Entry(p) for p in papers}


def sort_key(paper: Paper) -> SortKey:
    """Newest year first, then by title (the order of the All papers and tag pages)."""
    return (-(paper.year or 0), title_text(paper.title).lower(), paper.id)


def all_order(papers: list[Paper]) -> list[Paper]:
    """The order of the All papers pages: newest year first, then by title."""
    return sorted(papers, key=sort_key)


def prefix(from_md: str) -> str | None:
    """What a link from `from_md`'s page to a paper page starts with (`../../`), or None when
    that page's URL lies under papers/ itself (then `url_from` works the link out in full)."""
    folders = page_url(from_md).split("/")[:-1]
    if folders and folders[0] == "papers":
        return None
    return "../" * len(folders)


def anchor(e: Entry, from_md: str, lead: str | None) -> str:
    """`links.paper_anchor(paper, from_md)`, from the entry's pieces (`lead`: `prefix(from_md)`,
    worked out once for all the rows of a page, not once per row)."""
    if lead is None:
        return paper_anchor(e.paper, from_md)
    return f'<a href="{lead}{e.target}">{e.title}</a>'


# On the list of papers of a listing page (All papers, a tag's, a digest's, a status page): kept out
# of the search index of Zensical and of Material's own search, which honour it, while the page's
# heading and text stay in. Each row is a paper whose own page is indexed, and the rows of a
# 200-paper page made one search field Zensical refused ("exceeds the search index limit") at
# 10,000 papers (issue 46). Pagefind's records are the generator's own (search_records.py).
NOT_INDEXED = "data-search-exclude"


def paper_rows_table(head: list[str], rows: Iterable[Entry], from_md: str, venue: bool) -> str:
    """`html.table(head, rows)` of the papers' rows (Title, First author, [Venue,] Year), from
    their entries."""
    lead = prefix(from_md)
    out = [f"<table {NOT_INDEXED}>", "<thead>", "<tr>", *(f"<th>{h}</th>" for h in head), "</tr>", "</thead>",
           "<tbody>"]
    if venue:
        out += [f"<tr><td>{anchor(e, from_md, lead)}</td><td>{e.author}</td><td>{e.venue}</td><td>{e.year}</td></tr>"
                for e in rows]
    else:
        out += [f"<tr><td>{anchor(e, from_md, lead)}</td><td>{e.author}</td><td>{e.year}</td></tr>" for e in rows]
    out += ["</tbody>", "</table>"]
    return "\n".join(out)
