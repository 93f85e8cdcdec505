"""Dirty rebuilds under `mkdocs serve` leave out the paper pages nobody changed (serve_rebuilds.py):
the edited page and the pages a changed Markdown page links to are rendered, the rest keep their
built files, links still resolve and the sitemap still lists every page."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from mkdocs.commands.build import build as mkdocs_build
from mkdocs.config import load_config as mkdocs_config

from generator.build import build
from generator.config import Config
from generator.site import plugin as mkdocs_plugin
from generator.site import serve_rebuilds


@pytest.fixture
def served(project: Callable[..., Config], monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Config, Path]]:
    config = project()
    build(config)
    # As under `readinglist serve`: the generator writes the docs folder, MkDocs only renders it.
    monkeypatch.setenv("READINGLIST_HOOK", "off")
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    state = mkdocs_plugin._state
    saved = dict(state)
    state.clear()
    state.update(serving=True, dirty=True, built=False)
    removed: list[list[str]] = []
    real = serve_rebuilds.prune
    monkeypatch.setattr(serve_rebuilds, "prune", lambda files, st: removed.append(real(files, st)) or removed[-1])
    state["removed"] = removed
    yield config, config.root / "site-served"
    state.clear()
    state.update(saved)


def _rebuild(config: Config, site: Path) -> None:
    mkdocs_build(mkdocs_config(config_file=str(config.root / "mkdocs.yml"), site_dir=str(site)), dirty=True)


def _touch_later(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")
    later = time.time() + 5  # newer than the built page, whatever the file system's clock resolution
    os.utime(path, (later, later))


def test_a_rebuild_renders_the_edited_paper_and_the_linked_ones_and_keeps_the_sitemap(
        served: tuple[Config, Path]) -> None:
    config, site = served
    docs = config.build_dir
    _rebuild(config, site)
    removed = mkdocs_plugin._state["removed"]
    assert removed == [[]]  # the first build is a full one
    sitemap = (site / "sitemap.xml").read_bytes()
    papers = sorted(p.parent.name for p in (docs / "papers").glob("*/index.md"))
    assert len(papers) == 41 and len(re.findall(rb"<loc>", sitemap)) > 41

    home = (docs / "index.md").read_text(encoding="utf-8")
    linked = sorted(set(re.findall(r"\]\(papers/([^)/]+)/index\.md\)", home)))
    assert linked, "the home page lists the newest papers"
    edited = next(p for p in papers if p not in linked)
    untouched = next(p for p in papers if p not in linked and p != edited)
    untouched_html = site / "papers" / untouched / "index.html"
    before = untouched_html.read_bytes()
    _touch_later(docs / "papers" / edited / "index.md", "\n<p>An edit under serve.</p>\n")
    _touch_later(docs / "index.md", "\nA line added to the home page.\n")

    _rebuild(config, site)
    left_out = removed[-1]
    assert f"papers/{untouched}/index.md" in left_out
    assert f"papers/{edited}/index.md" not in left_out
    assert not [p for p in linked if f"papers/{p}/index.md" in left_out]
    assert len(left_out) == 41 - 1 - len(linked)
    assert "An edit under serve." in (site / "papers" / edited / "index.html").read_text("utf-8")
    assert untouched_html.read_bytes() == before  # still there, as built
    index = (site / "index.html").read_text("utf-8")
    assert "A line added to the home page." in index
    # The home page's links to papers became URLs: their targets were still among the files.
    for name in linked:
        assert f'href="papers/{name}/"' in index
        assert (site / "papers" / name / "index.html").is_file()
    assert (site / "sitemap.xml").read_bytes() == sitemap


def test_a_new_paper_page_gets_a_full_dirty_build(served: tuple[Config, Path]) -> None:
    config, site = served
    docs = config.build_dir
    _rebuild(config, site)
    first = sorted((docs / "papers").glob("*/index.md"))[0]
    (docs / "papers" / "a-new-paper").mkdir()
    (docs / "papers" / "a-new-paper" / "index.md").write_text(first.read_text(encoding="utf-8"), encoding="utf-8")
    _rebuild(config, site)
    assert mkdocs_plugin._state["removed"][-1] == []
    assert b"papers/a-new-paper/" in (site / "sitemap.xml").read_bytes()
    assert (site / "papers" / "a-new-paper" / "index.html").is_file()


def test_plain_builds_are_never_pruned(served: tuple[Config, Path]) -> None:
    config, site = served
    mkdocs_plugin._state["dirty"] = False
    _rebuild(config, site)
    _rebuild(config, site)
    assert mkdocs_plugin._state["removed"] == [[], []]
