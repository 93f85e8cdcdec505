"""Paper pages written as HTML (render/html.py): the same article whether MkDocs builds them with
the readinglist plugin (which skips the Markdown pass and shares the chrome around the article)
or without it, a table of contents, links that resolve, and shared chrome files the site has."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from generator.site import shared_chrome as chrome
from generator.site.fragments import FragmentCache
from tests.conftest import copy_project

pytestmark = pytest.mark.slow


def _run(args: list[str], root: Path, **extra: str) -> None:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", READINGLIST_PROGRESS="off", **extra)
    env.pop("READINGLIST_HOOK", None)
    env.pop("CI", None)  # in CI `readinglist build` fails on any warning, and the seeds have two
    proc = subprocess.run([sys.executable, "-m", *args], cwd=root, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr


def without_plugin(root: Path) -> Path:
    """A copy of root's mkdocs.yml without the readinglist plugin: stock MkDocs + Material."""
    text = (root / "mkdocs.yml").read_text(encoding="utf-8")
    plain, n = re.subn(r"(?m)^  - readinglist\n", "", text)
    assert n == 1
    (root / "mkdocs-plain.yml").write_text(plain, encoding="utf-8")
    return root / "mkdocs-plain.yml"


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(built with the plugin, built by stock MkDocs + Material after `readinglist build`); and,
    beside them, with the plugin but its fragment cache off (`site-fragments-off`)."""
    root = tmp_path_factory.mktemp("html-pages")
    copy_project(root)
    _run(["mkdocs", "build", "--strict", "--site-dir", str(root / "site-plugin")], root)
    _run(["mkdocs", "build", "--strict", "--site-dir", str(root / "site-fragments-off")], root,
         READINGLIST_FRAGMENTS="off")
    _run(["mkdocs", "build", "--strict", "--site-dir", str(root / "site-shared-off")], root,
         READINGLIST_SHARED_CHROME="off")
    _run(["generator", "build"], root)
    _run(["mkdocs", "build", "--strict", "-f", str(without_plugin(root)), "--site-dir", str(root / "site-plain")],
         root)
    return root / "site-plugin", root / "site-plain"


def article(page: str) -> str:
    return page[page.index("<article"):page.index("</article>") + len("</article>")]


def test_every_paper_page_has_the_same_article_with_and_without_the_plugin(sites: tuple[Path, Path]) -> None:
    plugin, plain = sites
    pages = sorted(p.relative_to(plugin) for p in (plugin / "papers").glob("*/index.html"))
    assert len(pages) == 41
    for rel in pages:
        ours, stock = (plugin / rel).read_text(encoding="utf-8"), (plain / rel).read_text(encoding="utf-8")
        assert article(ours) == article(stock), rel
        assert '<article class="rl-paper">' in stock and '<p class="rl-authors">' in stock
    # The plugin's speed-ups are outside the article: its pages are smaller.
    assert sum((plugin / r).stat().st_size for r in pages) < 0.8 * sum((plain / r).stat().st_size for r in pages)


def test_reused_chrome_gives_the_same_site_byte_for_byte(sites: tuple[Path, Path]) -> None:
    on = {p.relative_to(sites[0]).as_posix(): p.read_bytes() for p in sorted(sites[0].rglob("*.html"))}
    off_dir = sites[0].with_name("site-fragments-off")
    off = {p.relative_to(off_dir).as_posix(): p.read_bytes() for p in sorted(off_dir.rglob("*.html"))}
    assert on.keys() == off.keys() and len([k for k in on if k.startswith("papers/")]) == 41
    assert [name for name in on if on[name] != off[name]] == []


def test_each_speed_up_switches_off_alone(sites: tuple[Path, Path]) -> None:
    """READINGLIST_SHARED_CHROME=off keeps icons and scripts inline but still reuses fragments
    (READINGLIST_FRAGMENTS has a switch of its own): the same articles, Material's own inline icons."""
    plugin, _ = sites
    shared_off = plugin.with_name("site-shared-off")
    pages = sorted(p.relative_to(plugin) for p in (plugin / "papers").glob("*/index.html"))
    for rel in pages:
        ours, inline = (plugin / rel).read_text(encoding="utf-8"), (shared_off / rel).read_text(encoding="utf-8")
        assert article(ours) == article(inline), rel
        assert 'class="rl-icon rl-icon-' in ours and 'class="rl-icon rl-icon-' not in inline, rel
    assert not (shared_off / chrome.ICONS_CSS).exists() and (plugin / chrome.ICONS_CSS).is_file()


def test_a_block_is_reused_only_after_it_proved_the_same() -> None:
    class Page:
        url, meta, previous_page, next_page, is_homepage = "papers/a/", {}, None, None, False

    cache = FragmentCache(enabled=True)
    calls: list[str] = []

    def block(title: str) -> object:
        def caller() -> str:
            calls.append(title)
            return f"<header>{title}</header><nav>same</nav>"
        return caller

    assert cache("header", Page(), ["A"], caller=block("A")) == "<header>A</header><nav>same</nav>"
    assert cache("header", Page(), ["B"], caller=block("B")) == "<header>B</header><nav>same</nav>"  # checked
    assert cache("header", Page(), ["C"], caller=block("C")) == "<header>C</header><nav>same</nav>"  # reused
    assert calls == ["A", "B"] and cache.reused == 2

    # A block whose output depends on more than its holes is caught at the check and never reused.
    sneaky = FragmentCache(enabled=True)
    counter = iter(range(10))

    def varying() -> str:
        return f"<header>T</header><p>{next(counter)}</p>"

    assert sneaky("footer", Page(), ["T"], caller=varying) == "<header>T</header><p>0</p>"
    assert sneaky("footer", Page(), ["T"], caller=varying) == "<header>T</header><p>1</p>"  # rendered once
    assert sneaky("footer", Page(), ["T"], caller=varying) == "<header>T</header><p>2</p>"
    assert sneaky.reused == 0

    # A hole that is not in the output exactly once (the title is also the site name) is not cut.
    twice = FragmentCache(enabled=True)
    twice("header", Page(), ["Home"], caller=lambda: "<a>Home</a><h1>Home</h1>")
    assert twice.parts == {}


def test_paper_page_toc_lists_its_sections_with_working_anchors(sites: tuple[Path, Path]) -> None:
    page = (sites[0] / "papers/one-shot-federated-distillation-using-monoclass-teachers-a/index.html").read_text()
    toc = page[page.index('data-md-type="toc"'):page.index('<div class="md-content"')]
    entries = re.findall(r'<a href="#([^"]+)" class="md-nav__link">\s*<span class="md-ellipsis">\s*(.*?)\s*</span>',
                         toc, re.S)
    assert entries == [("abstract", "Abstract"), ("my-notes", "My notes"), ("cite", "Cite"),
                       ("related-papers", "Related papers"), ("mentioned-in", "Mentioned in"),
                       ("sources", "Sources")]
    for anchor, _ in entries:
        assert f'<h2 id="{anchor}">' in page


def test_every_link_on_a_paper_page_resolves(sites: tuple[Path, Path]) -> None:
    site = sites[0]
    checked = 0
    for page in sorted((site / "papers").glob("*/index.html")):
        article = page.read_text()
        article = article[article.index('<article class="rl-paper">'):article.index("</article>")]
        for href in re.findall(r'(?:xlink:)?href="([^"]+)"', article):
            parts = urlsplit(href)
            if parts.scheme or href.startswith("#"):
                continue
            target = (page.parent / parts.path).resolve()
            if target.is_dir():
                target = target / "index.html"
            assert target.is_file(), f"{page.relative_to(site)}: {href}"
            checked += 1
    assert checked > 41 * 5  # digests, .bib files, related papers and their pictures


def test_paper_pages_share_chrome_files_the_site_has(sites: tuple[Path, Path]) -> None:
    """Icons are CSS masks from one stylesheet, the search dialog, palette switch, drawer and script
    config come from script files (generator/site/shared_chrome.py); every one of them is in the site."""
    site = sites[0]
    css = (site / chrome.ICONS_CSS).read_text(encoding="utf-8")
    rules = set(re.findall(r"^\.rl-icon-([0-9a-f]+)\{", css, re.M))
    pages = sorted((site / "papers").glob("*/index.html"))
    scripts: set[str] = set()
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert set(re.findall(r'<svg class="rl-icon rl-icon-([0-9a-f]+)"', html)) <= rules
        scripts.update(re.findall(r'<script src="\.\./\.\./(assets/javascripts/rl-[0-9a-f]+\.js)"', html))
        assert "data-rl-search" not in html and "md-nav--primary" not in html
        assert '<script src="../../assets/javascripts/readinglist-search.js"></script>' in html
    assert len(scripts) == 4  # head, header, drawer, config: the same four files for all 41 pages
    shared = "".join((site / s).read_text(encoding="utf-8") for s in sorted(scripts))
    for part in ('<div class=\\"md-search\\" data-rl-search', '__palette_1',
                 '<nav class=\\"md-nav md-nav--primary', 'href=\\"../../all/\\"', '<script id=\\"__config\\"',
                 "__md_scope=new URL"):
        assert part in shared, part
    # Every page links the stylesheet: a paper page's header stays when instant navigation leaves it.
    for page in ("index.html", "all/index.html", "tags/index.html", pages[0].relative_to(site).as_posix()):
        assert "assets/stylesheets/readinglist-icons.css" in (site / page).read_text(encoding="utf-8"), page
