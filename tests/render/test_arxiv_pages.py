"""What a site built from real arXiv digests shows (tests/fixtures/real/): categories by name,
comments and journal references on the paper page, published papers' venue and year, the API
result's digest title; search records that hold the arXiv id and DOI; `note` by arXiv id."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.build import BuildResult, build
from generator.config import Config
from generator.render import search_records as search
from generator.render.exports import paper_records
from generator.scaffold.note import create_stub, find_paper
from tests.conftest import FIXTURES

REAL = FIXTURES / "real"
NAMES = ("arxiv-api-del-maestro.xml", "arxiv-email-cs-2024-11-21.txt", "arxiv-email-cs-2023-06-13.txt")
LUTTINGER = "papers/particle-partition-entanglement-of-bosonic-luttinger-liquids/index.md"
AMSNET = "papers/amsnet-kg-a-netlist-dataset-for-llm-based-ams-circuit-auto/index.md"
HDDL = "papers/hddl-2-1-towards-defining-a-formalism-and-a-semantics-for/index.md"


@pytest.fixture
def config(project: Callable[..., Config]) -> Config:
    config = project(seeds=False)
    for name in NAMES:
        shutil.copy(REAL / name, config.seeds_dir / name)
    return config


@pytest.fixture
def built(config: Config) -> BuildResult:
    return build(config, write=False)


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#40;", "(").replace("&#41;", ")").split())


def test_categories_show_by_name(built: BuildResult) -> None:
    page = built.files[AMSNET]
    subjects = re.search(r'<p class="rl-subjects">(.*?)</p>', page)
    assert subjects is not None
    assert text_of(subjects.group(1)) == ("Subjects: Artificial Intelligence (cs.AI); Emerging Technologies (cs.ET); "
                                          "Signal Processing (eess.SP)")
    luttinger = re.search(r'<p class="rl-subjects">(.*?)</p>', built.files[LUTTINGER])
    assert luttinger is not None
    assert text_of(luttinger.group(1)) == "Subjects: Quantum Gases (cond-mat.quant-gas); Quantum Physics (quant-ph)"
    # Tags too: arXiv's name and the code, once.
    assert "Emerging Technologies (cs.ET)" in built.library.by_id()["arxiv:2411.13560"].tags
    strongly = next(p for p in built.library.papers if p.arxiv_id == "cond-mat/0607501")
    assert "Strongly Correlated Electrons (cond-mat.str-el)" in strongly.tags


def test_comments_and_journal_ref_on_the_page(built: BuildResult) -> None:
    details = re.search(r'<dl class="rl-arxiv-details">(.*?)</dl>', built.files[LUTTINGER])
    assert details is not None
    assert text_of(details.group(1)) == ("Journal reference Phys. Rev. B 91, 184507 (2015) Comments 10 pages, "
                                         "8 figures; updated figure 5, added references, revised text, reformatted")
    hddl = re.search(r'<dl class="rl-arxiv-details">(.*?)</dl>', built.files[HDDL])
    assert hddl is not None and "Comments 5 pages, International Workshop of Hierarchical Planning (ICAPS), 2023" in (
        text_of(hddl.group(1)))
    # A paper whose record has neither: no empty list.
    assert "rl-arxiv-details" not in built.files[AMSNET]


def test_published_papers_show_venue_and_year(built: BuildResult) -> None:
    def badge(path: str) -> str:
        m = re.search(r'<span class="rl-badge">(.*?)</span>', built.files[path])
        assert m is not None
        return text_of(m.group(1))

    assert badge(LUTTINGER) == "Phys. Rev. B 91, 184507 (2015) · published"
    assert 'rl_venue: "Phys. Rev. B 91, 184507 (2015) · published"' in built.files[LUTTINGER]
    assert badge(AMSNET) == "cs.AI · preprint"
    water = "papers/integrated-water-resource-management-in-the-segura/index.md"
    assert badge(water) == "Journal of Environmental Management, Volume 370, 2024, ISSN 0301-4797 · published"
    # The year when the journal reference has none: 1303.6954's reference has its year, so a
    # paper's own year is checked through the listing of 2402.17843, the one preprint of the API.
    papers = json.loads(built.files["papers.json"])
    lines = {p["arxiv"]: (p["status"], p["venue_line"]) for p in papers}
    assert lines["2402.17843"] == ("preprint", "physics.comp-ph · preprint")
    assert lines["1610.08518"] == ("published", "Nature Phys. 13, 556 (2017) · published")


def test_api_digest_page_has_a_readable_title(built: BuildResult) -> None:
    page = built.files["digests/arxiv-api-del-maestro/index.md"]
    # A title in front matter is HTML text with its quotes as they are (render/escape.yaml_title).
    assert page.startswith('---\ntitle: "arXiv API: au:\\"A. Del Maestro\\", 4 May 2024"\n')
    assert '>arXiv API: au:&#34;A. Del Maestro&#34;, 4 May 2024<a class="headerlink"' in page
    assert "ArXiv Query" not in page and "search_query" not in page
    assert "arXiv API: au:&#34;A. Del Maestro&#34;, 4 May 2024" in built.files["digests/index.md"]


def test_search_records_hold_arxiv_id_and_doi_after_the_abstract(built: BuildResult) -> None:
    # The records search indexes (papers.json's, with the abstracts that references.json holds).
    papers = {p["arxiv"]: p for p in paper_records(built.library)}
    rec = search.record(papers["1412.6529"])
    lines = rec.content.split("\n")
    assert lines[0] == "Particle partition entanglement of bosonic Luttinger liquids"
    assert lines[1] == "C. M. Herdman, A. Del Maestro"
    assert lines[2].startswith("We consider the Rényi entanglement entropy")
    assert lines[3] == "Citation key herdman2014particle · arXiv 1412.6529 · DOI 10.1103/PhysRevB.91.184507"
    assert lines[4] == search.EVERY and len(lines) == 5
    assert search.record(papers["2306.07429"]).content.split("\n")[-2] == (
        "Citation key guljajeva2023explaining · arXiv 2306.07429")


def test_note_by_arxiv_id(config: Config, built: BuildResult) -> None:
    for query in ("2306.07353", "arXiv:2306.07353v1", "https://arxiv.org/abs/2306.07353"):
        assert find_paper(built.library, query).key == "pellier2023hddl"
    assert find_paper(built.library, "cond-mat/0607501").key == "melko2006striped"
    assert find_paper(built.library, "10.1103/PhysRevB.91.184507").key == "herdman2014particle"
    path = create_stub(config, "2306.07353")
    assert path == config.notes_dir / "pellier2023hddl.md"
    assert '# Note on "HDDL 2.1: Towards Defining a Formalism' in Path(path).read_text(encoding="utf-8")
