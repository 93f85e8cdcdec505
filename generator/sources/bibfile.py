"""Reader for BibTeX and BibLaTeX files (`.bib`), through pybtex.

Every entry becomes a paper and keeps its key: the key is pinned as a note's `citekey:` is
(enrich/__init__.py), and the BibTeX the site shows for the paper is the entry's own fields,
as written (enrich/bibtex). The pages show the fields' TeX as Unicode text (sources/tex.py).

Each entry is parsed on its own (with the file's `@string` definitions before it), so a syntax
error costs that entry only: it is reported with its line, and the others are read.
"""

from __future__ import annotations

import datetime as dt
import re

from pybtex.database import BibliographyDataError, Entry, Person
from pybtex.database.input.bibtex import DuplicateField
from pybtex.scanner import PybtexError

from ..errors import Problems
from ..model import Paper, SourceRef
from .bibquirks import (
    JOURNAL_FIELDS,
    LenientParser,
    aas_dashes,
    ads_journals,
    ambiguous_names,
    corporate,
    duplicate_field_name,
    field_line,
    journal_macro,
    one_group,
)
from .dates import MONTH_NAMES
from .ids import arxiv_id, doi, openreview_id, record_id
from .records import RawDigest, placeholder_title, published_status
from .tex import tex_paragraphs, tex_title, tex_to_text

FORMAT = "bibtex"
_ENTRY_START = re.compile(r"(?m)^[ \t]*@[ \t]*([A-Za-z]+)[ \t]*[{(]")
_ARXIV_JOURNAL = re.compile(r"(?i)^arxiv(?:\s+e-prints?|\s+preprint\b.*|:\s*\S+(?:\s+\[[^\]]*\])?)?$")
# DBLP writes an arXiv paper as `journal = {CoRR}, volume = {abs/2310.18042}` (CoRR, the Computing
# Research Repository, is arXiv's computer-science part): a preprint with that arXiv id.
_CORR = re.compile(r"(?i)^(?:CoRR|Computing Research Repository)$")
_CORR_VOLUME = re.compile(r"^\s*abs/(\S+)\s*$")
# Preprint servers other than arXiv that exporters write as a journal (DBLP: `IACR Cryptol. ePrint
# Arch.`; bioRxiv's and medRxiv's own exports): the paper is a preprint, whatever its DOI.
_PREPRINT_SERVER = re.compile(r"(?i)^(?:(?:IACR\s+)?Cryptol(?:ogy|\.)\s+e-?Print\s+Arch(?:ive|\.)|bioRxiv|medRxiv|"
                              r"ChemRxiv)$")
_MONTHS = {m: n for n, m in enumerate(MONTH_NAMES, start=1)}
# Types whose entries are published work (a journal, proceedings, a book): "accepted" on the page.
_PUBLISHED = {"article", "inproceedings", "conference", "incollection", "book", "inbook", "phdthesis",
              "mastersthesis", "thesis", "proceedings"}
# Types whose venue is who published them (a book's publisher, a thesis' school), not a container.
_PUBLISHER_VENUE = {"book": ("publisher",), "mvbook": ("publisher",), "proceedings": ("publisher", "organization"),
                    "collection": ("publisher",), "manual": ("organization", "publisher"),
                    "phdthesis": ("school", "institution"), "mastersthesis": ("school", "institution"),
                    "thesis": ("school", "institution"), "techreport": ("institution",),
                    "report": ("institution",)}


def detect(text: str) -> bool:
    head = text.lstrip("\ufeff")[:20000]
    if "@" not in head:
        return False  # no entry (every other digest), without a search from each line's start
    found = [m.group(1).lower() for m in _ENTRY_START.finditer(head)]
    return any(kind not in {"comment", "preamble", "string"} for kind in found) and "=" in head


def _chunks(text: str) -> list[tuple[int, str, str]]:
    """(line, type, text) of each `@...` block, in file order."""
    starts = [(m.start(), m.group(1).lower()) for m in _ENTRY_START.finditer(text)]
    out = []
    for i, (at, kind) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
        out.append((text.count("\n", 0, at) + 1, kind, text[at:end]))
    return out


def _name(person: Person) -> str:
    parts = person.first_names + person.middle_names + person.prelast_names + person.last_names
    name = tex_to_text(" ".join(parts))
    return f"{name}, {tex_to_text(' '.join(person.lineage_names))}" if person.lineage_names else name


def _spelled(person: Person) -> str:
    """The entry's own split of a name, `von Last, Jr, First` in plain text (what content/names.yml
    holds), so that `Dreo Rodosek, Gabi` or `{Del Maestro}, Adrian` is written back as the .bib
    wrote it rather than split again from the display name; "" (the automatic split) for a name
    that plain text cannot carry. A corporate name (`{Research and Development Team}`) is kept
    braced: one literal name for every later stage."""
    if corporate(person):  # `{IceCube Collaboration}`: one name, kept braced (sources/bibquirks.py)
        return "{" + " ".join(tex_to_text(person.last_names[0]).split()) + "}"
    family = tex_to_text(" ".join(person.prelast_names + person.last_names))
    lineage = tex_to_text(" ".join(person.lineage_names))
    given = tex_to_text(" ".join(person.first_names + person.middle_names))
    parts = (family, lineage, given)
    kept = _braced_family(person)
    if kept and not lineage and given and not any(c in given for c in ",{}\\"):
        return f"{kept}, {given}"
    if family and lineage and not given and not any(c in family + lineage for c in ",{}\\"):
        return f"{family}, {lineage},"  # `Niedoba, Matthew,`: BibTeX's Jr part and no given name
    if not family or (lineage and not given) or any(
            "," in p or re.search(r"\band\b", p) or any(c in p for c in "{}\\") for p in parts):
        return ""
    return ", ".join(p for p in parts if p)


def _braced_family(person: Person) -> str:
    """`du {Mas des Bourboux}` for `{du Mas des Bourboux}, Hélion`: a braced family name whose
    lower-case inner word a new split would take for a particle (`des`). Its leading lower-case
    words are the particle, as pandoc reads them (`{de la Torre}`: `de la` + `Torre`); the rest
    stays braced, one family name. "" for any other name."""
    if person.prelast_names or len(person.last_names) != 1 or not one_group(person.last_names[0]):
        return ""
    words = tex_to_text(person.last_names[0]).split()
    lead = 0
    while lead < len(words) - 1 and words[lead][:1].islower():
        lead += 1
    rest = words[lead:]
    if len(rest) < 2 or all(w[:1].isupper() for w in rest) or any(c in " ".join(words) for c in ",{}\\"):
        return ""
    return " ".join([*words[:lead], "{" + " ".join(rest) + "}"])


def _date(fields: dict[str, str]) -> dt.date | None:
    year = re.search(r"\d{4}", fields.get("year", "") or fields.get("date", ""))
    if not year:
        return None
    month_text = fields.get("month", "").strip().lower()
    month = _MONTHS.get(month_text) or next((n for m, n in _MONTHS.items() if m.startswith(month_text[:3]) and
                                             len(month_text) >= 3), None)
    if month is None and month_text.isdigit() and 1 <= int(month_text) <= 12:
        month = int(month_text)
    date_month = re.match(r"\d{4}-(\d{2})", fields.get("date", ""))
    if month is None and date_month:
        month = int(date_month.group(1)) if 1 <= int(date_month.group(1)) <= 12 else None
    return dt.date(int(year.group(0)), month or 1, 1)


def _journal_names(key: str, entry: Entry, line: int, path: str, problems: Problems) -> dict[str, str]:
    """The entry's fields (lower-case names, raw TeX) with a journal written as an AASTeX macro
    (`\\apj`, as NASA ADS exports it) replaced by the journal's full name, and AASTeX's dashes by TeX's."""
    out = {}
    for name, value in entry.fields.items():
        value = aas_dashes(str(value))
        macro = journal_macro(value) if name.lower() in JOURNAL_FIELDS else None
        if macro:
            full = ads_journals().get(macro)
            if full:
                value = full
            elif not tex_to_text(value).strip():
                problems.warn(path, line, f"entry {key!r}: {name.lower()} is the TeX macro \\{macro}, which is no "
                              "journal macro of NASA ADS (generator/data/ads_journal_macros.tsv); kept as written, "
                              "shown empty")
        out[name.lower()] = value
    return out


def _venue(fields: dict[str, str], kind: str) -> str:
    """Where the entry was published: its journal or proceedings, else (a book, a thesis, a
    report) its publisher or school."""
    venue = tex_to_text(fields.get("journal") or fields.get("journaltitle") or fields.get("booktitle", ""))
    for name in ("" if venue.strip() else _PUBLISHER_VENUE.get(kind, ())):
        venue = tex_to_text(fields.get(name, ""))
        if venue.strip():
            break
    return " ".join(venue.split())


def _paper(key: str, entry: Entry, line: int, path: str, problems: Problems) -> Paper:
    where = SourceRef(path, line)
    fields = _journal_names(key, entry, line, path, problems)
    people = list(entry.persons.get("author", ()))
    for problem in ambiguous_names(people):
        problems.warn(path, line, f"entry {key!r}: the author list {problem}")
    complete = not people or people[-1].last_names != ["others"]
    names = tuple(_name(p) for p in people if p.last_names != ["others"])
    spelled = tuple(_spelled(p) for p in people if p.last_names != ["others"])
    title = tex_title(fields.get("title", ""))
    abstract = tex_paragraphs(fields.get("abstract", ""))
    if not title:
        problems.warn(path, line, f"entry {key!r} has no title; kept, with a placeholder title on its page")
    if not names and not entry.persons.get("editor"):  # an edited book is cited by its editors
        problems.warn(path, line, f"entry {key!r} has no author; kept, shown as Anonymous")
    prefix = fields.get("archiveprefix", fields.get("eprinttype", "")).lower()
    eprint = fields.get("eprint", "")
    corr = _CORR_VOLUME.match(fields.get("volume", "")) if _CORR.match(
        tex_to_text(fields.get("journal", "")).strip()) else None
    ident = (arxiv_id(f"arXiv:{eprint}") if eprint and (prefix in {"arxiv", ""}) else None) or arxiv_id(
        fields.get("url", "")) or arxiv_id(fields.get("journal", "")) or (
        arxiv_id(f"arXiv:{corr.group(1)}") if corr else None)
    found_doi = doi(fields.get("doi", "")) or doi(fields.get("url", ""))
    forum = openreview_id(fields.get("url", ""))
    kind = entry.type.lower()
    venue = _venue(fields, kind)
    if (not venue and ident) or _ARXIV_JOURNAL.match(venue) or (corr and ident):
        # A preprint's journal as ADS (`arXiv e-prints`), Google Scholar (`arXiv preprint
        # arXiv:1706.03762`) and Zotero (`arXiv:1406.1078 [cs, stat]`) write it.
        venue = "arXiv"
    raw = list(fields.items())
    for role in ("author", "editor"):
        if entry.persons.get(role):
            raw.insert(0 if role == "author" else len(raw), (role, " and ".join(str(p) for p in entry.persons[role])))
    # An entry with no title and no identifier is known by its key (not by an empty abstract).
    pid = (record_id(title, abstract, openreview=forum, arxiv=ident, doi=found_doi, missing_title=not title)
           if title or forum or ident or found_doi or abstract else f"bibkey:{key.lower()}")
    return Paper(
        id=pid,
        title=title or placeholder_title(names, abstract),
        authors=names,
        authors_complete=complete,
        abstract=abstract,
        origin=where,
        url=fields.get("url") if fields.get("url", "").startswith(("http://", "https://")) else None,
        venue=venue,
        status="preprint" if _PREPRINT_SERVER.match(venue) else "accepted" if (
            kind in _PUBLISHED and venue and venue != "arXiv") else published_status("preprint", "", found_doi),
        title_missing=not title,
        categories=tuple(c for c in [fields.get("primaryclass", "")] if c),
        openreview_id=forum,
        arxiv_id=ident,
        doi=found_doi,
        date=_date(fields),
        sources=(where,),
        bib_key=key,
        bib_names=spelled if any(spelled) else (),
        bib_type=kind,
        bib_fields=tuple(raw),
        aliases=(pid,),
    )


def _kept(parser: LenientParser, path: str, line: int, chunk: str, offset: int, problems: Problems) -> None:
    """Warn, at the field's line, of what the entry kept as BibTeX does: the first value of a
    repeated field, an undefined macro as empty text."""
    repeated: dict[str, int] = {}
    for problem in parser.kept:
        if isinstance(problem, DuplicateField):
            field = duplicate_field_name(problem)
            repeated[field.lower()] = repeated.get(field.lower(), 0) + 1
            at = line + field_line(chunk, field, repeated[field.lower()])
            problems.warn(path, at, f"field {field!r} is repeated in the entry that starts at line {line}; "
                          "the first value is kept, as BibTeX does")
        else:
            lineno = getattr(problem, "lineno", None)
            if isinstance(lineno, int) and lineno <= offset:
                continue  # in an earlier `@string`, reported there once
            where = line + lineno - 1 - offset if isinstance(lineno, int) else line
            name = str(problem).rsplit(":", 1)[-1].strip() or "?"
            what = "@string definition" if chunk.lstrip().lower().startswith("@string") else "entry"
            problems.warn(path, where, f"@string macro {name!r} is not defined before the {what} that starts at "
                          f"line {line}; read as empty text, as BibTeX does")


def read(path: str, text: str, problems: Problems) -> RawDigest:
    text = text.lstrip("\ufeff")
    strings: list[str] = []
    papers: list[Paper] = []
    seen: dict[str, int] = {}
    for line, kind, chunk in _chunks(text):
        if kind in {"comment", "preamble"}:
            continue
        parser = LenientParser()
        preamble = "".join(strings)
        try:
            data = parser.parse_string(preamble + chunk)
        except (PybtexError, BibliographyDataError) as exc:
            at = getattr(exc, "lineno", None)
            offset = preamble.count("\n")
            where = line + at - 1 - offset if isinstance(at, int) and at > offset else line
            reason = re.sub(r"^syntax error in line \d+:\s*", "", str(exc))
            problems.error(path, where, f"BibTeX syntax error ({reason}) in the entry that starts at line {line}; "
                           "entry skipped")
            continue
        _kept(parser, path, line, chunk, preamble.count("\n"), problems)
        if kind == "string":
            strings.append(chunk)
            continue
        for key, entry in data.entries.items():
            if key.lower() in seen:
                problems.warn(path, line, f"key {key!r} was used at line {seen[key.lower()]} already; entry skipped")
                continue
            seen[key.lower()] = line
            papers.append(_paper(key, entry, line, path, problems))
    name = path.rsplit("/", 1)[-1]
    return RawDigest(path=path, format=FORMAT, title=f"BibTeX file {name}", date=None, date_source="",
                     papers=papers)
