"""Zensical builds a big list (issue 46): a listing page's rows stay out of Zensical's search index.

At 10,000 papers `zensical build` stopped with "Search field 'text' at 'all/' exceeds the search
index limit": the All papers page's table was one search field, and the limit shrinks as the
index grows. A list of 1,500 papers on one All papers page (`page_size: 1500`) failed the same way
before the listing tables were kept out of search (render/rows.py, NOT_INDEXED; all.md's
front matter), in a couple of minutes instead of the ten of a 10,000-paper list.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, copy_project

pytestmark = pytest.mark.slow

N = 1500


def test_zensical_builds_a_list_whose_all_papers_page_was_too_big_for_its_search(tmp_path: Path) -> None:
    config = copy_project(tmp_path, seeds=False)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import synth
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    papers = synth.generate(N, tmp_path / "seeds", seed=3).papers
    text = config.read_text("utf-8")
    assert "    seeds: seeds\n" in text and "citation_styles: [apa, ieee]" in text
    # One All papers page of every paper; no formatted references (they take most of a cold build
    # and are not what this test is about).
    text = text.replace("    seeds: seeds\n", f"    seeds: seeds\n    page_size: {N}\n")
    config.write_text(text.replace("citation_styles: [apa, ieee]", "citation_styles: []"), "utf-8")
    # Not strict, as `readinglist build` is under CI=true: the synthetic digests' dates and the seeds'
    # notes (orphans here) give warnings, which are not what this test is about.
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", READINGLIST_PROGRESS="off", CI="")
    bindir = Path(sys.executable).parent
    gen = subprocess.run([str(bindir / "readinglist"), "build"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=600)
    assert gen.returncode == 0, gen.stderr
    assert f"readinglist: {N} papers" in gen.stdout + gen.stderr
    run = subprocess.run([str(bindir / "zensical"), "build"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    site = tmp_path / "site"
    # The page itself is whole: every paper's row, linking its page.
    rows = re.findall(r'<td><a href="([^"]+)">', (site / "all" / "index.html").read_text("utf-8"))
    assert len(rows) == N
    assert all((site / "all" / href / "index.html").resolve().is_file() for href in rows[:50])
    # Zensical's own index: no field of All papers, but every paper page, and a tag page's heading.
    items = json.loads((site / "search.json").read_text("utf-8"))["items"]
    locations = {item["location"].split("#")[0] for item in items}
    assert "all/" not in locations
    titles = {item["title"] for item in items}
    assert papers[0].title in titles and papers[-1].title in titles
    assert sum(1 for loc in locations if loc.startswith("papers/")) == N
    # A tag's page: its heading and links are found, its table of papers is not in the index.
    tag_pages = [item for item in items if re.fullmatch(r"tags/[^/]+/", item["location"])]
    assert tag_pages
    for item in tag_pages:
        assert "BibTeX of all" in item["text"] and "First author" not in item["text"], item["location"]
