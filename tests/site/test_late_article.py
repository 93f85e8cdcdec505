"""A paper page's article is whole for everyone but Material's unused search index: with Pagefind,
the plugin keeps the article out of the theme until the page is rendered (site/paper_chrome.py,
step 3); every other plugin still sees the finished page, and without Pagefind, Material's own
search index still gets every paper's text."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import copy_project

HERE = Path(__file__).resolve().parent


def _mkdocs_build(root: Path, env: dict[str, str], strict: bool = True) -> None:
    full = dict(os.environ, NO_MKDOCS_2_WARNING="1", READINGLIST_PROGRESS="off", **env)
    full.pop("READINGLIST_HOOK", None)
    full.pop("CI", None)  # in CI `readinglist build` fails on any warning, and the seeds have two
    command = [sys.executable, "-m", "mkdocs", "build", *(["--strict"] if strict else [])]
    proc = subprocess.run(command, cwd=root, env=full, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.slow
def test_a_plugin_after_readinglist_sees_each_paper_page_whole(tmp_path: Path) -> None:
    config = copy_project(tmp_path)
    config.write_text(config.read_text(encoding="utf-8") + f"\nhooks:\n  - {HERE / 'article_observer.py'}\n",
                      encoding="utf-8")
    log = tmp_path / "observed.jsonl"
    _mkdocs_build(tmp_path, {"ARTICLE_OBSERVER_LOG": str(log)})

    seen = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert len(seen) == 41
    for page in seen:
        slug = page["src"].removeprefix("papers/").removesuffix("/index.md")
        built = (tmp_path / "site" / "papers" / slug / "index.html").read_text(encoding="utf-8")
        # The body the generator wrote (finished HTML after the front matter) is the article:
        # in page.content, in the page the next plugin gets, and in the site.
        body = (tmp_path / "build" / page["src"]).read_text(encoding="utf-8").split("\n---\n", 1)[1].strip()
        assert body.startswith('<nav class="md-tags">') and 'class="rl-abstract"' in body
        assert page["content"] == body
        assert body in page["output"] and body in built
        assert "<!-- readinglist:" not in page["output"]


@pytest.mark.slow
def test_without_pagefind_materials_search_index_holds_the_paper_text(tmp_path: Path) -> None:
    # Pagefind's binary made unimportable and off the PATH: the plugin says search falls back to
    # Material's built-in index, which reads each page's content as the theme renders it.
    blocker = tmp_path / "no-pagefind"
    for name in ("pagefind_bin", "pagefind_bin_extended"):
        (blocker / name).mkdir(parents=True)
        (blocker / name / "__init__.py").write_text("raise ImportError('no Pagefind here')\n", encoding="utf-8")
    root = tmp_path / "project"
    root.mkdir()
    copy_project(root)
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep)
                           if not (Path(p) / "pagefind").exists() and not (Path(p) / "pagefind_extended").exists())
    # (Not --strict: the plugin warns that Pagefind is missing.)
    _mkdocs_build(root, {"PYTHONPATH": str(blocker), "PATH": path}, strict=False)

    assert not (root / "site" / "pagefind").exists()
    index = json.loads((root / "site" / "search" / "search_index.json").read_text(encoding="utf-8"))
    slug = "maron2025oneshot"
    page = next(p for p in json.loads((root / "build" / "papers.json").read_text(encoding="utf-8"))
                if p["key"] == slug)
    item = next(i for i in json.loads((root / "build" / "references.json").read_text(encoding="utf-8"))
                if i["id"] == slug)  # papers.json leaves the abstract to references.json
    texts = " ".join(doc["text"] for doc in index["docs"] if doc["location"].startswith(page["page"]))
    assert " ".join(item["abstract"].split()[:6]) in " ".join(texts.split())
    assert "readinglist:" not in texts
