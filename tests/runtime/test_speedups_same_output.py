"""Every speed-up gives the same bytes: the seeds built with every speed-up switch of the benchmark's
variants (benchmarks/variants.py) off, and with all on, make the same docs folder and the same site
(benchmarks/oracle.py says what is left out of the site, and why); and that oracle itself."""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import oracle
from benchmarks.variants import VARIANTS
from tests.conftest import copy_project


def all_switches_off() -> dict[str, str]:
    """The environment of every variant that must give the base's bytes, together."""
    env: dict[str, str] = {}
    for variant in VARIANTS[1:]:
        if variant.same_bytes and variant.rev is None:
            env.update(variant.env)
    return env


def _mkdocs_build(root: Path, site: Path, extra: dict[str, str]) -> None:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", READINGLIST_PROGRESS="off", **extra)
    env.pop("READINGLIST_HOOK", None)  # the plugin runs the generator: both halves of the build
    env.pop("CI", None)  # in CI `readinglist build` fails on any warning, and the seeds have two
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                          cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.slow
def test_every_speed_up_switched_off_gives_the_same_docs_folder_and_site(tmp_path: Path) -> None:
    off = all_switches_off()
    # The switches of this session's audit and those before it are all among them.
    assert {"READINGLIST_CACHE", "READINGLIST_REFERENCE_CACHE", "READINGLIST_SKIP_MARKDOWN",
            "READINGLIST_FRAGMENTS", "READINGLIST_WORKERS", "READINGLIST_TEXT_CACHE",
            "READINGLIST_SERVE_PRUNE", "READINGLIST_GC_PAUSE", "READINGLIST_LATE_ARTICLE"} <= off.keys()
    assert "READINGLIST_SHARED_CHROME" not in off  # inline chrome: other bytes by design (test_html_pages.py)
    copy_project(tmp_path)
    # One folder for both builds, one after the other (cold each time): the same paths in both.
    _mkdocs_build(tmp_path, tmp_path / "site-on", {})
    (tmp_path / "build").rename(tmp_path / "build-on")
    shutil.rmtree(tmp_path / ".readinglist-cache")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / ".gitignore").write_text("*\n!.gitignore\n")
    _mkdocs_build(tmp_path, tmp_path / "site-off", off)

    docs_on, docs_off = oracle.digests(tmp_path / "build-on"), oracle.digests(tmp_path / "build")
    site_on = oracle.digests(tmp_path / "site-on", site=True)
    site_off = oracle.digests(tmp_path / "site-off", site=True)
    assert len([p for p in docs_on if p.startswith("papers/")]) >= 41 and "papers.json" in docs_on
    assert len([p for p in site_on if p.startswith("papers/") and p.endswith("/index.html")]) == 41
    assert oracle.first_difference(docs_off, docs_on) is None
    assert oracle.first_difference(site_off, site_on) is None


def test_the_oracle_names_the_first_file_that_differs(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        (root / "papers" / "x").mkdir(parents=True)
        (root / "papers" / "x" / "index.html").write_text("<p>x</p>")
        (root / "index.html").write_text("<p>home</p>")
    assert oracle.compare((oracle.digests(a), {}), (oracle.digests(b), {})) is None
    (b / "papers" / "x" / "index.html").write_text("<p>y</p>")
    (b / "zeta.html").write_text("new")
    assert oracle.compare((oracle.digests(a), {}), (oracle.digests(b), {})) == "build/papers/x/index.html"
    assert oracle.compare(({}, oracle.digests(a)), ({}, oracle.digests(b))) == "site/papers/x/index.html"
    (b / "papers" / "x" / "index.html").write_text("<p>x</p>")
    assert oracle.first_difference(oracle.digests(a), oracle.digests(b)) == "zeta.html"  # a file only one has


def test_the_oracle_leaves_out_only_the_search_index_and_the_sitemap_dates(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for root, day, chunk in ((a, "2026-12-04", "en_17e9a21"), (b, "2026-12-05", "en_9168259")):
        (root / "pagefind" / "filter").mkdir(parents=True)
        (root / "pagefind" / "filter" / f"{chunk}.pf_filter").write_bytes(b"\x00")
        xml = f"<urlset><url><loc>http://x/</loc><lastmod>{day}</lastmod></url></urlset>".encode()
        (root / "sitemap.xml").write_bytes(xml)
        (root / "sitemap.xml.gz").write_bytes(gzip.compress(xml, mtime=int(day[-2:]) * 86400))
    assert oracle.first_difference(oracle.digests(a, site=True), oracle.digests(b, site=True)) is None
    assert oracle.first_difference(oracle.digests(a), oracle.digests(b)) == "pagefind/filter/en_17e9a21.pf_filter"
    # Anything else in the sitemap still counts.
    (b / "sitemap.xml").write_text("<urlset><url><loc>http://y/</loc><lastmod>2026-12-05</lastmod></url></urlset>")
    assert oracle.first_difference(oracle.digests(a, site=True), oracle.digests(b, site=True)) == "sitemap.xml"
