"""A paper's venue line, `TMLR · accepted · Aug 2025`: the badge on its page, a column of the
listings, `venue_line` in papers.json.

A module of its own because the paper page, the listings (render/rows.py) and the exports all
show it: none of them imports another for it.
"""

from __future__ import annotations

import re

from ..model import Paper

_MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


# The year a journal reference gives (`Phys. Rev. B 91, 184507 (2015)`): its last year-like number.
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
# What a .bib entry of these types is called on its venue line (other published types: "published").
_BIB_KINDS = {"book": "book", "mvbook": "book", "collection": "book", "proceedings": "proceedings",
              "phdthesis": "PhD thesis", "mastersthesis": "Master's thesis", "thesis": "thesis",
              "techreport": "report", "report": "report", "manual": "manual"}


def published_year(paper: Paper) -> int | None:
    """The year of a published arXiv paper: its journal reference's, else its own."""
    years = _YEAR.findall(paper.journal_ref)
    return int(years[-1]) if years else paper.year


def venue_line(paper: Paper) -> str:
    """`TMLR · accepted · Aug 2025`, `cs.LG · cross-listed from cs.CL`, or for an arXiv paper
    published since, its journal reference and year: `Phys. Rev. B 91, 184507 (2015) · published`."""
    if paper.venue == "TMLR":
        parts = ["TMLR", paper.status]
        if paper.date:
            parts.append(f"{_MONTHS[paper.date.month - 1]} {paper.date.year}")
        return " · ".join(parts + list(paper.labels))
    if paper.bib_type and paper.venue and paper.venue != "arXiv" and not paper.journal_ref:
        # A .bib entry reads as what it is: `MIT Press · book · 2009`, `University of Alberta ·
        # Master's thesis · 2019`, `The Astrophysical Journal · published · 2016`. A record that
        # gives its whole reference (a DOI's CSL-JSON: volume, pages) shows that instead, below.
        kind = _BIB_KINDS.get(paper.bib_type, "published" if paper.status == "accepted" else paper.status)
        return " · ".join(x for x in (paper.venue, kind, str(paper.year or "")) if x)
    if paper.status == "published" and (paper.journal_ref or paper.categories):
        year = published_year(paper)
        where = paper.journal_ref or paper.categories[0]
        shown = [where, "published"] + ([str(year)] if year and str(year) not in where else [])
        return " · ".join(shown)
    if paper.categories:
        listed = paper.categories[-1] if paper.cross_listed_from else paper.categories[0]
        if paper.cross_listed_from:
            return f"{listed} · cross-listed from {paper.cross_listed_from}"
        return f"{listed} · {paper.status}"
    return " · ".join(x for x in (paper.venue, paper.status) if x)
