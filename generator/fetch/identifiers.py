"""What `readinglist add` takes for an identifier: an arXiv id (new style `2306.06130`, old style
`hep-th/9901001`, versioned or not, with or without `arXiv:`), a DOI (`10.1103/PhysRevB.85.115117`,
`doi:...`), or the address of an arXiv abstract or PDF, a doi.org link or an OpenReview forum or PDF
page. An argument that names an existing file or folder is a file, whatever it looks like."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

_NEW = r"\d{4}\.\d{4,5}"
_OLD = r"[a-z]+(?:-[a-z]+)*(?:\.[A-Z]{2})?/\d{7}"
_ARXIV = re.compile(rf"^(?:arxiv:\s*)?({_NEW}|{_OLD})(v\d+)?$", re.I)
_ARXIV_PATH = re.compile(rf"^/(?:abs|pdf)/({_NEW}|{_OLD})(v\d+)?(?:\.pdf)?/?$", re.I)
_DOI = re.compile(r"^(?:doi:\s*)?(10\.\d{4,9}/\S+)$", re.I)
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.I)
_BARE_HOST = re.compile(r"^(?:www\.|export\.)?(?:arxiv\.org|openreview\.net|(?:dx\.)?doi\.org)/", re.I)
_FORUM = re.compile(r"^[A-Za-z0-9_-]{4,40}$")


@dataclass(frozen=True)
class Identifier:
    """One identifier as given (`given`) and what it names: `kind` arxiv, doi or openreview, and
    `value` the id (an arXiv id keeps its version: that version is asked for)."""

    given: str
    kind: str
    value: str

    @property
    def base(self) -> str:
        """The id that recognises the paper: an arXiv id without its version, a DOI in lower case."""
        if self.kind == "arxiv":
            return re.sub(r"v\d+$", "", self.value)
        return self.value.lower() if self.kind == "doi" else self.value

    def __str__(self) -> str:
        return self.given


def parse(text: str) -> Identifier | None:
    """The identifier `text` is, or None."""
    given = text
    text = text.strip()
    m = _ARXIV.match(text)
    if m:
        return Identifier(given, "arxiv", _arxiv(m.group(1), m.group(2))) if _possible(m.group(1)) else None
    m = _DOI.match(text)
    if m:
        return _from_doi(given, m.group(1))
    if "://" not in text and _BARE_HOST.match(text):
        text = "https://" + text
    url = urlparse(text)
    host = (url.hostname or "").lower()
    if url.scheme not in {"http", "https"}:
        return None
    if host in {"arxiv.org", "www.arxiv.org", "export.arxiv.org"}:
        m = _ARXIV_PATH.match(url.path)
        return Identifier(given, "arxiv", _arxiv(m.group(1), m.group(2))) if m and _possible(m.group(1)) else None
    if host in {"doi.org", "dx.doi.org", "www.doi.org"}:
        m = _DOI.match(unquote(url.path.lstrip("/")))
        return _from_doi(given, m.group(1)) if m else None
    if host in {"openreview.net", "www.openreview.net"} and url.path.rstrip("/") in {"/forum", "/pdf"}:
        ids = parse_qs(url.query).get("id", [])
        return Identifier(given, "openreview", ids[0]) if ids and _FORUM.match(ids[0]) else None
    return None


def _possible(ident: str) -> bool:
    """A new-style id's month is 01-12, and its number has 4 digits up to 1412, 5 from 1501 on."""
    if "/" in ident:
        return True
    yymm, number = ident.split(".")
    return 1 <= int(yymm[2:]) <= 12 and len(number) == (5 if int(yymm) >= 1501 else 4)


def _arxiv(ident: str, version: str | None) -> str:
    # Old-style archives are lower case (`hep-th`), a subject class upper case (`math.GT`).
    if "/" in ident:
        archive, number = ident.split("/")
        name, _, subject = archive.partition(".")
        ident = f"{name.lower()}{'.' + subject.upper() if subject else ''}/{number}"
    return ident + (version.lower() if version else "")


def _from_doi(given: str, value: str) -> Identifier:
    value = value.rstrip(".,;")
    m = _ARXIV_DOI.match(value)  # arXiv's own DOI names the preprint: asked of arXiv
    am = _ARXIV.match(m.group(1)) if m else None
    if am and _possible(am.group(1)):
        return Identifier(given, "arxiv", _arxiv(am.group(1), am.group(2)))
    return Identifier(given, "doi", value)


def split(arguments: list[str]) -> tuple[list[Identifier], list[str]]:
    """(identifiers, files): an argument naming an existing path is a file; one that parses as an
    identifier is an identifier; anything else is left to the file handling (which says so)."""
    identifiers: list[Identifier] = []
    files: list[str] = []
    for arg in arguments:
        ident = None if Path(arg).exists() else parse(arg)
        if ident is None:
            files.append(arg)
        else:
            identifiers.append(ident)
    return identifiers, files
