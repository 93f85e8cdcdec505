"""Highwire Press tags for a paper page's `<head>`, as Google Scholar's inclusion guidelines describe
them; Zotero's Connector saves a page from them in one click.

The generator writes them into the page's front matter, as `rl_cite`: the `<meta name content>`
tags themselves, contents HTML-escaped like every front-matter value (escape.meta_tags). The theme
(generator/theme/main.html) prints them into the head, and adds
`citation_abstract_html_url`: the page's own canonical address (absolute, under `site_url`).

- `citation_title`: the title as the page shows it (the untitled paper has none);
- `citation_author`: one per author, as the page names them (`Anonymous` for a submission);
- `citation_publication_date`: the digest's date, `2025/08/15` (only the year when a note
  corrected it);
- `citation_journal_title`, `citation_issn`: TMLR accepted papers;
- `citation_pdf_url`, `citation_doi`, `citation_arxiv_id`: where known (the PDF from the
  OpenReview or arXiv id).
"""

from __future__ import annotations

from ..enrich.bibtex import TMLR, TMLR_ISSN
from ..enrich.display import title_text
from ..model import Paper
from . import escape
from .csl import _ARXIV_ID, _DOI

KEY = "rl_cite"


def highwire_tags(paper: Paper) -> list[tuple[str, str]]:
    """(name, content) of every tag but `citation_abstract_html_url`, contents as plain text."""
    tags: list[tuple[str, str]] = []
    if not paper.title_missing:
        tags.append(("citation_title", title_text(paper.title)))
    tags += [("citation_author", name) for name in (paper.authors or ("Anonymous",))]
    if paper.year is not None:
        date = paper.date
        tags.append(("citation_publication_date", date.strftime("%Y/%m/%d") if date and date.year == paper.year
                     else str(paper.year)))
    if paper.venue == "TMLR" and paper.status == "accepted":
        tags += [("citation_journal_title", TMLR), ("citation_issn", TMLR_ISSN)]
    pdf = pdf_url(paper)
    if pdf:
        tags.append(("citation_pdf_url", pdf))
    if paper.doi and _DOI.match(paper.doi):
        tags.append(("citation_doi", paper.doi))
    if paper.arxiv_id and _ARXIV_ID.match(paper.arxiv_id):
        tags.append(("citation_arxiv_id", paper.arxiv_id))
    return tags


def pdf_url(paper: Paper) -> str | None:
    if paper.openreview_id and paper.openreview_id.replace("_", "").replace("-", "").isalnum():
        return f"https://openreview.net/pdf?id={paper.openreview_id}"
    if paper.arxiv_id and _ARXIV_ID.match(paper.arxiv_id):
        return f"https://arxiv.org/pdf/{paper.arxiv_id}"
    return None


def front_matter_lines(paper: Paper) -> list[str]:
    """The `rl_cite:` entry of the page's front matter: the tags as HTML (escape.meta_tags)."""
    return [f"{KEY}: {escape.meta_tags(highwire_tags(paper))}"]
