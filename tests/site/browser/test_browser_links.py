"""No broken internal link or anchor anywhere in the built site, at `/` and under `/reading-list/`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser_linkcheck import check
from browser_site import Served, serve

pytestmark = pytest.mark.slow


def test_every_internal_link_and_anchor_resolves(site: Served) -> None:
    report = check(site.base, site.site_dir)
    assert report.problems == []
    # The crawl really covered the site: every paper page, every tag's .bib, the exports, the assets.
    papers = json.loads(site.file("papers.json").read_text("utf-8"))
    pages = set(report.pages(site.base))
    assert {site.url(p["page"]) for p in papers} <= pages
    tag_bibs = {site.url(p.relative_to(site.site_dir).as_posix()) for p in (site.site_dir / "tags").glob("*.bib")}
    assert len(tag_bibs) > 30 and tag_bibs <= pages
    assert site.url("assets/javascripts/readinglist.js") in pages
    assert {site.url("references.bib"), site.url("papers.json"), site.url("all/"), site.url("digests/")} <= pages
    assert report.anchors_checked >= 41 * 3  # every paper page's table of contents at least


def test_the_checker_reports_broken_links_and_anchors(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "a").mkdir(parents=True)
    (site / "index.html").write_text(
        '<a href="a/">ok</a> <a href="a/#here">ok</a> <a href="a/#gone">bad anchor</a>'
        ' <a href="missing/">bad page</a> <a href="/elsewhere/">outside</a> <a href="https://example.org/">ext</a>',
        encoding="utf-8")
    (site / "a" / "index.html").write_text('<h2 id="here">Here</h2>', encoding="utf-8")
    served = serve("fixture", site, "/sub/")
    try:
        report = check(served.base, site)
    finally:
        served.stop()
    base = served.base
    assert report.problems == [
        f"{base}: broken link to {base}missing/ (HTTP 404)",
        f"{base}: link '/elsewhere/' leaves the site's path /sub/",
        f"{base}: no anchor #gone on {base}a/",
    ]
