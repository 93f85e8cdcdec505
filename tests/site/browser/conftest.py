"""Browser suite fixtures: the seed site built once per variant, served over http, one Chromium.

- `served_sites` (session): copies the project, runs `mkdocs build --strict` twice — for the site
  at `/` and under `/reading-list/` (GitHub project pages) — and serves each on its own port.
- `site` (session, parametrised "root"/"subpath"): one of them; every test taking it runs twice.
- `browser` (session): Debian's Chromium through Playwright.
- `page` (function): a fresh context and tab that records every request and console error;
  at teardown it fails the test if a request left 127.0.0.1 or the console showed an error.

New pages (tags, related, map, notes) need only a test taking `site` and `page`; `browser_ui.py` has the
helpers (`goto`, `search`, `click_and_wait`, `screenshot`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest
from browser_site import Served, mkdocs_build, serve, stock_build, zensical_build
from browser_ui import Recorder

from tests.conftest import IN_CI, ROOT, copy_project, require_tool

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
VARIANTS = {"root": "/", "subpath": "/reading-list/"}


@pytest.fixture(scope="session")
def served_sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Served]]:
    project = tmp_path_factory.mktemp("browser-project")
    copy_project(project)
    # mkdocs.yml names its hook by path; the package itself is the installed (editable) one.
    (project / "generator").symlink_to(ROOT / "generator", target_is_directory=True)
    sites: dict[str, Served] = {}
    try:
        for name, prefix in VARIANTS.items():
            # Bind first: the build needs the port for site_url.
            sites[name] = serve(name, project / f"site-{name}", prefix)
            mkdocs_build(project, sites[name])
        yield sites
    finally:
        for served in sites.values():
            served.stop()


def _other_build(tmp_path_factory: pytest.TempPathFactory, name: str,
                 build: Callable[[Path, Served], None]) -> Iterator[Served]:
    project = tmp_path_factory.mktemp(f"{name}-project")
    copy_project(project)
    served = serve(name, project / f"site-{name}", VARIANTS["subpath"])
    try:
        build(project, served)
        yield served
    finally:
        served.stop()


@pytest.fixture(scope="session")
def zensical_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`readinglist build` + `zensical build` of the seeds, under /reading-list/ (no plugin runs)."""
    require_tool(str(Path(sys.executable).with_name("zensical")))
    yield from _other_build(tmp_path_factory, "zensical", zensical_build)


# The newest Zensical that installs here (the Makefile's ZENSICAL_NEWEST), in a virtualenv of its
# own beside the test extra's 0.0.73: `make test` (zensical-deps) makes it.
ZENSICAL_NEWEST = "0.1.2"


@pytest.fixture(scope="session")
def zensical_newest_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`zensical_site` built by Zensical ZENSICAL_NEWEST, from `.venv-zensical-<version>/`."""
    exe = ROOT / f".venv-zensical-{ZENSICAL_NEWEST}" / "bin" / "zensical"
    if not exe.is_file():
        message = f"{exe} is missing: run `make zensical-deps`"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    yield from _other_build(tmp_path_factory, f"zensical-{ZENSICAL_NEWEST}", partial(zensical_build, zensical=exe))


@pytest.fixture(scope="session")
def stock_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`readinglist build` + `mkdocs build --strict` without the readinglist plugin, under /reading-list/."""
    yield from _other_build(tmp_path_factory, "stock", stock_build)


@pytest.fixture(scope="session", params=list(VARIANTS))
def site(request: pytest.FixtureRequest, served_sites: dict[str, Served]) -> Served:
    return served_sites[request.param]


@pytest.fixture(scope="session")
def browser(chromium_browser: object) -> object:
    return chromium_browser


@pytest.fixture
def recorder(browser: object, site: Served) -> Iterator[Recorder]:
    """A fresh context; `recorder.page` is its tab. Checks requests and console at teardown."""
    rec = Recorder.open(browser, site)
    yield rec
    rec.close()
    rec.assert_clean()


@pytest.fixture
def page(recorder: Recorder) -> object:
    return recorder.page


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    """Emptied at the start of the session, so every picture there is from this run."""
    out = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.png"):
        old.unlink()
    return out
