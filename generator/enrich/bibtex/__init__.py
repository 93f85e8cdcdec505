"""BibTeX entries, written as pybtex's BibTeX writer writes them (its name format and brace check).

Types and fields follow what the digest says, never more:

- TMLR accepted: `@article`, journal, issn, year and month of the digest, the OpenReview url,
  certification labels in `note`;
- TMLR submission under review: `@misc`, `author = {Anonymous}` (double-blind), howpublished
  "Under review at ...", year, url;
- listing papers: `@misc` with the subject classes as `keywords`, the primary arXiv class as
  `primaryclass`, and `eprint`/`doi`/`url` only when the digest carries them.

Field values are LaTeX (made by `title.py`) and are written as they are. The text is made here
without pybtex's `Entry`, `Person` and `BibliographyData` (building them was half the time of an
entry, ten thousand times a build): tests/enrich/bibtex/pybtex_oracle.py builds them and has
pybtex's writer write the same entries, and the tests compare the two texts.
"""

from __future__ import annotations

import re
from dataclasses import replace

from pybtex.database.output.bibtex import Writer

from ...model import Library, Paper
from ...runtime.progress import track
from ...runtime.switches import memoized
from ...sources.dates import MONTH_NAMES
from ...sources.subjects import is_category
from .names import plain_fields, to_person
from .title import escape_text, latex_title

TMLR = "Transactions on Machine Learning Research"
TMLR_ISSN = "2835-8856"
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# Fields whose values BibTeX styles print verbatim (`\url`, `\doi`): not LaTeX-escaped.
VERBATIM_FIELDS = frozenset({"url", "doi", "eprint"})
_ARXIV_ID = re.compile(r"^(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?$")
_DOI = re.compile(r"^10\.\d{4,9}/[^\s{}\\\"%#]+$")
_BRACES = re.compile(r"[{}]")
_URL_UNSAFE = re.compile(r"[^A-Za-z0-9\-._~:/?\[\]@!$&'()*+,;=%#]")


class _LatexWriter(Writer):  # type: ignore[misc]
    """pybtex's BibTeX writer as `_write_named` uses it: its name format (`_format_name`) and
    its quoting, in braces and with a faster brace check."""

    def quote(self, s: str) -> str:
        # Braces, as most .bib files use, whether or not the value holds a `"`.
        self.check_braces(s)
        return "{" + s + "}"

    def check_braces(self, s: str) -> None:
        # pybtex's check walks every character in Python (a third of writing an entry). Braces that
        # never close more than they opened and end level are fine by pybtex too; anything else
        # goes to pybtex's own check and error.
        depth = 0
        for brace in _BRACES.findall(s):
            depth += 1 if brace == "{" else -1
            if depth < 0:
                break
        if depth:
            super().check_braces(s)


def safe_url(url: str | None) -> str | None:
    """An http(s) URL with anything that could break a `.bib` file or `\\url` percent-encoded."""
    if not url or not re.match(r"^https?://[^\s/]+", url):
        return None
    return _URL_UNSAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group(0).encode()), url)


def _year_month(paper: Paper) -> tuple[str | None, str | None]:
    year = paper.year
    if year is None:
        return None, None
    # A month is only known when the year is the digest's own (not a note's override).
    month = MONTHS[paper.date.month - 1] if paper.date and paper.date.year == year else None
    return str(year), month


def _title(paper: Paper) -> dict[str, str]:
    if paper.title_missing:
        # The page shows a placeholder; a citation must not carry a made-up title.
        return {}
    return {"title": latex_title(paper.title)}


def author_names(paper: Paper) -> list[str]:
    """The entry's authors as pybtex's writer writes each (`bib_name`: `Anonymous` for none,
    `others` after a truncated list); for an entry read from a .bib file, its author field as
    written."""
    if paper.bib_fields:
        return [value for name, value in paper.bib_fields if name == "author"]
    spelled = paper.bib_names or ("",) * len(paper.authors)
    names = [bib_name(a, o) for a, o in zip(paper.authors, spelled, strict=False)] or ["Anonymous"]
    if paper.authors and not paper.authors_complete:
        names.append("others")
    return names


# Memoized: 0.57 s (synthetic) and 0.52 s (seeded) of a 10,000-paper build (benchmark.md).
# READINGLIST_TEXT_CACHE=off turns it off (runtime/switches.memoized; the `no-text-cache` variant).
@memoized(65536)
def bib_name(name: str, override: str = "") -> str:
    """`_LatexWriter._format_name` of `to_person(name, override)`. For a name whose parts hold
    nothing pybtex's Person reads specially (most), written from the parts directly: building the
    Person splits each part character by character in Python, 40-60 µs a name, and a list of ten
    thousand papers has tens of thousands of authors (tests/enrich/bibtex/test_bibtex_writer.py
    compares the two)."""
    fields = plain_fields(name, override)
    if fields is None:
        return str(_WRITER._format_name(None, to_person(name, override)))
    first, middle, prelast, last, lineage = (" ".join(part.split()) for part in fields)
    # As pybtex's writer: `von Last`, then `, Jr`, then `, First Middle`; empty parts left out.
    out = " ".join(filter(None, (prelast, last))) if last else ""
    if lineage:
        out += f", {lineage}"
    if first or middle:
        out += ", " + " ".join(filter(None, (first, middle)))
    return out


def _imported(paper: Paper) -> tuple[str, dict[str, str]]:
    """An entry read from a .bib file: its type and its own fields as written, none dropped (the
    author goes first, as `author_names`), plus the identifiers other sources gave it."""
    fields = {name: value for name, value in paper.bib_fields if name != "author"}
    # pybtex expands `month = jun` to "June": written back as the macro, which bibtex prints and
    # biber reads as a month (a month as text is a biber warning).
    month = fields.get("month", "").strip().lower()
    if month in MONTH_NAMES:
        fields["month"] = MONTHS[MONTH_NAMES.index(month)]
    if "title" not in fields and not paper.title_missing:
        fields = {**_title(paper), **fields}  # an entry without a title, given one by a note
    present = set(fields)
    if paper.arxiv_id and _ARXIV_ID.match(paper.arxiv_id) and "eprint" not in present:
        fields["eprint"] = paper.arxiv_id
        fields["archiveprefix"] = "arXiv"
    if paper.doi and _DOI.match(paper.doi) and "doi" not in present:
        fields["doi"] = paper.doi
    url = safe_url(paper.url)
    if url and "url" not in present:
        fields["url"] = url
    return paper.bib_type or "misc", fields


def kind_and_fields(paper: Paper) -> tuple[str, dict[str, str]]:
    """The entry's type and its fields other than the authors (`author_names`), in the order
    they are written."""
    if paper.bib_fields:
        return _imported(paper)
    year, month = _year_month(paper)
    url = safe_url(paper.url)
    fields: dict[str, str] = _title(paper)
    if paper.venue == "TMLR" and paper.status == "accepted":
        kind = "article"
        fields["journal"] = TMLR
        fields["issn"] = TMLR_ISSN
    else:
        kind = "misc"
        if paper.venue == "TMLR" and paper.status == "under review":
            fields["howpublished"] = f"Under review at {TMLR}"
        elif paper.venue and paper.venue != "arXiv":
            fields["howpublished"] = escape_text(paper.venue)
    if year:
        fields["year"] = year
    if month and kind == "article":
        fields["month"] = month
    if paper.arxiv_id and _ARXIV_ID.match(paper.arxiv_id):
        fields["eprint"] = paper.arxiv_id
        fields["archiveprefix"] = "arXiv"
    classes = [c for c in paper.categories if is_category(c)]
    if classes and paper.venue == "arXiv":
        fields["primaryclass"] = classes[0]
    if paper.categories:
        fields["keywords"] = ", ".join(escape_text(c) for c in paper.categories)
    if paper.doi and _DOI.match(paper.doi):
        fields["doi"] = paper.doi
    if url:
        fields["url"] = url
    if paper.labels and kind == "article":
        fields["note"] = ", ".join(escape_text(label) for label in paper.labels)
    elif paper.journal_ref:
        # arXiv's journal reference is free text ("ApJ 750 (2012) 1"): kept whole as a note, not
        # split into journal, volume and pages it does not name as such.
        fields["note"] = escape_text(paper.journal_ref)
    return kind, fields


_WRITER = _LatexWriter(encoding="UTF-8")


def _write_named(key: str, kind: str, fields: dict[str, str], names: list[str]) -> str:
    """One entry as pybtex's writer writes it (its `write_stream`, months as macros), the authors
    already written as it writes names; every value's braces checked by the writer."""
    out = [f"@{kind}{{{key}"]
    if names:
        out.append(f",\n    author = {_WRITER.quote(' and '.join(names))}")
    for name, value in fields.items():
        if name == "month" and value in MONTHS:
            out.append(f",\n    month = {value}")
        else:
            out.append(f",\n    {name} = {_WRITER.quote(value)}")
    out.append("\n}\n")
    return "".join(out)


def block(paper: Paper, key: str | None = None) -> str:
    """The paper's entry as it appears in a `.bib` file (ends with a newline), under `key` (by
    default the paper's own)."""
    return _write_named(paper.key if key is None else key, *kind_and_fields(paper), author_names(paper))


def with_entries(library: Library) -> Library:
    """The BibTeX stage: every paper with its entry (`Paper.bibtex`), which its page,
    references.bib and the digest and tag files show. `enrich` gives each paper its entry as it
    gives it its key (one copy of each paper, not two); here, the papers without one get theirs
    (a note's title takes the entry made with the old title away: notes/apply.py)."""
    if all(paper.bibtex for paper in library.papers):
        return library
    papers = [p if p.bibtex else replace(p, bibtex=block(p)) for p in track(library.papers, "writing BibTeX")]
    return replace(library, papers=papers)


class MissingEntry(ValueError):
    """A paper reached the render stage without the entry `with_entries` gives every paper: a
    library that skipped the BibTeX stage (a bug in the caller, not in the input)."""

    def __init__(self, paper: Paper) -> None:
        super().__init__(f"paper {paper.key or paper.id!r} has no BibTeX entry: the library did not go "
                         "through the BibTeX stage (enrich.bibtex.with_entries)")


def _made(paper: Paper) -> str:
    if not paper.bibtex:
        raise MissingEntry(paper)
    return paper.bibtex


def entry_text(paper: Paper) -> str:
    """One entry, exactly what the page's copy button copies (no trailing newline): the text the
    BibTeX stage made (`with_entries`), never made here, so render only shows what enrich wrote."""
    return _made(paper).strip()


def bibliography(papers: list[Paper]) -> str:
    """A `.bib` file holding the given papers' entries as the BibTeX stage made them, in the given
    order (as pybtex writes several entries: each block ends with a newline, one blank line between)."""
    return "\n".join(_made(p) for p in papers)
