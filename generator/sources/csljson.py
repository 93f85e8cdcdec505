"""Reader for CSL-JSON: what doi.org answers for a DOI (`Accept: application/vnd.citationstyles.csl+json`,
Crossref and DataCite alike, one item) and what Zotero, Better BibTeX and pandoc export (a list).

    [{"id": "vanderwaals1873", "type": "article-journal", "title": "...",
      "author": [{"family": "Waals", "given": "Johannes Diderik", "non-dropping-particle": "van der"}],
      "container-title": "Physical Review B", "volume": "85", "issue": "11", "page": "115117",
      "issued": {"date-parts": [[2012, 3, 15]]}, "DOI": "10.1103/...", "abstract": "<jats:p>...</jats:p>"}]

Each item becomes a paper whose BibTeX entry is the item in BibTeX's words (`article-journal` ->
`@article` with journal, volume, number, pages; `paper-conference` -> `@inproceedings` with
booktitle; `chapter` -> `@incollection`; ...), written as a .bib file's entry is (`bib_fields`, TeX),
so its page, its citations and its exports show the venue, volume and pages the record gives.
Names keep their parts: `van der` stays the particle of `Waals`, `Del Maestro` one family name.
A published item (journal, proceedings, chapter, book) reads as published, with a reference line
(`Physical Review B 85, 115117 (2012)`) for its badge. An item's `id` that looks like a citation key
(pandoc's and Better BibTeX's, not a URL) is pinned as a .bib file's key is. Rich text (`<i>`,
JATS) is read as plain text. The file's date, when its name has one, is taken quietly: its items
carry their own dates.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from ..errors import Problems
from ..model import Paper, SourceRef
from .ids import arxiv_id, doi, record_id
from .jsondoc import element_lines, load, paragraphs, plain
from .records import RawDigest, placeholder_title
from .textex import bib_name, escape_text, latex_title

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")

FORMAT = "csl-json"
# CSL types -> BibTeX entry types (pandoc's mapping, reversed); `misc` for the rest.
_BIBTEX = {"article-journal": "article", "article-magazine": "article", "article-newspaper": "article",
           "paper-conference": "inproceedings", "chapter": "incollection", "book": "book",
           "report": "techreport", "thesis": "phdthesis", "manuscript": "unpublished"}
_PUBLISHED = {"article-journal", "article-magazine", "article-newspaper", "paper-conference", "chapter", "book"}
_CITEKEY = re.compile(r"^[A-Za-z][\w:.+-]{0,79}$")
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.I)


def items(data: Any) -> list[dict[str, Any]] | None:
    """The CSL items of a parsed JSON document, or None when it is not CSL-JSON."""
    found = [data] if isinstance(data, dict) else data if isinstance(data, list) else None
    if not found or not all(isinstance(x, dict) for x in found):
        return None
    if all(isinstance(x.get("type"), str) and ({"title", "author", "DOI", "container-title"} & x.keys())
           and "content" not in x for x in found):
        return found
    return None


def detect(text: str) -> bool:
    return items(load(text)) is not None


def _text(item: dict[str, Any], key: str) -> str:
    value = item.get(key)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return plain(value)


def _date(item: dict[str, Any]) -> list[int]:
    """[year], [year, month] or [year, month, day] of the item's `issued` date."""
    for key in ("issued", "published-print", "published-online", "created"):
        value = item.get(key)
        if not isinstance(value, dict):
            continue
        parts = value.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list):
            out = []
            for part in parts[0][:3]:
                try:
                    out.append(int(part))
                except (TypeError, ValueError):
                    break
            if out and 1000 <= out[0] <= 9999:
                return out
        raw = re.match(r"(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?", str(value.get("raw", "")))
        if raw:
            return [int(g) for g in raw.groups() if g]
    return []


def _as_date(parts: list[int]) -> dt.date | None:
    try:
        return dt.date(parts[0], parts[1] if len(parts) > 1 else 1, parts[2] if len(parts) > 2 else 1)
    except (IndexError, ValueError):
        return dt.date(parts[0], 1, 1) if parts else None


def _name(person: Any) -> tuple[str, str, str] | None:
    """(display name, `von Last, Jr, First` spelling, BibTeX name) of a CSL name."""
    if not isinstance(person, dict):
        return None
    literal = plain(person.get("literal"))
    if literal:
        return literal, "", "{" + escape_text(literal) + "}"
    family = plain(person.get("family"))
    given = plain(person.get("given"))
    if not family:
        return (given, "", escape_text(given)) if given else None
    particle = " ".join(p for p in (plain(person.get("dropping-particle")),
                                    plain(person.get("non-dropping-particle"))) if p)
    suffix = plain(person.get("suffix"))
    last = f"{particle} {family}" if particle else family
    display = " ".join(p for p in (given, last) if p) + (f", {suffix}" if suffix else "")
    spelled = ", ".join(p for p in (last, suffix, given) if p)
    if any(c in spelled for c in "{}\\") or re.search(r"\band\b", spelled) or spelled.count(",") > 2:
        return display, "", "{" + escape_text(display) + "}"
    return display, spelled, bib_name(last, suffix, given)


def _names(item: dict[str, Any], key: str) -> list[tuple[str, str, str]]:
    value = item.get(key)
    return [n for n in (_name(p) for p in value) if n] if isinstance(value, list) else []


def _fields(item: dict[str, Any], kind: str, title: str, issued: list[int]) -> list[tuple[str, str]]:
    """The item as a BibTeX entry's fields (TeX, as a .bib file has them), in the usual order."""
    out: list[tuple[str, str]] = []
    if title:
        out.append(("title", latex_title(title)))
    container = _text(item, "container-title")
    if container:
        out.append(("booktitle" if kind in {"inproceedings", "incollection"} else "journal", escape_text(container)))
    editors = _names(item, "editor")
    if editors:
        out.append(("editor", " and ".join(n[2] for n in editors)))
    for field, key in (("series", "collection-title"), ("volume", "volume"), ("number", "issue"),
                       ("number", "number"), ("pages", "page"), ("pages", "article-number"), ("edition", "edition")):
        value = _text(item, key)
        if value and field not in dict(out):
            out.append((field, escape_text(re.sub(r"\s*[-‐‑–—]+\s*", "--", value) if field == "pages" else value)))
    if issued:
        out.append(("year", str(issued[0])))
        if len(issued) > 1 and 1 <= issued[1] <= 12:
            out.append(("month", MONTHS[issued[1] - 1]))
    for field, key in (("publisher", "publisher"), ("address", "publisher-place"), ("isbn", "ISBN"),
                       ("issn", "ISSN")):
        given = item.get(key)
        text = ", ".join(plain(v) for v in given if plain(v)) if isinstance(given, list) else _text(item, key)
        if text:
            out.append((field, escape_text(text)))
    return out


def _arxiv(item: dict[str, Any], found_doi: str | None) -> str | None:
    m = _ARXIV_DOI.match(found_doi or "")
    if m:
        return arxiv_id(f"arXiv:{m.group(1)}")
    number = _text(item, "number")
    return arxiv_id(_text(item, "URL")) or (arxiv_id(number) if number.lower().startswith("arxiv:") else None)


def _reference(container: str, item: dict[str, Any], year: int | None) -> str:
    """`Physical Review B 85, 115117 (2012)`: the line a published paper's badge shows."""
    volume, page = _text(item, "volume"), _text(item, "page") or _text(item, "article-number")
    out = f"{container} {volume}".strip() if volume else container
    out += f", {page}" if page else ""
    return out + (f" ({year})" if year else "")


def _paper(item: dict[str, Any], line: int, path: str, problems: Problems) -> Paper:
    where = SourceRef(path, line)
    csl_type = str(item.get("type", ""))
    title = plain(item.get("title"))
    authors = _names(item, "author")
    names = tuple(n[0] for n in authors)
    spelled = tuple(n[1] for n in authors)
    abstract = paragraphs(item.get("abstract"))
    found_doi = doi(_text(item, "DOI"))
    ident = _arxiv(item, found_doi)
    issued = _date(item)
    container = _text(item, "container-title")
    publisher = _text(item, "publisher")
    published = csl_type in _PUBLISHED and bool(container or (csl_type == "book" and publisher))
    kind = _BIBTEX.get(csl_type, "misc")
    if not title:
        problems.warn(path, line, "a CSL item with no title; kept, with a placeholder title on its page")
    key = item.get("id")
    url = _text(item, "URL")
    if found_doi and re.match(r"^https?://(dx\.)?doi\.org/", url, re.I):
        url = f"https://doi.org/{found_doi}"
    pid = record_id(title, abstract, arxiv=ident, doi=None if ident else found_doi, missing_title=not title)
    return Paper(
        id=pid,
        title=title or placeholder_title(names, abstract),
        authors=names,
        abstract=abstract,
        origin=where,
        url=url if url.startswith(("http://", "https://")) else (f"https://doi.org/{found_doi}" if found_doi else None),
        venue=container or publisher or ("arXiv" if ident else ""),
        status="published" if published else "preprint",
        title_missing=not title,
        arxiv_id=ident,
        doi=found_doi,
        date=_as_date(issued),
        sources=(where,),
        journal_ref=_reference(container, item, issued[0] if issued else None) if published and container else "",
        bib_key=key if isinstance(key, str) and _CITEKEY.match(key) else "",
        bib_type=kind,
        bib_fields=(("author", " and ".join(n[2] for n in authors)),) * bool(authors)
        + tuple(_fields(item, kind, title, issued)),
        bib_names=spelled if any(spelled) else (),
        aliases=(pid,),
    )


def read(path: str, text: str, problems: Problems) -> RawDigest:
    found = items(load(text)) or []
    lines = element_lines(text)
    papers = [_paper(item, lines[n] if n < len(lines) else 1, path, problems) for n, item in enumerate(found)]
    name = path.rsplit("/", 1)[-1]
    # doi.org's answer for one DOI is named by the DOI; a file of a reference manager by its name.
    title = f"DOI {papers[0].doi}" if len(found) == 1 and papers[0].doi else f"CSL-JSON file {name}"
    return RawDigest(path=path, format=FORMAT, title=title, date=None, date_source="", papers=papers)
