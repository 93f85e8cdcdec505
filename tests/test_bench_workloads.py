"""The benchmark's two workloads (benchmarks/synth.py, benchmarks/seeded.py) write digests the generator
reads back exactly: every paper once, with its title, and (seeded) text made of the seeds' own words."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from generator.build import build
from generator.config import load_config
from tests.conftest import ROOT, copy_project

N = 60  # papers per workload: enough for both digest formats and a paper seen twice (merged)


@pytest.fixture(scope="module")
def projects() -> Iterator[ModuleType]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import projects

        yield projects
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]{3,}", text.lower())


def _read_back(tmp_path: Path, projects: ModuleType, workload: str) -> tuple[list, list]:
    config_file = copy_project(tmp_path, seeds=False)
    (tmp_path / "citekeys.yml").unlink(missing_ok=True)
    written = projects.write_seeds(workload, N, tmp_path / "seeds", 3)
    result = build(load_config(config_file), write=False)
    assert not result.problems.errors
    return written, list(result.library.papers)


@pytest.mark.parametrize("workload", ["synth", "seeded"])
def test_every_paper_of_the_workload_is_read_back_once_with_its_title(
        tmp_path: Path, projects: ModuleType, workload: str) -> None:
    written, papers = _read_back(tmp_path, projects, workload)
    assert len(written) == N
    assert len(papers) == N
    assert sorted(" ".join(p.title.split()) for p in papers) == sorted(" ".join(w.title.split()) for w in written)
    assert all(p.title.strip() and len(_words(p.abstract)) >= 20 for p in papers)
    # Both digest formats are in the workload.
    assert {p.origin.path.rsplit("-", 1)[-1] for p in papers} == {"tmlr.txt", "lg.txt"}


def test_seeded_text_and_authors_come_from_the_seed_digests(tmp_path: Path, projects: ModuleType) -> None:
    import seeded

    records = seeded.seed_records()
    assert len(records) == 41  # the two seed digests: 11 TMLR papers and 30 listing papers
    vocabulary = {w for r in records for w in _words(f"{r.title} {r.abstract}")}
    firsts = {a.split()[0] for r in records for a in r.authors}
    written, papers = _read_back(tmp_path, projects, "seeded")
    words = [w for p in papers for w in _words(f"{p.title} {p.abstract}")]
    # Every word was in a seed (a few may be two seed words the generator joined at a line break).
    assert sum(w in vocabulary for w in words) / len(words) > 0.99
    assert "distillation" in words and "federated" in words
    assert all(a.split()[0] in firsts for w in written for a in w.authors)


def test_workloads_are_deterministic(tmp_path: Path, projects: ModuleType) -> None:
    for workload in ("synth", "seeded"):
        a = projects.write_seeds(workload, 30, tmp_path / workload / "a", 5)
        b = projects.write_seeds(workload, 30, tmp_path / workload / "b", 5)
        assert [p.title for p in a] == [p.title for p in b]
        files = sorted(p.name for p in (tmp_path / workload / "a").iterdir())
        assert files == sorted(p.name for p in (tmp_path / workload / "b").iterdir())
        for name in files:
            assert (tmp_path / workload / "a" / name).read_bytes() == (tmp_path / workload / "b" / name).read_bytes()


def test_stock_reference_has_one_page_per_paper(tmp_path: Path, projects: ModuleType) -> None:
    papers = projects.write_seeds("seeded", 20, tmp_path / "seeds", 1)
    config = projects.stock_project(tmp_path / "stock", papers)
    pages = sorted((config.parent / "docs" / "papers").glob("*.md"))
    assert len(pages) == 20
    text = pages[0].read_text(encoding="utf-8")
    assert text.startswith("# ") and "## Abstract" in text and "```bibtex\n@article{" in text
    assert "readinglist" not in config.read_text(encoding="utf-8")


def test_seeded_papers_carry_about_as_many_tags_as_the_seed_papers(tmp_path: Path, projects: ModuleType) -> None:
    # The seeded workload stands for real topic density: tag pages, tag .bib files and the related
    # papers grow with it (one bigram model over all seeds gave 13 tags per paper, the seeds 4.6).
    (tmp_path / "seeds-site").mkdir()
    (tmp_path / "seeded").mkdir()
    seeds = build(load_config(copy_project(tmp_path / "seeds-site")), write=False).library.papers
    per_seed = sum(len(p.tags) for p in seeds) / len(seeds)
    _, papers = _read_back(tmp_path / "seeded", projects, "seeded")
    per_paper = sum(len(p.tags) for p in papers) / len(papers)
    assert 0.75 * per_seed <= per_paper <= 1.25 * per_seed, (per_paper, per_seed)
