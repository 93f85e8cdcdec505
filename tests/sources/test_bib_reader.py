"""The .bib reader: every entry a paper, its key and fields kept, TeX decoded, errors per entry."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path

from generator.enrich.bibtex import block
from generator.enrich.bibtex.names import apply_name_overrides
from generator.enrich.keys import base_key
from generator.errors import Problems
from generator.render.csl import csl_names
from generator.sources import read_digest
from tests.conftest import FIXTURES
from tests.enrich.bibtex.pybtex_oracle import read_back


def test_entries_field_by_field() -> None:
    problems = Problems()
    raw = read_digest(FIXTURES / "readers" / "library.bib", "library.bib", problems)
    assert raw is not None and raw.format == "bibtex"
    assert [(p.bib_key, p.origin.line) for p in raw.papers] == [
        ("vaswani2017attention", 4), ("martinez2023robust", 17), ("schrodinger2024waves", 26),
        ("notitle2024", 35), ("after2024broken", 46)]
    vaswani, martinez, cruz, untitled, after = raw.papers
    assert vaswani.title == "Attention Is All You Need"
    assert vaswani.authors == ("Ashish Vaswani", "Łukasz Kaiser") and not vaswani.authors_complete  # and others
    assert (vaswani.venue, vaswani.status, vaswani.date) == ("Journal of Machine Learning Research", "accepted",
                                                             dt.date(2017, 6, 1))  # @string, month macro
    assert vaswani.doi == "10.5555/3295222.3295349" and vaswani.id == "doi:10.5555/3295222.3295349"
    assert vaswani.abstract == "The dominant sequence transduction models are based on complex recurrent networks."
    assert (martinez.id, martinez.arxiv_id, martinez.categories) == ("arxiv:2306.06130", "2306.06130", ("cs.LG",))
    assert martinez.title == "Robust Federated Learning for Heterogeneous Clients – A Variance-Reduced Approach"
    assert martinez.authors == ("José Martínez", "Iñaki Côte", "Hans Müller")
    assert cruz.title == "Schrödinger Bridges for Generative Modelling"
    assert cruz.authors == ("María de la Cruz", "John Smith, Jr.")
    assert cruz.url == "https://proceedings.mlr.press/v235/cruz24a.html" and cruz.status == "accepted"
    assert untitled.title_missing and untitled.id == "bibkey:notitle2024"
    assert after.title == "The Entry After a Broken One"  # read although the entry before it is broken
    assert [str(p) for p in problems] == [
        "library.bib:35: warning: entry 'notitle2024' has no title; kept, with a placeholder title on its page",
        "library.bib:44: error: BibTeX syntax error (premature end of file) in the entry that starts at line 41; "
        "entry skipped"]


def test_the_sites_bibtex_keeps_every_field_of_the_entry() -> None:
    raw = read_digest(FIXTURES / "readers" / "library.bib", "library.bib", Problems())
    assert raw is not None
    vaswani = replace(raw.papers[0], key="vaswani2017attention")
    assert block(vaswani) == (
        "@article{vaswani2017attention,\n"
        "    author = {Vaswani, Ashish and Kaiser, {\\L}ukasz and others},\n"
        "    title = {Attention Is {All} You Need},\n"
        "    journal = {Journal of Machine Learning Research},\n"
        "    year = {2017},\n"
        "    month = jun,\n"
        "    volume = {18},\n"
        "    pages = {1--20},\n"
        "    doi = {10.5555/3295222.3295349},\n"
        "    abstract = {The dominant sequence transduction models are based on complex recurrent networks.},\n"
        "    note = {Read twice}\n"
        "}\n")
    # An arXiv id another source gave the paper is added; what the entry has is not changed.
    martinez = replace(raw.papers[1], key="martinez2023robust", doi="10.48550/arXiv.2306.06130")
    text = block(martinez)
    assert "    eprint = {2306.06130},\n    archiveprefix = {arXiv},\n    primaryclass = {cs.LG}" in text
    assert "    doi = {10.48550/arXiv.2306.06130}" in text
    assert text.count("eprint") == 1


def test_the_entry_s_own_name_split_is_kept(tmp_path: Path) -> None:
    """A reference manager has already split each name: `Dreo Rodosek, Gabi` (a compound family
    name no rule can see in `Gabi Dreo Rodosek`), `{Del Maestro}, Adrian`, `Smith, Jr., John`. The
    entry written back, the CSL name and the key follow that split, not a new one."""
    path = tmp_path / "mine.bib"
    path.write_text("@article{k1,\n  author = {Dreo Rodosek, Gabi and {Del Maestro}, Adrian and Smith, Jr., John and"
                    " {Research and Development Team}},\n  title = {Graph Anomalies},\n  journal = {J},\n"
                    "  year = {2024}\n}\n", encoding="utf-8")
    raw = read_digest(path, "mine.bib", Problems())
    assert raw is not None
    [paper] = raw.papers
    assert paper.authors == ("Gabi Dreo Rodosek", "Adrian Del Maestro", "John Smith, Jr.",
                             "Research and Development Team")
    # The corporate name stays braced: one literal name everywhere (issue 45).
    assert paper.bib_names == ("Dreo Rodosek, Gabi", "Del Maestro, Adrian", "Smith, Jr., John",
                               "{Research and Development Team}")
    assert [str(p) for p in read_back(paper).persons["author"]] == [
        "Dreo Rodosek, Gabi", "{Del Maestro}, Adrian", "Smith, Jr., John", "{Research and Development Team}"]
    assert csl_names(paper) == [{"family": "Dreo Rodosek", "given": "Gabi"},
                                    {"family": "Del Maestro", "given": "Adrian"},
                                    {"family": "Smith", "given": "John", "suffix": "Jr."},
                                    {"literal": "Research and Development Team"}]
    assert base_key(paper) == "dreorodosek2024graph"
    # content/names.yml still wins for the names it lists; the entry's own split stays for the others.
    [spelled] = apply_name_overrides([paper], {"Adrian Del Maestro": "Maestro, Adrian Del"})
    assert spelled.bib_names == ("Dreo Rodosek, Gabi", "Maestro, Adrian Del", "Smith, Jr., John",
                                 "{Research and Development Team}")
