"""The Nu HTML checker (vnu.jar, npm's vnu-jar, run with Debian's Java) over the nine kinds of page
of the site MkDocs builds with the plugin: no error that a stock Material page with the same
features lacks (Material's own markup has a few: `autocomplete` on its toggles, a `for` that names
its table-of-contents toggle on a page out of the navigation, `tabindex=""` on a section's
label)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from browser_site import Served

from tests.conftest import IN_CI, ROOT, require_tool

pytestmark = pytest.mark.slow

VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
PAGES = ["", "papers/scaling-categorical-flow-maps/", "all/", "tags/", "tags/knowledge-distillation/",
         "digests/", "digests/000-1b8355006bbdabc6/", "for-you/", "map/", "status/queue/", "about/"]

STOCK_CONFIG = """site_name: Stock
theme:
  name: material
  font: false
  features: [navigation.instant, navigation.tabs, navigation.top, search.suggest, search.highlight,
             content.code.copy]
  palette:
    - media: "(prefers-color-scheme: light)"
      scheme: default
      toggle: {icon: material/weather-night, name: Switch to dark mode}
    - media: "(prefers-color-scheme: dark)"
      scheme: slate
      toggle: {icon: material/weather-sunny, name: Switch to light mode}
plugins: [search, tags]
markdown_extensions:
  - toc: {permalink: true}
  - attr_list
  - pymdownx.highlight
  - pymdownx.superfences
  - pymdownx.tabbed: {alternate_style: true}
not_in_nav: orphan.md
nav:
  - Home: index.md
  - Section:
      - A: sec/a.md
      - B: sec/b.md
"""
STOCK_PAGE = """---
tags: [One, Two]
---
# A page

## Part

| Title | Year |
| --- | --- |
| [Home](../index.md) | 2025 |

=== "BibTeX"

    ```
    @misc{x, title = {X}}
    ```

=== "APA"

    ```
    X. (2025).
    ```

## Other part

Text with a [link](../index.md).
"""


def _vnu() -> Path:
    require_tool("java")
    if not VNU.is_file():
        if IN_CI:
            pytest.fail(f"{VNU} is missing (run `make npm-deps`)")
        pytest.skip(f"{VNU} is missing (run `make npm-deps`)")
    return VNU


def _errors(files: list[Path]) -> dict[str, set[str]]:
    run = subprocess.run(["java", "-jar", str(_vnu()), "--errors-only", "--format", "json", *map(str, files)],
                         capture_output=True, text=True, timeout=300)
    found: dict[str, set[str]] = {str(f): set() for f in files}
    for message in json.loads(run.stderr)["messages"]:
        found[message["url"].removeprefix("file:")].add(message["message"])
    return found


@pytest.fixture(scope="module")
def stock_material(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("stock-material")
    (root / "docs" / "sec").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(STOCK_CONFIG, encoding="utf-8")
    (root / "docs" / "index.md").write_text("# Home\n\nA [page](sec/a.md).\n", encoding="utf-8")
    # Pages in a navigation section, and one out of the navigation (as paper pages are).
    for name in ("sec/a", "sec/b", "orphan"):
        home = "/".join([".."] * name.count("/") + ["index.md"])
        (root / "docs" / f"{name}.md").write_text(STOCK_PAGE.replace("../index.md", home), encoding="utf-8")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q"], cwd=root, env=env, check=True,
                   timeout=300)
    return root / "site"


def test_our_pages_have_no_html_error_that_stock_material_lacks(served_sites: dict[str, Served],
                                                                 stock_material: Path) -> None:
    site = served_sites["root"]
    ours = _errors([site.site_dir / p / "index.html" for p in PAGES])
    stock = _errors(sorted(stock_material.rglob("index.html")))
    materials = set().union(*stock.values())
    assert materials, "the stock pages show Material's own errors: the checker ran"
    assert {Path(f).relative_to(site.site_dir).as_posix(): sorted(e - materials) for f, e in ours.items()} == {
        f"{p}index.html": [] for p in PAGES}


def test_the_checker_finds_an_error_in_our_markup(tmp_path: Path) -> None:
    page = tmp_path / "bad.html"
    page.write_text('<!doctype html><html lang="en"><title>x</title><p><a href="x" href="y">twice</a>',
                    encoding="utf-8")
    assert _errors([page]) == {str(page): {"Duplicate attribute “href”."}}
