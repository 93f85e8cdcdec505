"""How a record is recognised: its stable id (OpenReview, arXiv or DOI id, else its title) and the
normalised title by which the same paper is found again in another digest or in the registry."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlparse

if TYPE_CHECKING:
    from ..model import Paper

# New-style ids (`2306.06130`, with or without `v2`) and old-style ones (`cond-mat/0412498`,
# `math.GT/0309136`), after `arxiv.org/abs/`, `arxiv.org/pdf/` or `arXiv:`.
_ARXIV_ID = re.compile(r"(?:arxiv\.org/(?:abs|pdf)/|arXiv:)\s*(\d{4}\.\d{4,5}|[a-z]+(?:-[a-z]+)?(?:\.[A-Z]{2})?/\d{7})"
                       r"(?:v\d+)?(?![\d.])", re.I)
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+[^\s\"<>.,;])")

_COMMAND = re.compile(r"\\[a-z]+")
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


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
    norm = "" if missing_title else normalise_title(title)
    if not norm:
        digest = hashlib.sha1(" ".join(abstract.split()).encode()).hexdigest()[:12]
        return f"untitled:{digest}"
    return f"title:{norm}"


def match_keys(paper: Paper) -> list[tuple[str, str]]:
    """The identifiers by which two records are one paper (enrich/merge.py), and by which `add ID`
    finds a paper the list has (fetch/command.py): its id, arXiv id, DOI (any case), OpenReview id."""
    keys = [("id", paper.id)]
    if paper.arxiv_id:
        keys.append(("arxiv", paper.arxiv_id))
    if paper.doi:
        keys.append(("doi", paper.doi.lower()))
    if paper.openreview_id:
        keys.append(("openreview", paper.openreview_id))
    return keys
