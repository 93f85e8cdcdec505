"""Every relative link (`href`, `src`, `xlink:href`) and anchor of every page resolves on the three
builds of the seeds' site: MkDocs with the readinglist plugin, a stock MkDocs without it, and
Zensical 0.0.73 and 0.1.2 (each served under /reading-list/, so a link that climbs one level too high
is a 404, not a lucky hit on the site's root).

Zensical resolves a relative link in raw HTML against the Markdown file's folder, not the
page's URL (render/links.py): on today's layout `papers/<slug>.md` that put 961 of 4,330 links
one level too high."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_linkcheck import check
from browser_site import Served

pytestmark = pytest.mark.slow


@pytest.fixture(params=["plugin", "stock", "zensical", "zensical_newest"])
def build(request: pytest.FixtureRequest, served_sites: dict[str, Served]) -> Served:
    if request.param == "plugin":
        return served_sites["subpath"]
    return request.getfixturevalue(f"{request.param}_site")  # type: ignore[no-any-return]


def test_every_relative_link_resolves_on_every_build(build: Served) -> None:
    report = check(build.base, build.site_dir)
    assert report.problems == []
    papers: list[dict[str, Any]] = json.loads(build.file("papers.json").read_text("utf-8"))
    pages = set(report.pages(build.base))
    # The crawl covered every page type: every paper, every tag page and its .bib, every digest.
    assert len(papers) == 41 and {build.url(p["page"]) for p in papers} <= pages
    tags = {build.url(t.parent.relative_to(build.site_dir).as_posix() + "/")
            for t in (build.site_dir / "tags").glob("*/index.html")}
    assert len(tags) > 30 and tags <= pages
    assert {build.url(t.replace("/index.html", "/").removesuffix("index.html")) for t in
            ("all/index.html", "map/index.html", "tags/index.html", "digests/index.html",
             "digests/000-1b8355006bbdabc6/index.html", "status/queue/index.html", "about/index.html")} <= pages
    assert {build.url(f"tags/{t.parent.name}.bib") for t in (build.site_dir / "tags").glob("*/index.html")} <= pages
    assert build.url("digests/000-1b8355006bbdabc6.bib") in pages
    assert report.anchors_checked >= 41 * 3  # every paper page's table of contents at least


def test_the_package_s_own_files_stay_out_of_the_site(build: Served) -> None:
    """The theme's Python module and MkDocs theme file are the package's, not the site's.

    Zensical (0.0.73 and 0.1.2) copies every file of a theme's folder that is not HTML
    (process_theme_assets in its workflow.rs), and both engines need the folder to hold
    mkdocs_theme.yml (`extends: material`) and to be where the `mkdocs.themes` entry point's
    module lives; `readinglist build --engine zensical` (how the Zensical sites here are built)
    takes the two copies out again (generator/site/zensical.py). No build publishes them."""
    extra = sorted(p.name for p in build.site_dir.iterdir() if p.suffix in (".py", ".yml", ".pyc"))
    assert extra == []
    assert not list(build.site_dir.rglob("__pycache__")) and not list(build.site_dir.rglob("*.py[co]"))
    assert (build.site_dir / "index.html").is_file() and (build.site_dir / "papers.json").is_file()
