"""Hostile payloads in the new formats (an arXiv e-mail, an announcement feed, a .bib file) stay
inert: a site built from them has no injected element, attribute, script or comment, and each
payload is on its paper's page as text."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hostile_html import HOSTILE, scan
from pybtex.database import parse_string

from tests.conftest import copy_project

pytestmark = pytest.mark.slow

# What each paper page must show as text (the TeX of e-mail and .bib fields decoded first).
SHOWN = {
    "arxiv:2306.09001": ['<script>alert("xss-etitle")</script> E-mail Title',
                         # `(...)` glued to a word is no affiliation (arXiv prints `Name (Affiliation)`): kept.
                         'Mallory <img src=x onerror=alert("xss-eauthor")>',
                         # TeX: `--` is a dash.
                         'An abstract with <iframe src="javascript:alert(1)"></iframe> and '
                         '[click](javascript:alert("xss-emd")) and <!– xss-ecomment2 –> inside.'],
    "arxiv:2306.09002": ['<svg onload=alert("xss-rtitle")> Feed Title',
                         'Eve <b onclick=alert("xss-rauthor")>Evil</b>',
                         # TeX: braces group.
                         '<img src=x onerror=alert("xss-rabstract")> and config inside.'],
    "title:script-alert-xss-btitle-script-bib-title": [
        # `Last, First`: the braced payload is the first name.
        '<script>alert("xss-btitle")</script> Bib Title', '<img src=x onerror=alert("xss-bauthor")> Mallory',
        "An abstract with xss-bhref and <!– xss-bcomment –> inside."],
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]], str]:
    project = tmp_path_factory.mktemp("hostile-formats")
    copy_project(project, seeds=False)
    for path in (HOSTILE / "formats").iterdir():
        shutil.copy(path, project / "seeds" / path.name)
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env.pop("READINGLIST_HOOK", None)
    env.pop("CI", None)  # strict in CI: these files are meant to be read with their warnings
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build"], cwd=project, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    papers = json.loads((project / "site" / "papers.json").read_text(encoding="utf-8"))
    return project / "site", papers, proc.stderr


def test_every_paper_is_read(site: tuple[Path, list[dict[str, Any]], str]) -> None:
    _, papers, log = site
    assert sorted(p["id"] for p in papers) == sorted(SHOWN)
    assert "readinglist: 3 papers from 3 digests" in log


def test_no_page_has_anything_injected(site: tuple[Path, list[dict[str, Any]], str]) -> None:
    root, _, _ = site
    pages = sorted(root.rglob("*.html"))
    assert len(pages) > 10
    bad = {p.relative_to(root).as_posix(): scan(p.read_text(encoding="utf-8")).injected() for p in pages}
    assert {k: v for k, v in bad.items() if v} == {}


def test_payloads_are_text_on_their_pages(site: tuple[Path, list[dict[str, Any]], str]) -> None:
    root, papers, _ = site
    for paper in papers:
        text = scan((root / paper["page"] / "index.html").read_text(encoding="utf-8")).text
        for shown in SHOWN[paper["id"]]:
            assert shown in text, (paper["id"], shown)


def test_exports_hold_the_payloads_inertly(site: tuple[Path, list[dict[str, Any]], str]) -> None:
    root, papers, _ = site
    raw = (root / "papers.json").read_text(encoding="utf-8")
    assert "<" not in raw and ">" not in raw
    bib = parse_string((root / "references.bib").read_text(encoding="utf-8"), "bibtex")
    assert len(bib.entries) == len(papers) == 3
    assert "xss-ebib-breakout" in bib.entries[next(p["key"] for p in papers if p["id"] == "arxiv:2306.09001")
                                              ].fields["note"]
    # Links come from identifiers and http(s) only: the .bib's javascript: url is no link.
    for paper in papers:
        assert paper["url"] is None or paper["url"].startswith("https://")
