"""Highwire Press tags for a paper page's `<head>`, as Google Scholar's inclusion guidelines describe
them; Zotero's Connector saves a page from them in one click.

The generator writes them into the page's front matter, as `rl_cite`: the `<meta name content>`
tags themselves, contents HTML-escaped like every front-matter value (escape.meta_tags). The theme
(generator/theme/main.html) prints them into the head, and adds
`citation_abstract_html_url`: the page's own canonical address (absolute, under `site_url`).

- `citation_title`: the title as the page shows it (the untitled paper has none);
- `citation_author`: one per author, as the page names them (`Anonymous` for a submission);
- `citation_publication_date`: the digest's date, `2025/08/15` (only the year when a note
  corrected it); for a .bib entry, the date parts it has (`2020`, `1997/11`);
- `citation_journal_title`, `citation_issn`: TMLR accepted papers; a .bib entry's container
  (`citation_journal_title`, `citation_conference_title` or `citation_inbook_title`),
  `citation_volume`, `citation_issue`, `citation_firstpage`, `citation_lastpage`,
  `citation_publisher`, `citation_issn`, `citation_isbn`, where it has them;
- `citation_pdf_url`, `citation_doi`, `citation_arxiv_id`: where known (the PDF from the
  OpenReview or arXiv id).
"""

from __future__ import annotations

from ..enrich.bibtex import TMLR, TMLR_ISSN
from ..enrich.display import title_text
from ..model import Paper
from . import escape
from .csl import ARXIV_ID, DOI
from .cslbib import bib_csl_fields, bib_issued, bib_type

KEY = "rl_cite"


def highwire_tags(paper: Paper) -> list[tuple[str, str]]:
    """(name, content) of every tag but `citation_abstract_html_url`, contents as plain text."""
    tags: list[tuple[str, str]] = []
    if not paper.title_missing:
        tags.append(("citation_title", title_text(paper.title)))
    tags += [("citation_author", name) for name in (paper.authors or ("Anonymous",))]
    if paper.bib_fields and paper.year_override is None:
        parts = bib_issued(paper)  # the date parts the entry has: `2020`, `1997/11`, `2020/05/15`
        if parts:
            tags.append(("citation_publication_date", "/".join([str(parts[0]), *(f"{p:02d}" for p in parts[1:])])))
    elif paper.year is not None:
        date = paper.date
        # `date.strftime("%Y/%m/%d")` (the year unpadded, as glibc's %Y), without strftime's call into C's.
        tags.append(("citation_publication_date", f"{date.year}/{date.month:02d}/{date.day:02d}"
                     if date and date.year == paper.year else str(paper.year)))
    if paper.bib_fields:
        tags += _bib_tags(paper)
    elif paper.venue == "TMLR" and paper.status == "accepted":
        tags += [("citation_journal_title", TMLR), ("citation_issn", TMLR_ISSN)]
    pdf = pdf_url(paper)
    if pdf:
        tags.append(("citation_pdf_url", pdf))
    if paper.doi and DOI.match(paper.doi):
        tags.append(("citation_doi", paper.doi))
    if paper.arxiv_id and ARXIV_ID.match(paper.arxiv_id):
        tags.append(("citation_arxiv_id", paper.arxiv_id))
    return tags


# Where a .bib entry's container goes, by its CSL type (render/cslbib.py).
_CONTAINER = {"article-journal": "citation_journal_title", "paper-conference": "citation_conference_title",
              "chapter": "citation_inbook_title"}


def _bib_tags(paper: Paper) -> list[tuple[str, str]]:
    """A .bib entry's container, volume, issue, pages, publisher, ISSN and ISBN."""
    kind = bib_type(paper)
    fields = bib_csl_fields(paper, kind)
    tags = []
    if fields.get("container-title") and kind in _CONTAINER:
        tags.append((_CONTAINER[kind], fields["container-title"]))
    first, _, last = fields.get("page", "").partition("-")
    for name, value in (("citation_volume", fields.get("volume")), ("citation_issue", fields.get("issue")),
                        ("citation_firstpage", first), ("citation_lastpage", last),
                        ("citation_publisher", fields.get("publisher")), ("citation_issn", fields.get("ISSN")),
                        ("citation_isbn", fields.get("ISBN"))):
        if value:
            tags.append((name, value))
    return tags


def pdf_url(paper: Paper) -> str | None:
    if paper.openreview_id and paper.openreview_id.replace("_", "").replace("-", "").isalnum():
        return f"https://openreview.net/pdf?id={paper.openreview_id}"
    if paper.arxiv_id and ARXIV_ID.match(paper.arxiv_id):
        return f"https://arxiv.org/pdf/{paper.arxiv_id}"
    return None


def front_matter_lines(paper: Paper) -> list[str]:
    """The `rl_cite:` entry of the page's front matter: the tags as HTML (escape.meta_tags)."""
    return [f"{KEY}: {escape.meta_tags(highwire_tags(paper))}"]
