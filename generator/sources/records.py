"""What a reader makes: the digest it returns (`RawDigest`) and the papers in it, with the rules
every reader applies alike: a placeholder for a missing title, a preprint's published status,
arXiv's hyphenated initials, and `arxiv_paper`, the one constructor of a paper announced by arXiv.
How a paper is identified (its id, its normalised title) is in ids.py."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from ..model import Paper, SourceRef
from .ids import record_id
from .subjects import distinct_categories

# Longer than any real title: most likely a paste that lost its line breaks (reported, kept).
LONG_TITLE = 1000


@dataclass
class RawDigest:
    """What a reader returns: the digest's own facts and its papers in file order."""

    path: str
    format: str
    title: str
    date: dt.date | None
    date_source: str
    papers: list[Paper] = field(default_factory=list)


def placeholder_title(authors: tuple[str, ...], abstract: str) -> str:
    """A readable stand-in for a missing title, so the paper is kept and findable."""
    words = abstract.split()[:8]
    lead = " ".join(words).rstrip(",.;:") + ("…" if len(abstract.split()) > 8 else "")
    by = f" by {authors[0]}{' et al.' if len(authors) > 1 else ''}" if authors else ""
    return f"Untitled paper{by}: {lead}" if lead else f"Untitled paper{by}"


# arXiv's own DOIs (`10.48550/arXiv.2306.06130`, DataCite) name the preprint, not a publication.
_ARXIV_DOI = "10.48550/"


def published_status(status: str, journal_ref: str, found_doi: str | None) -> str:
    """"published" for a preprint whose record gives a journal reference or a publisher's DOI."""
    if status == "preprint" and (journal_ref or (found_doi and not found_doi.lower().startswith(_ARXIV_DOI))):
        return "published"
    return status


_SPLIT_INITIAL = re.compile(r"(?<=[A-Z]\.)\s+-(?=[A-Z])")


def tidy_initials(name: str) -> str:
    """arXiv's metadata writes a hyphenated given name's initials with a space (`P. -N. Roy`, for
    Pierre-Nicholas): BibTeX and the styles want them joined (`P.-N. Roy`)."""
    return _SPLIT_INITIAL.sub("-", name) if " -" in name else name


def arxiv_paper(ident: str, title: str, authors: tuple[str, ...], abstract: str, where: SourceRef,
                *, complete: bool = True, **fields: Any) -> Paper:
    """A paper announced by arXiv (e-mail, API, feed): its id, abstract page and venue from the
    arXiv id, a placeholder title when it has none; `fields`: the rest of what the record says
    (its categories once each: an alias of one named before is left out)."""
    if "categories" in fields:
        fields["categories"] = distinct_categories(fields["categories"])
    pid = record_id(title, abstract, arxiv=ident, missing_title=not title)
    return Paper(
        id=pid,
        title=title or placeholder_title(authors, abstract),
        authors=tuple(tidy_initials(a) for a in authors),
        authors_complete=complete,
        abstract=abstract,
        origin=where,
        url=f"https://arxiv.org/abs/{ident}",
        venue="arXiv",
        status=published_status("preprint", fields.get("journal_ref", ""), fields.get("doi")),
        title_missing=not title,
        arxiv_id=ident,
        sources=(where,),
        aliases=(pid,),
        **fields,
    )
