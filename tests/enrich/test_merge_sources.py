"""One paper however many sources: the seeds plus a day's arXiv e-mail, its RSS and Atom feeds, API
results and a reference manager's .bib (tests/fixtures/mixed), built together."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from typing import Any

from generator.build import BuildResult, build
from generator.config import Config
from generator.enrich.merge import merge
from generator.model import Paper, SourceRef
from generator.sources.records import RawDigest
from tests.conftest import FIXTURES


def _papers(result: BuildResult) -> dict[str, dict[str, Any]]:
    return {p["key"]: p for p in json.loads(result.files["papers.json"])}


def test_the_same_work_in_three_formats_is_one_paper_with_the_imported_key(mixed_build: BuildResult) -> None:
    papers = _papers(mixed_build)
    # Seeds 41; e-mail 3 (its 2 replacements are no new papers); RSS 1 more; Atom 1; API 2; .bib 4.
    assert len(papers) == 52
    robust = papers["martinez2023robust"]  # the .bib entry's own key
    assert robust["sources"] == ["2023-06-12-arxiv-cs.txt", "2023-06-12-cs.LG.rss.xml", "my-library.bib"]
    assert (robust["arxiv"], robust["doi"], robust["openreview"]) == ("2306.06130", "10.48550/arXiv.2306.06130", None)
    assert robust["authors"] == ["José Martínez", "Iñaki Côte", "Hans Müller"]
    assert [p["title"] for p in papers.values()].count(robust["title"]) == 1
    page = mixed_build.files["papers/robust-federated-learning-for-heterogeneous-clients-a/index.md"]
    assert '<a class="md-button md-button--primary" href="https://arxiv.org/abs/2306.06130">arXiv</a>' in page
    assert '<a class="md-button" href="https://arxiv.org/pdf/2306.06130">PDF</a>' in page
    assert '<a class="md-button" href="https://doi.org/10.48550/arXiv.2306.06130">DOI</a>' in page
    assert "Search arXiv" not in page and "Google Scholar" not in page
    # Its BibTeX is the user's entry, with what the other sources know added.
    entry = mixed_build.library.by_id()["arxiv:2306.06130"].bibtex
    assert entry.startswith("@misc{martinez2023robust,\n    author = {Mart\\'inez, Jos\\'e and C\\^ote, "
                                   "I\\~naki and M{\\\"u}ller, Hans},\n")
    assert "    doi = {10.48550/arXiv.2306.06130},\n" in entry
    assert "    url = {https://arxiv.org/abs/2306.06130}" in entry


def test_papers_keep_key_and_page_when_they_gain_an_arxiv_id(mixed_build: BuildResult,
                                                             seed_build: BuildResult) -> None:
    before, after = _papers(seed_build), _papers(mixed_build)
    # A listing paper (id from its title) now also in an arXiv e-mail read before the listing.
    kl = after["oh2026kl"]
    assert (kl["page"], kl["id"]) == (before["oh2026kl"]["page"], before["oh2026kl"]["id"])
    assert kl["arxiv"] == "2606.01234" and kl["sources"] == ["0000-arxiv-cs-lg.txt", "001_68714a788c6fb328.txt"]
    # A TMLR paper later seen on arXiv: both links.
    casper = after["casper2025defending"]
    assert casper["page"] == before["casper2025defending"]["page"] and casper["arxiv"] == "2403.05030"
    page = mixed_build.files["papers/defending-against-unforeseen-failure-modes-with-latent/index.md"]
    assert 'href="https://openreview.net/forum?id=mVPPhQ8cAd">OpenReview</a>' in page
    assert 'href="https://arxiv.org/abs/2403.05030">arXiv</a>' in page
    # Every seed paper keeps its key and page.
    for key, paper in before.items():
        assert after[key]["page"] == paper["page"], key


def test_replacements_update_known_papers_and_unknown_ones_are_counted(mixed_build: BuildResult) -> None:
    papers = _papers(mixed_build)
    scaling = papers["lee2023scaling"]
    assert scaling["doi"] == "10.1234/jsm.2023.4"
    assert scaling["sources"] == ["2023-06-12-arxiv-cs.txt", "2023-06-12-cs.LG.rss.xml"]
    assert "    note = {Journal of Sparse Models 4 (2023) 1-20}" in (
        mixed_build.library.by_id()["arxiv:2306.06201"].bibtex)
    assert not any(p["arxiv"] in {"2301.00001", "2211.99999"} for p in papers.values())
    assert mixed_build.library.skipped_replacements == 2
    assert ("2 arXiv replacements of papers not in the list left out (extra.readinglist.keep_replacements: "
            "true keeps them)") in mixed_build.summary()


def test_a_setting_keeps_replacements_of_unknown_papers() -> None:
    where = SourceRef("x.txt", 3)
    rep = Paper(id="arxiv:2301.00001", title="T", authors=("A B",), abstract="", origin=where, arxiv_id="2301.00001",
                replacement=True, sources=(where,))
    raw = RawDigest("x.txt", "arxiv-email", "x", None, "", [rep])
    assert merge([raw]).papers == [] and merge([raw]).skipped_replacements == 1
    [kept] = merge([raw], keep_replacements=True).papers
    assert (kept.id, kept.replacement) == ("arxiv:2301.00001", False)


def test_same_title_different_first_author_are_two_papers() -> None:
    def paper(pid: str, author: str, line: int) -> Paper:
        where = SourceRef("x.txt", line)
        return Paper(id=pid, title="Deep Learning", authors=(author,), abstract="", origin=where, sources=(where,))

    raw = RawDigest("x.txt", "listing", "x", None, "", [paper("a", "Ann Lee", 1), paper("b", "Bo Chen", 5),
                                                         paper("c", "Ann  Lee", 9)])
    merged = merge([raw])
    assert [p.id for p in merged.papers] == ["a", "b"]
    assert merged.alias == {"a": "a", "b": "b", "c": "a"}
    # Papers made without aliases (not by a reader) list their own id, then the ids folded in.
    assert [p.aliases for p in merged.papers] == [("a", "c"), ("b",)]


def test_every_message_of_the_mixed_build(mixed_build: BuildResult) -> None:
    assert [str(p) for p in mixed_build.problems] == [
        "seeds/my-library.bib:35: warning: entry 'notitle2024' has no title; kept, with a placeholder title "
        "on its page",
    ]


def test_a_paper_keeps_its_key_when_the_file_that_named_it_first_is_gone(
        project: Callable[..., Config], seed_build: BuildResult) -> None:
    """The listing paper oh2026kl, later seen in an arXiv e-mail; then the listing file is deleted.
    Its key and page are published: they stay, found by the id its title gave it."""
    config = project()
    for name in ("001_68714a788c6fb328.txt", "001_68714a788c6fb328.yml"):
        (config.seeds_dir / name).unlink()
    shutil.copy(FIXTURES / "mixed" / "0000-arxiv-cs-lg.txt", config.seeds_dir / "0000-arxiv-cs-lg.txt")
    kl = _papers(build(config))["oh2026kl"]
    before = _papers(seed_build)["oh2026kl"]
    assert (kl["page"], kl["id"], kl["arxiv"]) == (before["page"], before["id"], "2606.01234")
    assert kl["sources"] == ["0000-arxiv-cs-lg.txt"]
