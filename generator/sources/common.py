"""What every reader shares: the raw result type and the id helpers."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qs, urlparse

from ..model import Paper, SourceRef
from .subjects import distinct_categories

# Longer than any real title: most likely a paste that lost its line breaks (reported, kept).
LONG_TITLE = 1000
# New-style ids (`2306.06130`, with or without `v2`) and old-style ones (`cond-mat/0412498`,
# `math.GT/0309136`), after `arxiv.org/abs/`, `arxiv.org/pdf/` or `arXiv:`.
_ARXIV_ID = re.compile(r"(?:arxiv\.org/(?:abs|pdf)/|arXiv:)\s*(\d{4}\.\d{4,5}|[a-z]+(?:-[a-z]+)?(?:\.[A-Z]{2})?/\d{7})"
                       r"(?:v\d+)?(?![\d.])", re.I)
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+[^\s\"<>.,;])")


@dataclass
class RawDigest:
    """What a reader returns: the digest's own facts and its papers in file order."""

    path: str
    format: str
    title: str
    date: dt.date | None
    date_source: str
    papers: list[Paper] = field(default_factory=list)


_COMMAND = re.compile(r"\\[a-z]+")
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


# Asked for several times per paper (ids, duplicates in a digest, merging across digests).
@lru_cache(maxsize=1 << 16)
def normalise_title(title: str) -> str:
    """Case-, accent- and punctuation-insensitive form used to recognise the same paper twice."""
    if title.isascii():  # nothing to decompose (most titles): skip the walk over every character
        text = title.lower()
    else:
        text = unicodedata.normalize("NFKD", title)
        text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    if "\\" in text:
        text = _COMMAND.sub(" ", text)
    norm = _NOT_ALNUM.sub("-", text).strip("-")
    if len(norm) <= 120:
        return norm
    # Bounded, but two long titles that differ only after the cut stay two papers.
    return f"{norm[:107]}-{hashlib.sha1(norm.encode()).hexdigest()[:12]}"


def openreview_id(url: str | None) -> str | None:
    if not url or "openreview.net" not in url:
        return None
    values = parse_qs(urlparse(url).query).get("id")
    return values[0] if values and re.fullmatch(r"[A-Za-z0-9_-]{4,40}", values[0]) else None


def arxiv_id(text: str | None) -> str | None:
    m = _ARXIV_ID.search(text or "")
    return m.group(1) if m else None


def doi(text: str | None) -> str | None:
    m = _DOI.search(text or "")
    return m.group(1) if m else None


def record_id(title: str, abstract: str, *, openreview: str | None = None,
              arxiv: str | None = None, doi: str | None = None, missing_title: bool = False) -> str:
    """A stable id: the OpenReview, arXiv or DOI id where known, else the normalised title."""
    if openreview:
        return f"openreview:{openreview}"
    if arxiv:
        return f"arxiv:{arxiv}"
    if doi:
        return f"doi:{doi.lower()}"
    if missing_title or not normalise_title(title):
        digest = hashlib.sha1(" ".join(abstract.split()).encode()).hexdigest()[:12]
        return f"untitled:{digest}"
    return f"title:{normalise_title(title)}"


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
    return Paper(
        id=record_id(title, abstract, arxiv=ident, missing_title=not title),
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
        **fields,
    )
