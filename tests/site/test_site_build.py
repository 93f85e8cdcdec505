"""End to end: the seeds through the generator and `mkdocs build --strict` into a site."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pybtex.database import parse_file

from tests.conftest import copy_project

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    root = tmp_path_factory.mktemp("e2e")
    copy_project(root)
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env.pop("READINGLIST_HOOK", None)
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)
    return root, proc


def test_mkdocs_build_strict_passes_without_warnings(site: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    _root, proc = site
    assert proc.returncode == 0, proc.stderr
    assert "WARNING" not in proc.stderr
    assert "readinglist: 41 papers from 2 digests" in proc.stderr


def test_papers_json_holds_every_paper_with_exact_fields(site: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    root, _ = site
    papers = json.loads((root / "site" / "papers.json").read_text(encoding="utf-8"))
    assert len(papers) == 41
    by_key = {p["key"]: p for p in papers}
    maron = by_key["maron2025oneshot"]
    assert maron["title"] == ("One-Shot Federated Distillation Using Monoclass Teachers: A Study of Knowledge "
                              "Fragmentation and Out-of-Distribution Supervision")
    assert maron["authors"] == ["Cedric Maron", "Virginie Fresse", "ORZALESI"]
    assert maron["url"] == "https://openreview.net/forum?id=ENdm5BM7aF"
    assert (maron["venue"], maron["status"], maron["year"]) == ("TMLR", "accepted", 2025)
    assert maron["sources"] == ["000_1b8355006bbdabc6.txt"]
    assert maron["id"] == "openreview:ENdm5BM7aF"
    flow = by_key["davis2026scaling"]
    assert flow["url"] is None
    assert flow["categories"] == ["cs.LG"]
    assert flow["authors"][-1] == "Louis Béthune"
    for record in papers:
        for field in ("id", "key", "title", "authors", "url", "venue", "status", "year",
                      "categories", "sources", "tags", "related", "page"):
            assert field in record, (record["key"], field)
        assert "abstract" not in record  # references.json holds it (each download once in full)
        page = root / "site" / record["page"] / "index.html"
        assert page.is_file(), record["page"]


def test_references_bib_parses_and_holds_every_key(site: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    root, _ = site
    data = parse_file(str(root / "site" / "references.bib"), bib_format="bibtex")
    papers = json.loads((root / "site" / "papers.json").read_text(encoding="utf-8"))
    assert sorted(data.entries) == sorted(p["key"] for p in papers)
    assert data.entries["maron2025oneshot"].fields["year"] == "2025"


def test_paper_pages_are_not_in_the_navigation(site: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    root, _ = site
    home = (root / "site" / "index.html").read_text(encoding="utf-8")
    nav = home[home.index('<nav class="md-nav md-nav--primary'):]
    nav = nav[: nav.index('<div class="md-content"')]
    links = re.findall(r'href="([^"]+)"', nav)
    assert "all/" in links and "digests/" in links
    assert not [link for link in links if link.startswith("papers/")]
    # ...but the home page links to the newest papers.
    assert 'href="papers/kl-for-a-kl-on-policy-distillation-with-control-variate/"' in home


def test_math_in_an_abstract_is_mathml(site: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    root, _ = site
    page = (root / "site" / "papers" / "poets-uncertainty-aware-llm-optimization-via-compute" / "index.html")
    html = page.read_text(encoding="utf-8")
    abstract = html[html.index('class="rl-abstract"'):]
    abstract = abstract[: abstract.index("</div>")]
    assert abstract.count("<math") == 5
    assert "$" not in re.sub(r"<math.*?</math>", "", abstract, flags=re.S)
    assert "<msqrt>" in abstract


def test_digest_page_lists_papers_in_order(site: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    root, _ = site
    html = (root / "site" / "digests" / "000-1b8355006bbdabc6" / "index.html").read_text(encoding="utf-8")
    titles = re.findall(r'<li><a href="../../papers/[^"]+/">([^<]+)</a>', html)
    assert titles[0].startswith("One-Shot Federated Distillation")
    assert titles[-1] == "DeepSeek-R1 Thoughtology: Let’s think about LLM reasoning"
    assert len(titles) == 11


def test_curator_pages_are_copied_into_the_site(site: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    root, _ = site
    html = (root / "site" / "about" / "index.html").read_text(encoding="utf-8")
    assert "About this list" in html
    assert 'href="../all/"' in html


def test_page_heads_announce_the_atom_feeds(site: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    root, _ = site
    home = (root / "site" / "index.html").read_text(encoding="utf-8")
    assert '<link rel="alternate" type="application/atom+xml" title="Reading list" href="feed.xml">' in home
    paper = (root / "site" / "papers" / "scaling-categorical-flow-maps" / "index.html").read_text(encoding="utf-8")
    assert 'type="application/atom+xml" title="Reading list" href="../../feed.xml">' in paper
    tag = (root / "site" / "tags" / "knowledge-distillation" / "index.html").read_text(encoding="utf-8")
    assert ('<link rel="alternate" type="application/atom+xml" title="Knowledge distillation" '
            'href="../../feed-knowledge-distillation.xml">') in tag
    assert (root / "site" / "feed.xml").is_file() and (root / "site" / "feed-knowledge-distillation.xml").is_file()
