"""The curator's own pages (content/pages/) are read by the read stage, and render only merges
what it is given: `sources.pages.read_pages` then `build.render(context, pages, problems)`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from generator.build import build, render
from generator.config import Config
from generator.errors import Problems
from generator.model import Library
from generator.sources.pages import read_pages
from tests.conftest import render_context


def test_read_pages_reads_every_markdown_file_with_its_path(tmp_path: Path) -> None:
    pages = tmp_path / "content" / "pages"
    (pages / "guides" / "deep").mkdir(parents=True)
    (pages / "about.md").write_text("# About\n\nWho keeps this list.\n", encoding="utf-8")
    (pages / "guides" / "deep" / "how.md").write_text("# How to read it\n", encoding="utf-8")
    (pages / "guides" / "notes.txt").write_text("not a page", encoding="utf-8")
    (pages / "broken.md").write_bytes(b"# Caf\xe9\n")  # Latin-1, not UTF-8
    problems = Problems()
    got = read_pages(pages, tmp_path, problems)
    assert got == {"about.md": "# About\n\nWho keeps this list.\n", "guides/deep/how.md": "# How to read it\n"}
    assert [str(p) for p in problems] == [
        "content/pages/broken.md: warning: cannot read page: 'utf-8' codec can't decode byte 0xe9 in "
        "position 5: invalid continuation byte"]


def test_no_pages_folder_gives_no_pages(tmp_path: Path) -> None:
    problems = Problems()
    assert read_pages(tmp_path / "content" / "pages", tmp_path, problems) == {} and not list(problems)


def test_render_takes_the_pages_it_is_given_and_reads_none(project: Callable[..., Config]) -> None:
    config = project(seeds=False)
    config.pages_dir.mkdir(parents=True, exist_ok=True)
    (config.pages_dir / "on-disk.md").write_text("# On disk\n", encoding="utf-8")
    problems = Problems()
    files = render(render_context(Library(), config), {"given.md": "# Given\n", "index.md": "# Mine\n"}, problems)
    assert files["given.md"] == "# Given\n"
    assert "on-disk.md" not in files  # render reads no file of the project
    assert files["index.md"] != "# Mine\n"  # the generated home page wins, with a warning
    assert [str(p) for p in problems] == ["content/pages/index.md: warning: has the name of a generated page; skipped"]


def test_a_build_puts_the_curators_pages_into_the_site(project: Callable[..., Config]) -> None:
    config = project(seeds=False)
    (config.pages_dir / "sub").mkdir(parents=True, exist_ok=True)
    text = "# Reading group\n\nThursdays.\n"
    (config.pages_dir / "sub" / "reading-group.md").write_text(text, encoding="utf-8")
    result = build(config)
    assert (config.build_dir / "sub" / "reading-group.md").read_text(encoding="utf-8") == text
    assert result.files["sub/reading-group.md"] == text
