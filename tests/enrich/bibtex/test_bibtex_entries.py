"""The generated BibTeX: exact entries for the seeds, every file parses back, no unescaped specials."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import yaml
from pybtex.database import BibliographyData, Entry, parse_string

from generator.build import BuildResult
from generator.config import Config
from generator.enrich import bibtex
from generator.enrich.bibtex import VERBATIM_FIELDS, with_entries
from generator.model import Library, Paper, SourceRef
from tests.conftest import ROOT, code_text, render_context
from tests.enrich.bibtex.pybtex_oracle import pybtex_entry, pybtex_text, read_back

# Month macros as pybtex (and bibtex) expand them when reading a file.
_MONTH_NAMES = {m: dt.date(2000, i + 1, 1).strftime("%B") for i, m in enumerate(bibtex.MONTHS)}
ALLOWED_FIELDS = {"title", "journal", "issn", "year", "month", "url", "note", "howpublished",
                  "keywords", "primaryclass", "eprint", "archiveprefix", "doi"}


def by_key(result: BuildResult) -> dict[str, Paper]:
    return {p.key: p for p in result.library.papers}


def fields_of(entry: Entry) -> dict[str, str]:
    return {k.lower(): v for k, v in entry.fields.items()}


def authors_of(entry: Entry) -> list[str]:
    return [str(p) for p in entry.persons.get("author", [])]


def bib_files(result: BuildResult) -> dict[str, str]:
    return {path: text for path, text in result.files.items() if path.endswith(".bib")}


# --- exact entries for seed papers ---------------------------------------------------------

def test_tmlr_accepted_entry(seed_build: BuildResult) -> None:
    entry = read_back(by_key(seed_build)["maron2025oneshot"])
    assert entry.type == "article"
    assert authors_of(entry) == ["Maron, Cedric", "Fresse, Virginie", "ORZALESI"]
    assert fields_of(entry) == {
        "title": "One-Shot Federated Distillation Using Monoclass Teachers: A Study of Knowledge "
                 "Fragmentation and Out-of-Distribution Supervision",
        "journal": "Transactions on Machine Learning Research",
        "issn": "2835-8856",
        "year": "2025",
        "month": "August",  # `month = aug`, the macro (test_tmlr_entry_text_is_what_the_page_shows)
        "url": "https://openreview.net/forum?id=ENdm5BM7aF",
    }


def test_tmlr_entry_text_is_what_the_page_shows(seed_build: BuildResult) -> None:
    text = bibtex.entry_text(by_key(seed_build)["luijkx2025askdagger"])
    assert text == (
        "@article{luijkx2025askdagger,\n"
        "    author = {Luijkx, Jelle and Ajanović, Zlatan and Ferranti, Laura and Kober, Jens},\n"
        "    title = {{ASkDAgger}: Active Skill-level Data Aggregation for Interactive Imitation Learning},\n"
        "    journal = {Transactions on Machine Learning Research},\n"
        "    issn = {2835-8856},\n"
        "    year = {2025},\n"
        "    month = aug,\n"
        "    url = {https://openreview.net/forum?id=987Az9f8fT}\n"
        "}")
    page = seed_build.files["papers/askdagger-active-skill-level-data-aggregation-for/index.md"]
    assert code_text(page) == text
    assert ('<p><a class="rl-bib-download" href="#cite" data-file="luijkx2025askdagger.bib">'
            "Download luijkx2025askdagger.bib</a></p>") in page
    assert not [f for f in seed_build.files if f.startswith("papers/") and f.endswith(".bib")]


def test_tmlr_submission_entry(seed_build: BuildResult) -> None:
    entry = read_back(by_key(seed_build)["anonymous2025deepseekr1"])
    assert entry.type == "misc"
    assert authors_of(entry) == ["Anonymous"]
    assert fields_of(entry) == {
        "title": "{DeepSeek-R1} Thoughtology: Let’s think about {LLM} reasoning",
        "howpublished": "Under review at Transactions on Machine Learning Research",
        "year": "2025",
        "url": "https://openreview.net/forum?id=BZwKsiRnJI",
    }


def test_listing_entries(seed_build: BuildResult) -> None:
    papers = by_key(seed_build)
    entry = read_back(papers["decelle2026distributional"])
    assert entry.type == "misc"
    assert authors_of(entry) == ["Decelle, Aurélien", "Navas Gómez, Alfonso de Jesús", "Seoane, Beatriz"]
    assert fields_of(entry) == {
        "title": "Distributional simplicity bias and effective convexity in Energy Based Models",
        "year": "2026", "primaryclass": "cs.LG", "keywords": "cs.LG",
    }
    vista = fields_of(read_back(papers["nodehi2026vista"]))
    assert vista["title"] == (r"{$\mathsf{VISTA}$}: Decentralized Machine Learning in Adversary "
                              "Dominated Environments")
    cross = fields_of(read_back(papers["modoranu2026matryoshkalora"]))
    assert (cross["primaryclass"], cross["keywords"]) == ("cs.CL", "cs.CL, cs.LG")
    bio = fields_of(read_back(papers["higgins2026ppinet"]))
    assert (bio["title"], bio["primaryclass"]) == (
        "{PPI-Net} connects molecular protein interactions to functional processes in disease", "q-bio.QM")
    assert authors_of(read_back(papers["huang2026relagent"]))[-1] == "Ceylan, İsmail İlkan"


def test_paper_without_title_gets_no_made_up_title(seed_build: BuildResult) -> None:
    entry = read_back(by_key(seed_build)["grunefeld2026untitled"])
    assert "title" not in entry.fields
    assert authors_of(entry)[:2] == ["Grünefeld, Nils", "Højer, Bertram"]


def test_every_seed_entry_has_the_right_type_and_only_known_fields(seed_build: BuildResult) -> None:
    papers = seed_build.library.papers
    assert len(papers) == 41
    for paper in papers:
        entry = read_back(paper)
        fields = fields_of(entry)
        assert set(fields) <= ALLOWED_FIELDS, paper.key
        assert fields["year"] == str(paper.year)
        if paper.venue == "TMLR" and paper.status == "accepted":
            assert entry.type == "article"
            assert {"title", "journal", "issn", "year", "month", "url"} <= set(fields)
        elif paper.venue == "TMLR":
            assert entry.type == "misc" and authors_of(entry) == ["Anonymous"]
            assert fields["url"] == paper.url
        else:
            assert entry.type == "misc" and paper.venue == "arXiv"
            assert fields["primaryclass"] == paper.categories[0]
            assert fields["keywords"] == ", ".join(paper.categories)
            assert "url" not in fields and "eprint" not in fields  # the listing carries none
            assert len(authors_of(entry)) == len(paper.authors)


# --- fields only when the input carries them -----------------------------------------------

def _paper(**kw: object) -> Paper:
    base: dict[str, object] = dict(id="x", title="A Title", authors=("Ana Pérez", "Jan van Dijk"), abstract="",
                                   origin=SourceRef("seeds/x.txt", 1), date=dt.date(2025, 3, 4), key="perez2025title")
    base.update(kw)
    paper = Paper(**base)  # type: ignore[arg-type]
    return with_entries(Library(papers=[paper])).papers[0]  # with its entry, as the BibTeX stage gives it


def test_truncated_author_list_ends_with_others() -> None:
    entry = read_back(_paper(authors_complete=False))
    assert authors_of(entry) == ["Pérez, Ana", "van Dijk, Jan", "others"]
    assert "and others" in bibtex.entry_text(_paper(authors_complete=False))


def test_certifications_go_in_the_note() -> None:
    entry = read_back(_paper(venue="TMLR", status="accepted", labels=("Featured Certification", "J2C & More")))
    assert fields_of(entry)["note"] == r"Featured Certification, J2C \& More"


def test_arxiv_id_doi_and_url_when_known() -> None:
    entry = read_back(_paper(venue="arXiv", categories=("hep-th", "cs.LG"), arxiv_id="2501.01234",
                              doi="10.1000/x_y", url="https://arxiv.org/abs/2501.01234"))
    assert fields_of(entry) == {
        "title": "A Title", "year": "2025", "eprint": "2501.01234", "archiveprefix": "arXiv",
        "primaryclass": "hep-th", "keywords": "hep-th, cs.LG", "doi": "10.1000/x_y",
        "url": "https://arxiv.org/abs/2501.01234"}
    # Not an id, DOI or web link: left out rather than written broken.
    odd = fields_of(read_back(_paper(arxiv_id="see abstract", doi="doi:none", url="javascript:alert(1)")))
    assert not {"eprint", "doi", "url"} & set(odd)
    assert bibtex.safe_url("https://e.org/a b{c}") == "https://e.org/a%20b%7Bc%7D"


# --- every file parses back to the same entries ---------------------------------------------

def _expected(paper: Paper) -> tuple[str, dict[str, str], list[str]]:
    entry = pybtex_entry(paper)
    fields = {k: (_MONTH_NAMES[v] if k == "month" else v) for k, v in fields_of(entry).items()}
    return entry.type, fields, authors_of(entry)


def test_every_generated_bib_file_parses_back_to_the_same_fields(seed_build: BuildResult) -> None:
    papers = by_key(seed_build)
    files = bib_files(seed_build)
    assert "references.bib" in files
    assert {p for p in files if p.startswith("digests/")} == {
        "digests/000-1b8355006bbdabc6.bib", "digests/001-68714a788c6fb328.bib"}
    assert sum(p.startswith("tags/") for p in files) > 30
    # Each paper's own entry is on its page (tested above) and downloads from there.
    files.update({f"page of {key}": code_text(seed_build.files[paper.page + "index.md"])
                  for key, paper in papers.items()})
    for path, text in files.items():
        data: BibliographyData = parse_string(text, "bibtex")
        assert data.entries, path
        for key, entry in data.entries.items():
            assert (entry.type, fields_of(entry), authors_of(entry)) == _expected(papers[key]), (path, key)
    assert list(parse_string(files["references.bib"], "bibtex").entries) == [
        p.key for p in seed_build.library.papers]
    assert len(parse_string(files["digests/000-1b8355006bbdabc6.bib"], "bibtex").entries) == 11
    assert len(parse_string(files["digests/001-68714a788c6fb328.bib"], "bibtex").entries) == 30


def test_bibliography_for_any_list_of_papers(seed_build: BuildResult) -> None:
    # Joined from cached per-paper blocks, it is exactly what pybtex writes for all entries at once.
    everything = seed_build.library.papers
    assert bibtex.bibliography(everything) == pybtex_text(everything)
    assert bibtex.bibliography([]) == ""
    # What tag pages use: any subset, in the given order.
    some = [by_key(seed_build)[k] for k in ("nodehi2026vista", "maron2025oneshot")]
    assert list(parse_string(bibtex.bibliography(some), "bibtex").entries) == ["nodehi2026vista",
                                                                              "maron2025oneshot"]


# --- lint: no unescaped % or & anywhere -------------------------------------------------------

_UNESCAPED = re.compile(r"(?<!\\)[%&]")


def test_no_unescaped_percent_or_ampersand_in_any_field(seed_build: BuildResult) -> None:
    tricky = _paper(title="100% & more", authors=("R&D Team",), venue="TMLR", status="accepted",
                    labels=("50% & up",))
    texts = [*bib_files(seed_build).values(), bibtex.bibliography([tricky])]
    checked = 0
    for text in texts:
        for entry in parse_string(text, "bibtex").entries.values():
            values = [v for k, v in entry.fields.items() if k.lower() not in VERBATIM_FIELDS]
            values += [str(p) for p in entry.persons.get("author", [])]
            for value in values:
                checked += 1
                assert not _UNESCAPED.search(value), value
    assert checked > 41 * 4


# --- search helpers on the page -------------------------------------------------------------

def test_page_offers_key_and_accent_free_names_to_the_search(seed_build: BuildResult) -> None:
    page = seed_build.files["papers/distributional-simplicity-bias-and-effective-convexity-in/index.md"]
    assert ('<p class="rl-cite">Cite as <code>decelle2026distributional</code> · <span class="rl-folded">'
            "also spelled Aurelien Decelle, Alfonso de Jesus Navas Gomez</span></p>") in page
    plain = seed_build.files["papers/generative-feature-training-of-thin-2-layer-networks/index.md"]
    assert '<p class="rl-cite">Cite as <code>hertrich2025generative</code></p>' in plain


def test_search_separator_splits_bibtex_punctuation() -> None:
    # Python's `re` reads this pattern as lunr's JavaScript does.
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    search = next(p["material/search"] for p in config["plugins"] if isinstance(p, dict) and "material/search" in p)
    words = [w for w in re.split(search["separator"],
                                 "@article{maron2025oneshot, author = {Navas Gómez, Alfonso}") if w]
    assert words == ["article", "maron2025oneshot", "author", "Navas", "Gómez", "Alfonso"]


# --- BibTeX is made once, in its stage: render only shows the text ----------------------------

def test_every_paper_of_a_build_has_its_entry(seed_build: BuildResult) -> None:
    assert seed_build.library.papers and all(p.bibtex.startswith("@") for p in seed_build.library.papers)
    paper = by_key(seed_build)["luijkx2025askdagger"]
    assert paper.bibtex.startswith("@article{luijkx2025askdagger,\n")


def test_render_never_makes_an_entry_the_bibtex_stage_did_not() -> None:
    from generator.render import render_paper_files

    bare = Paper(id="x", title="A Title", authors=("Ana Pérez",), abstract="", origin=SourceRef("seeds/x.txt", 1),
                 date=dt.date(2025, 3, 4), key="perez2025title", slug="perez2025title")
    config = Config(root=ROOT, build_dir=ROOT, seeds_dir=ROOT, content_dir=ROOT, registry_path=ROOT / "citekeys.yml")
    with pytest.raises(bibtex.MissingEntry, match="'perez2025title' has no BibTeX entry"):
        render_paper_files(bare, render_context(Library(papers=[bare]), config), {})
    with pytest.raises(bibtex.MissingEntry):
        bibtex.bibliography([bare])
    made = with_entries(Library(papers=[bare])).papers[0]
    ctx = render_context(Library(papers=[made]), config)
    page = render_paper_files(made, ctx, {})["papers/perez2025title/index.md"]
    assert "@misc{perez2025title," in page
