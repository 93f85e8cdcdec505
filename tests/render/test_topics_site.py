"""Tags, related papers and pictures in the built site (one `mkdocs build --strict` per module)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlparse

import pytest

from generator.build import BuildResult
from generator.render.graph import url_from
from generator.render.tagnames import tag_slugs
from tests.conftest import copy_project
from tests.waiting import wait_until

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("topicsite")
    copy_project(dest)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(dest / "mkdocs.yml")],
                         capture_output=True, text=True, env=env, cwd=dest)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "WARNING" not in run.stderr
    return dest / "site"


def _resolve(site: Path, page: Path, href: str) -> Path:
    base = "/" + page.relative_to(site).as_posix()
    path = urlparse(urljoin(base, href)).path
    target = site / path.lstrip("/")
    return target / "index.html" if path.endswith("/") else target


def _page(site: Path, prefix: str) -> Path:
    hits = sorted(site.glob(f"papers/{prefix}*/index.html"))
    assert len(hits) == 1, prefix
    return hits[0]


def test_tag_chips_link_to_the_tags_own_page(site: Path) -> None:
    page = _page(site, "kl-for-a-kl")
    html = page.read_text("utf-8")
    chips = {unescape(name): href for href, name in re.findall(r'<a href="([^"]+)" class="md-tag">([^<]+)</a>', html)}
    assert set(chips) >= {"On-policy distillation", "Knowledge distillation", "Machine Learning (cs.LG)"}
    assert chips["On-policy distillation"] == "../../tags/on-policy-distillation/"
    for name, href in chips.items():
        target = _resolve(site, page, href)
        assert target.is_file() and target.parent.parent.name == "tags", href
        title = re.search(r'<h1 id="[^"]+">(.*?)<a class="headerlink"', target.read_text("utf-8"))
        assert title is not None and unescape(title.group(1)) == name


def test_tag_page_lists_papers_with_first_author_year_and_bib(site: Path, seed_build: BuildResult) -> None:
    html = (site / "tags" / "on-policy-distillation" / "index.html").read_text("utf-8")
    assert "2 papers" in html
    kl = next(p for p in seed_build.library.papers if p.title.startswith("KL for a KL"))
    row = re.search(r"<tr>\s*<td><a href=\"([^\"]+)\">KL for a KL[^<]*</a></td>\s*<td>([^<]+)</td>\s*<td>(\d+)</td>",
                    html)
    assert row is not None
    assert row.group(2) == f"{kl.first_author} et al." and row.group(3) == "2026"
    assert _resolve(site, site / "tags/on-policy-distillation/index.html", row.group(1)).is_file()
    bib = (site / "tags" / "on-policy-distillation.bib").read_text("utf-8")
    assert sorted(re.findall(r"@\w+\{([^,]+),", bib)) == ["oh2026kl", "yang2026pruneopd"]
    assert 'href="../on-policy-distillation.bib"' in html


def test_tags_index_lists_every_tag(site: Path, seed_build: BuildResult) -> None:
    html = (site / "tags" / "index.html").read_text("utf-8")
    tags = {t for p in seed_build.library.papers for t in p.tags}
    slugs = tag_slugs(sorted(tags))
    for tag in tags:
        assert f'href="{slugs[tag]}/"' in html, tag
    assert (site / "tags" / slugs["Computation and Language (cs.CL)"] / "index.html").is_file()


def test_related_links_and_graph_nodes_resolve(site: Path) -> None:
    page = _page(site, "flexible-routing")
    html = page.read_text("utf-8")
    section = html.split('id="related-papers"', 1)[1].split("</ol>", 1)[0]
    listed = re.findall(r'<li><a href="([^"]+)">([^<]+)</a>', section)
    assert len(listed) == 5
    assert any(t.startswith("PersonalizedRouter") for _, t in listed)
    assert section.count('class="rl-why"') == 5
    # The picture is drawn in the browser (static/readinglist.js) from the list and these data:
    # a score per related paper, in the list's order, and the pairs related to each other.
    graph = re.search(r'<div class="rl-graph" data-scores="([0-9. ]+)"(?: data-edges="([0-9 -]+)")?></div>\n<ol>',
                      section)
    assert graph is not None
    scores = [float(s) for s in graph.group(1).split()]
    assert len(scores) == 5 and scores == sorted(scores, reverse=True)
    whys = re.findall(r'· score ([0-9.]+)</span>', section)
    assert [f"{s:.2f}" for s in scores] == whys
    assert "<svg" not in section
    for href in [h for h, _ in listed]:
        assert _resolve(site, page, href).is_file(), href


def test_map_page_draws_every_paper_with_legend(site: Path, seed_build: BuildResult) -> None:
    page = site / "map" / "index.html"
    html = page.read_text("utf-8")
    svg = re.search(r"<svg [^>]*class=\"rl-graph-svg rl-map-svg\".*?</svg>", html, re.S)
    assert svg is not None
    nodes = re.findall(r'<a xlink:href="([^"]+)" class="rl-node rl-node--map"', svg.group(0))
    assert len(nodes) == len(seed_build.library.papers) == 41
    assert all(_resolve(site, page, h).is_file() for h in nodes)
    legend = re.findall(r'<li><span class="rl-swatch" style="background:(#[0-9a-f]{6})"></span>'
                        r'(?:<a href="([^"]+)">)?([^<(]+)', html)
    assert len(legend) >= 5
    for _, href, _name in legend:
        if href:
            assert _resolve(site, page, href).is_file()
    assert '<a href="map/" class="md-tabs__link">' in (site / "index.html").read_text("utf-8")  # in the nav


def test_layout_is_reproducible(seed_build: BuildResult, project) -> None:  # type: ignore[no-untyped-def]
    from generator.build import build

    again = build(project(), write=False)
    assert again.files["map.md"] == seed_build.files["map.md"]
    paper = next(k for k in again.files if k.startswith("papers/flexible-routing") and k.endswith(".md"))
    assert again.files[paper] == seed_build.files[paper]


def test_url_from_matches_directory_urls() -> None:
    assert url_from("papers/a.md", "papers/b.md") == "../b/"
    assert url_from("map.md", "papers/b.md") == "../papers/b/"
    assert url_from("map.md", "tags/x.md") == "../tags/x/"
    assert url_from("index.md", "papers/b.md") == "papers/b/"


@pytest.fixture(scope="module")
def served(site: Path):  # type: ignore[no-untyped-def]
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
                              cwd=site, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def listening() -> bool:
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", port)) == 0

        wait_until(listening, 30, "the static server did not come up")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def _luminance(css: str) -> float:
    r, g, b = (int(x) for x in re.findall(r"\d+", css)[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_pictures_readable_and_clickable_in_chromium(served: str, scheme: str, chromium_browser: Any) -> None:
    context = chromium_browser.new_context(color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(f"{served}/papers/flexible-routing-via-uncertainty-decomposition/", wait_until="load")
        svg = page.locator(".rl-graph-svg").first
        box = svg.bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 100
        label = page.locator(".rl-graph-svg text").first
        fill = label.evaluate("e => getComputedStyle(e).fill")
        background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        # Labels contrast with the page in both palettes (currentColor follows Material's scheme).
        assert abs(_luminance(fill) - _luminance(background)) > 0.5, (fill, background)
        page.goto(f"{served}/map/", wait_until="load")
        nodes = page.locator(".rl-map-svg a.rl-node--map")
        assert nodes.count() == 41
        nodes.nth(0).locator("circle").click()
        page.wait_for_url(re.compile(r".*/papers/[a-z0-9-]+/$"))
        assert page.locator("h1").inner_text().strip() != ""
    finally:
        context.close()


def test_map_caps_what_it_draws_and_says_so(seed_build: BuildResult, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.render import map as map_page

    monkeypatch.setattr(map_page, "MAX_NODES", 10)
    text = map_page.render_map(seed_build.library)
    assert '!!! note "Showing 10 of 41 papers"' in text
    assert text.count('class="rl-node rl-node--map"') == 10


def test_empty_list_builds(project) -> None:  # type: ignore[no-untyped-def]
    from generator.build import build

    result = build(project(seeds=False), write=False)
    assert result.library.papers == []
    assert "0 papers" in result.files["map.md"]
    assert "| Tag | Papers | About |" in result.files["tags.md"]


def test_pictures_and_tag_pages_escape_input_text() -> None:
    from dataclasses import replace

    from generator.model import Library, Paper, Related, SourceRef
    from generator.render.html import Ids
    from generator.render.related import neighbours, related_section
    from generator.render.rows import Entry
    from generator.render.tags import render_tag_page

    evil = Paper(id="a", title='<script>alert("x")</script> & *bold*', authors=("<img src=x>",),
                 abstract="", origin=SourceRef("s.txt", 1), slug="a", tags=("C++ & Rust",))
    other = Paper(id="b", title="Plain", authors=("B C",), abstract="", origin=SourceRef("s.txt", 2), slug="b",
                  related=(Related("a", 0.5, "shared terms: <b>x</b>"),))
    evil = replace(evil, related=(Related("b", 0.5, "why <i>"),))
    lib = Library(papers=[evil, other])
    section = related_section(other, neighbours(lib.papers), Ids())
    assert "<script" not in section and "<b>" not in section and "<img" not in section
    assert "&#60;script&#62;" in section
    page = render_tag_page("C++ & Rust", "c-rust", [Entry(evil)])
    assert "<script" not in page and "<img" not in page
    assert '<h1 id="c-rust">C&#43;&#43; &#38; Rust<a class="headerlink"' in page
