"""Dirty rebuilds under `mkdocs serve` leave out the paper pages nobody changed (serve_rebuilds.py):
the edited page and the pages a changed Markdown page links to are rendered, the rest keep their
built files, links still resolve and the sitemap still lists every page.

Seen as MkDocs sees it: a real `mkdocs serve --dirty` (or `mkdocs build`), with a MkDocs hook
(build_observer.py) that writes down, after each build, the pages MkDocs was given and rendered."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import pytest

from generator.build import build
from generator.config import Config
from tests.servers import fetch, free_port
from tests.waiting import wait_until

pytestmark = pytest.mark.slow

OBSERVER = Path(__file__).with_name("build_observer.py")
PAPERS = 41


def _observed(config: Config, tmp_path: Path) -> tuple[dict[str, str], Path]:
    """The project built by the generator, its mkdocs.yml with the observer hook, and the
    environment of `readinglist serve` (the generator writes the docs folder; MkDocs renders it)."""
    build(config)
    mkdocs_yml = config.root / "mkdocs.yml"
    mkdocs_yml.write_text(mkdocs_yml.read_text(encoding="utf-8") + f"\nhooks:\n  - {OBSERVER}\n", encoding="utf-8")
    records = tmp_path / "builds.jsonl"
    env = dict(os.environ, READINGLIST_HOOK="off", NO_MKDOCS_2_WARNING="1", BUILD_OBSERVER_LOG=str(records))
    return env, records


def _builds(records: Path) -> list[dict[str, list[str]]]:
    if not records.is_file():
        return []
    return [json.loads(line) for line in records.read_text(encoding="utf-8").splitlines()]


def _papers(pages: list[str]) -> set[str]:
    return {p for p in pages if p.startswith("papers/")}






def _body(url: str) -> bytes:
    return fetch(url) or b""


def _page(url: str) -> bytes:
    """The page as built: without the live-reload call the server adds to it (its epoch and
    request number differ from one request to the next)."""
    return re.sub(rb"livereload\(\d+, \d+\);", b"", _body(url))


def _touch_later(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")
    later = time.time() + 5  # newer than the built page, whatever the file system's clock resolution
    os.utime(path, (later, later))


def _log(fh: IO[Any]) -> str:
    fh.flush()
    fh.seek(0)
    return str(fh.read())


@contextmanager
def _serving(config: Config, env: dict[str, str], tmp_path: Path) -> Iterator[tuple[str, IO[Any]]]:
    """`mkdocs serve --dirty` on a free port: (its root URL, its log)."""
    port = free_port()
    log = (tmp_path / "serve.log").open("a+")
    proc = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "--livereload", "--dirty",
                             "-a", f"127.0.0.1:{port}"], cwd=config.root, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        yield f"http://127.0.0.1:{port}/", log
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_a_rebuild_renders_the_edited_paper_and_the_linked_ones_and_keeps_the_sitemap(
        project: Callable[..., Config], tmp_path: Path) -> None:
    config = project()
    env, records = _observed(config, tmp_path)
    docs = config.build_dir
    papers = sorted(f"papers/{p.parent.name}/index.md" for p in (docs / "papers").glob("*/index.md"))
    assert len(papers) == PAPERS
    home = (docs / "index.md").read_text(encoding="utf-8")
    linked = sorted({f"papers/{name}/index.md" for name in re.findall(r"\]\(papers/([^)/]+)/index\.md\)", home)})
    assert linked, "the home page lists the newest papers"
    edited = next(p for p in papers if p not in linked)
    untouched = next(p for p in papers if p not in linked and p != edited)

    with _serving(config, env, tmp_path) as (root, log):
        wait_until(lambda: _builds(records) and _body(root + "sitemap.xml"), 90, lambda: _log(log))
        first = _builds(records)
        assert len(first) == 1 and _papers(first[0]["pages"]) == set(papers)  # the first build is a full one
        sitemap = _body(root + "sitemap.xml")
        assert sitemap.count(b"<loc>") > PAPERS
        untouched_url = root + untouched.removesuffix("index.md")
        before = _page(untouched_url)
        assert before

        _touch_later(docs / edited, "\n<p>An edit under serve.</p>\n")
        _touch_later(docs / "index.md", "\nA line added to the home page.\n")
        rebuilds = wait_until(lambda: (b := _builds(records)[1:]) and any("index.md" in r["rendered"] for r in b)
                              and any(edited in r["rendered"] for r in b) and b, 90, lambda: _log(log))
        for rebuild in rebuilds:
            # Only the edited paper and the ones the edited home page links to: the other 41 - 1 -
            # len(linked) papers are not even pages of the rebuild.
            assert _papers(rebuild["pages"]) <= {edited, *linked}, rebuild["pages"]
        home_build = next(r for r in rebuilds if "index.md" in r["rendered"])
        assert set(linked) <= _papers(home_build["pages"])
        assert untouched not in [p for r in rebuilds for p in r["pages"]]

        assert b"An edit under serve." in _body(root + edited.removesuffix("index.md"))
        assert _page(untouched_url) == before  # still there, as built
        index = _body(root).decode("utf-8")
        assert "A line added to the home page." in index
        # The home page's links to papers became URLs: their targets were among the rebuild's files.
        for page in linked:
            assert f'href="{page.removesuffix("index.md")}"' in index
            assert _body(root + page.removesuffix("index.md"))
        assert _body(root + "sitemap.xml") == sitemap  # every page, as the full build listed them

        # A new paper page: the set of pages changed, so a full dirty build, and a sitemap with it.
        count = len(_builds(records))
        new = docs / "papers" / "a-new-paper" / "index.md"
        new.parent.mkdir()
        new.write_text((docs / untouched).read_text(encoding="utf-8"), encoding="utf-8")
        full = wait_until(lambda: next((r for r in _builds(records)[count:]
                                        if "papers/a-new-paper/index.md" in r["pages"]), None), 90, lambda: _log(log))
        assert _papers(full["pages"]) == {*papers, "papers/a-new-paper/index.md"}
        wait_until(lambda: b"papers/a-new-paper/" in _body(root + "sitemap.xml"), 30, lambda: _log(log))
        assert _body(root + "papers/a-new-paper/")


def test_with_the_switch_off_a_rebuild_is_given_every_page_and_serves_the_same(
        project: Callable[..., Config], tmp_path: Path) -> None:
    config = project()
    env, records = _observed(config, tmp_path)
    env["READINGLIST_SERVE_PRUNE"] = "off"
    docs = config.build_dir
    papers = sorted(f"papers/{p.parent.name}/index.md" for p in (docs / "papers").glob("*/index.md"))
    edited, untouched = papers[0], papers[1]
    with _serving(config, env, tmp_path) as (root, log):
        wait_until(lambda: _builds(records) and _body(root + "sitemap.xml"), 90, lambda: _log(log))
        sitemap = _body(root + "sitemap.xml")
        untouched_url = root + untouched.removesuffix("index.md")
        before = _page(untouched_url)
        assert before

        _touch_later(docs / edited, "\n<p>An edit under serve, every page given.</p>\n")
        rebuild = wait_until(lambda: next((r for r in _builds(records)[1:] if edited in r["rendered"]), None),
                             90, lambda: _log(log))
        assert _papers(rebuild["pages"]) == set(papers)  # none left out: MkDocs' own dirty rebuild
        assert _papers(rebuild["rendered"]) == {edited}
        assert b"An edit under serve, every page given." in _body(root + edited.removesuffix("index.md"))
        assert _page(untouched_url) == before
        assert _body(root + "sitemap.xml") == sitemap


def test_plain_builds_are_never_pruned(project: Callable[..., Config], tmp_path: Path) -> None:
    config = project()
    env, records = _observed(config, tmp_path)
    command = [sys.executable, "-m", "mkdocs", "build", "--dirty", "-q", "-d", str(tmp_path / "site")]
    subprocess.run(command, cwd=config.root, env=env, check=True, capture_output=True)
    home = config.build_dir / "index.md"
    _touch_later(home, "\nA line added to the home page.\n")
    subprocess.run(command, cwd=config.root, env=env, check=True, capture_output=True)
    builds = _builds(records)
    assert len(builds) == 2
    for built in builds:
        assert len(_papers(built["pages"])) == PAPERS
    assert builds[1]["rendered"] == ["index.md"]  # MkDocs' own dirty build: only the changed page is rendered
