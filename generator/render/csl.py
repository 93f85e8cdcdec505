"""A paper as a CSL-JSON item: what `references.json` holds and what formatted references are made from.

The item says what the BibTeX entry says (enrich/bibtex), in CSL's words:

- TMLR accepted: `article-journal` in "Transactions on Machine Learning Research", ISSN 2835-8856;
- TMLR under review: `article` (CSL's type for preprints and manuscripts) with
  `genre` "Under review at Transactions on Machine Learning Research" and `publisher` OpenReview;
- a listing paper: `article` with `publisher` arXiv, `genre` "Preprint" (APA prints "[Preprint].
  arXiv."), or "arXiv preprint" and the id as `number` when the digest names the id.

A paper read from a .bib file is what its entry says instead (render/cslbib.py): the entry's type
(`@inproceedings` -> `paper-conference`, `@article` -> `article-journal`, `@book` -> `book`, ...)
and every field a citation prints (container, volume, issue, pages, publisher, editors, ...), dated
with the date parts the entry has and no more.

`id` is the citation key. Names are split as the BibTeX entry splits them (names.split_name, or
the curator's spelling from content/names.yml): `van der Waals` keeps its particle as CSL's
`non-dropping-particle`. A submission without authors is by `Anonymous` (as its BibTeX entry); a
truncated author list ends with `{"literal": "others"}`, which is how pandoc writes BibTeX's
`and others` in CSL-JSON (its citeproc prints "et al."). The title is plain text (`title_text`);
the untitled paper has none (its page shows a placeholder, which a citation must not carry).
"""

from __future__ import annotations

import re
from typing import Any

from ..enrich.bibtex import TMLR, TMLR_ISSN
from ..enrich.bibtex.names import kept_whole, split_name
from ..enrich.display import title_text
from ..model import Paper
from ..runtime.switches import memoized
from ..sources.bibquirks import braced
from .cslbib import bib_accessed, bib_csl_fields, bib_editors, bib_issued, bib_subtitle, bib_type

OTHERS = {"literal": "others"}
ANONYMOUS = {"literal": "Anonymous"}
# What an arXiv id and a DOI must look like to be written as one (here and in the Highwire tags,
# render/highwire.py); anything else is left out.
ARXIV_ID = re.compile(r"^(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?$")
DOI = re.compile(r"^10\.\d{4,9}/\S+$")
_URL = re.compile(r"^https?://[^\s<>\"]+$", re.I)


def csl_item(paper: Paper, *, abstract: bool = True) -> dict[str, Any]:
    """The CSL-JSON item of `paper` (without its abstract when `abstract` is False)."""
    item: dict[str, Any] = {"id": paper.key}
    own: dict[str, Any] = {}
    if paper.bib_fields:  # read from a .bib file: its own type and fields (render/cslbib.py)
        kind = bib_type(paper)
        if kind == "document" and _arxiv(paper) and not bib_csl_fields(paper, kind).get("container-title"):
            kind = "article"  # an arXiv preprint (`@misc` with an `eprint`): as a listing paper's item
        item["type"] = kind
        own = bib_csl_fields(paper, kind)
        if kind == "article":
            own.setdefault("publisher", "arXiv")
            own.setdefault("genre", "arXiv preprint")
    elif paper.venue == "TMLR" and paper.status == "accepted":
        item["type"] = "article-journal"
        item["container-title"] = TMLR
        item["ISSN"] = TMLR_ISSN
    else:
        item["type"] = "article"
        if paper.venue == "TMLR":
            item["genre"] = f"Under review at {TMLR}" if paper.status == "under review" else TMLR
            item["publisher"] = "OpenReview"
        elif paper.venue and paper.venue != "arXiv":
            item["publisher"] = " ".join(paper.venue.split())
        else:
            item["publisher"] = "arXiv"
            item["genre"] = "arXiv preprint" if _arxiv(paper) else "Preprint"
    if not paper.title_missing:
        title = title_text(paper.title)
        subtitle = bib_subtitle(paper) if paper.bib_fields else ""
        if title and subtitle:  # BibLaTeX's `subtitle`, joined as pandoc and biblatex join it
            title = f"{title} {subtitle}" if title.endswith((":", "?", "!", ".")) else f"{title}: {subtitle}"
        if title:
            item["title"] = title
    item["author"] = csl_names(paper)
    for role in ("editor", "translator"):
        people = bib_editors(paper, role) if paper.bib_fields else []
        if people:
            item[role] = people
    if not paper.authors and item.get("editor"):
        del item["author"]  # an edited book is cited by its editors (`Y. Osaki and H. Shibahashi, Eds.`)
    issued = bib_issued(paper) if paper.bib_fields else _issued(paper)
    if issued:
        item["issued"] = {"date-parts": [issued]}
    accessed = bib_accessed(paper) if paper.bib_fields else []
    if accessed:
        item["accessed"] = {"date-parts": [accessed]}
    item.update(own)
    ident = paper.arxiv_id
    if ident and _arxiv(paper):
        if item["type"] == "article":
            # The bare id (Zotero writes `number = {arXiv:2005.07513}`: IEEE's `arXiv: arXiv:...`).
            if ident in str(item.get("number", ident)):
                item["number"] = ident
        else:
            item["note"] = f"arXiv:{ident}"
    if paper.doi and DOI.match(paper.doi):
        item["DOI"] = paper.doi
    if paper.url and _URL.match(paper.url.strip()):
        item["URL"] = paper.url.strip()
    elif paper.bib_fields and ident and _arxiv(paper):
        # An entry's `eprint` (archivePrefix arXiv, or eprinttype): its abstract page, as pandoc
        # reads it, so every formatted reference and export carries it.
        item["URL"] = f"https://arxiv.org/abs/{ident}"
    if abstract and paper.abstract.strip():
        item["abstract"] = " ".join(paper.abstract.split())
    return item


def short(item: dict[str, Any]) -> dict[str, Any]:
    """The item without its abstract: its last key, so the rest is what csl_item(..., abstract=False)
    gives, in the same order (tests/render/test_citation_exports.py)."""
    return {k: v for k, v in item.items() if k != "abstract"}


def _arxiv(paper: Paper) -> bool:
    return bool(paper.arxiv_id and ARXIV_ID.match(paper.arxiv_id))


def csl_names(paper: Paper) -> list[dict[str, str]]:
    """The authors as CSL names: `Anonymous` for none, `others` after a truncated list."""
    if not paper.authors:
        return [dict(ANONYMOUS)]
    spelled = paper.bib_names or ("",) * len(paper.authors)
    names = [dict(csl_name(a, o)) for a, o in zip(paper.authors, spelled, strict=False)]
    if not paper.authors_complete:
        names.append(dict(OTHERS))
    return names


# Memoized: 0.11 s and 0.10 s of a build (benchmark.md).
# READINGLIST_TEXT_CACHE=off turns it off (runtime/switches.memoized; the `no-text-cache` variant).
@memoized(65536)
def csl_name(name: str, override: str = "") -> tuple[tuple[str, str], ...]:
    """One display name as CSL name parts (as key/value pairs: cached, so immutable)."""
    name = " ".join(name.split())
    if braced(override):  # a corporate `{IceCube Collaboration}` (sources/bibquirks.py): one name
        return (("literal", " ".join(override.strip()[1:-1].split())),)
    if override:
        from pybtex.database import Person

        person = Person(override)
        given = " ".join(person.first_names + person.middle_names)
        # A family name kept braced (`du {Mas des Bourboux}`, sources/bibfile.py) without its braces.
        prelast, last = " ".join(person.prelast_names), " ".join(person.last_names).replace("{", "").replace("}", "")
        lineage = " ".join(person.lineage_names)
    elif kept_whole(name) or " " not in name:
        return (("literal", name),) if kept_whole(name) else (("family", name),)
    else:
        parts = split_name(name)
        given, prelast = " ".join(parts.first), " ".join(parts.prelast)
        last, lineage = " ".join(parts.last), " ".join(parts.lineage)
    out = [("family", last)]
    if given:
        out.append(("given", given))
    if prelast:
        out.append(("non-dropping-particle", prelast))
    if lineage:
        out.append(("suffix", lineage))
    return tuple(out)


def _issued(paper: Paper) -> list[int]:
    """[year, month] as the BibTeX entry dates it (the month only with the digest's own year)."""
    year = paper.year
    if year is None:
        return []
    if paper.date and paper.date.year == year:
        return [year, paper.date.month]
    return [year]
