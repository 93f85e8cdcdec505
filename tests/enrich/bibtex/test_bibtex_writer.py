"""`bibtex.block` writes exactly what pybtex's writer writes for the same entry built as pybtex's
`Entry` (tests/enrich/bibtex/pybtex_oracle.py): for every seed paper, and for generated papers with
odd titles, names, venues and ids; `bibtex.bib_name` writes each name as pybtex's writer does."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.build import BuildResult
from generator.enrich import bibtex
from generator.enrich.bibtex.names import to_person
from generator.model import Paper, SourceRef
from tests.enrich.bibtex.pybtex_oracle import pybtex_text, read_back, written_name


def test_every_seed_entry_is_what_pybtex_writes(seed_build: BuildResult) -> None:
    papers = seed_build.library.papers
    assert len(papers) > 40
    for paper in papers:
        assert bibtex.block(paper) == pybtex_text([paper]), paper.key
        # And what the pages and .bib files show is that text.
        assert paper.bibtex == pybtex_text([paper]), paper.key


WORDS = st.sampled_from(["Deep", "learning", "LLM", "$x^2$", "\\alpha", "{braces}", "50%", "R&D", '"quoted"',
                         "Müller", "naïve", "#1", "a_b", "~", "Gaussian", "Q-Learning", "é", "\\&", "ß"])
TITLE = st.lists(WORDS | st.text(max_size=6), min_size=1, max_size=8).map(" ".join)
NAME = st.lists(st.sampled_from(["Ann", "van der", "Berg", "Jr.", "O'Neil", "Zoë", "Li", "de la", "Cruz",
                                 "{IBM}", "and", "Smith,", "B."]), min_size=1, max_size=4).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(title=TITLE, authors=st.lists(NAME, max_size=4), complete=st.booleans(),
       venue=st.sampled_from(["TMLR", "arXiv", "NeurIPS & co", ""]),
       status=st.sampled_from(["accepted", "under review", "preprint"]),
       labels=st.lists(st.sampled_from(["Featured", "J2C_Certification", "50% off"]), max_size=2),
       categories=st.lists(st.sampled_from(["cs.LG", "stat.ML", "math-ph", "bad class!"]), max_size=3),
       arxiv=st.sampled_from([None, "2401.01234", "2401.01234v2", "hep-th/9901001", "nope"]),
       doi=st.sampled_from([None, "10.1000/xyz123", "10.1/bad"]),
       url=st.sampled_from([None, "https://openreview.net/forum?id=a b", "ftp://x", "https://x.org/{y}"]),
       month=st.integers(1, 12), dated=st.booleans())
def test_generated_entries_are_what_pybtex_writes(title: str, authors: list[str], complete: bool, venue: str,
                                                  status: str, labels: list[str], categories: list[str],
                                                  arxiv: str | None, doi: str | None, url: str | None,
                                                  month: int, dated: bool) -> None:
    paper = Paper(id="p", title=title, authors=tuple(authors), abstract="", origin=SourceRef("seeds/x.txt", 1),
                  url=url, venue=venue, status=status, authors_complete=complete, labels=tuple(labels),
                  categories=tuple(categories), arxiv_id=arxiv, doi=doi,
                  date=dt.date(2025, month, 3) if dated else None, key="key2025x")
    try:
        expected = pybtex_text([paper])
    except Exception as exc:  # unbalanced braces: both must refuse
        with pytest.raises(type(exc)):
            bibtex.block(paper)
        return
    assert bibtex.block(paper) == expected


def test_an_entry_reads_back_with_its_type_fields_and_authors() -> None:
    paper = Paper(id="p", title="On $x$ and LLMs", authors=("Ann van der Berg", "Li Wei"), abstract="",
                  origin=SourceRef("seeds/x.txt", 1), venue="TMLR", status="accepted",
                  date=dt.date(2025, 8, 1), key="berg2025x")
    assert bibtex.block(paper) == (
        "@article{berg2025x,\n    author = {van der Berg, Ann and Wei, Li},\n    title = {On {$x$} and {LLMs}},\n"
        "    journal = {Transactions on Machine Learning Research},\n    issn = {2835-8856},\n"
        "    year = {2025},\n    month = aug\n}\n")
    entry = read_back(paper)
    assert entry.type == "article"
    assert dict(entry.fields) == {"title": "On {$x$} and {LLMs}", "issn": "2835-8856", "year": "2025",
                                  "journal": "Transactions on Machine Learning Research", "month": "August"}
    assert [str(p) for p in entry.persons["author"]] == ["van der Berg, Ann", "Wei, Li"]


NAME_WORDS = st.sampled_from(["Ann", "van", "der", "de", "la", "y", "Jr.", "III", "O'Neil", "Zoë", "Özdemir", "Li",
                              "Cruz", "{IBM}", "and", "Smith,", "B.", "R&D", "a~b", "x\\y", "50%", "#1", "Ça",
                              "\u00a0", "del", "Navas", "Gómez", "von", "A.-B."])


@settings(max_examples=400, deadline=None)
@given(words=st.lists(NAME_WORDS | st.text(max_size=5), min_size=0, max_size=6),
       spaces=st.sampled_from([" ", "  ", "\t", " \u2009"]), override=st.sampled_from(["", "Berg, Ann van der"]))
def test_names_are_written_as_pybtex_writes_them(words: list[str], spaces: str, override: str) -> None:
    name = spaces.join(words)
    assert bibtex.bib_name(name, override) == written_name(to_person(name, override))


@pytest.mark.parametrize(("name", "override", "written"), [
    # Plain names (`bib_name` writes them from their parts), then names with a TeX special, a
    # corporate name kept whole and the curator's spelling (written from pybtex's Person).
    ("Alfonso de Jesús Navas Gómez", "", "Navas Gómez, Alfonso de Jesús"),
    ("Ludwig van  Beethoven Jr.", "", "van Beethoven, Jr., Ludwig"),
    ("Ümit Özdemir Kaya", "", "Kaya, Ümit Özdemir"),
    ("R\\'emi Munos", "", "Munos, R\\textbackslash{}'emi"),  # a display name's backslash is text
    ("Research and Development Team", "", "{Research and Development Team}"),
    ("Gabi Dreo Rodosek", "Dreo Rodosek, Gabi", "Dreo Rodosek, Gabi"),
])
def test_names_are_written_von_last_jr_first(name: str, override: str, written: str) -> None:
    assert bibtex.bib_name(name, override) == written == written_name(to_person(name, override))
