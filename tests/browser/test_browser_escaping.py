"""Text from a digest stays text in the theme's templates: header, <title>, sharing metadata, tag listing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_site import build_site, serve
from browser_ui import Recorder, goto

from tests.conftest import ROOT, copy_project

pytestmark = pytest.mark.browser

TITLE = 'Evil <img src=x onerror=alert(1)> & "quoted" title'
DIGEST = f"""Daily TMLR digest for Aug 08, 2025
TMLR
Accepted papers
===============
Title: {TITLE}
Authors: Ann Author
Abstract: A first sentence with <script>alert(2)</script> and "quotes". A second sentence.
URL: https://openreview.net/forum?id=EVIL123
---
"""


def test_hostile_title_is_shown_as_text_and_never_runs(tmp_path: Path, browser: Any) -> None:
    copy_project(tmp_path, seeds=False)
    (tmp_path / "generator").symlink_to(ROOT / "generator", target_is_directory=True)
    (tmp_path / "seeds" / "000_hostile.txt").write_text(DIGEST, encoding="utf-8")
    (tmp_path / "citekeys.yml").unlink(missing_ok=True)
    build_site(tmp_path, tmp_path / "site")
    [paper] = [p.name for p in (tmp_path / "site" / "papers").iterdir() if p.is_dir()]
    # Material's tag listing prints page titles too: tag the page (the core has no tags yet) and
    # render again without regenerating.
    md = tmp_path / "build" / "papers" / f"{paper}.md"
    md.write_text(md.read_text("utf-8").replace("\n---\n", "\ntags:\n  - Testing\n---\n", 1), encoding="utf-8")
    build_site(tmp_path, tmp_path / "site", hook=False)
    tags_html = (tmp_path / "site" / "tags" / "index.html").read_text("utf-8")
    assert "Evil &lt;img src=x onerror=alert(1)&gt; &amp; &quot;quoted&quot; title" in tags_html
    html = (tmp_path / "site" / "papers" / paper / "index.html").read_text("utf-8")
    assert "<img src=x" not in html and "<script>alert" not in html
    served = serve("hostile", tmp_path / "site", "/")
    rec = Recorder.open(browser, served)
    dialogs: list[str] = []
    rec.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        goto(rec.page, served, "tags/")
        assert rec.page.locator("article.md-content__inner li a").all_inner_texts() == [TITLE]
        goto(rec.page, served, f"papers/{paper}/")
        assert rec.page.locator(".md-tags .md-tag").all_inner_texts() == ["Testing"]
        assert rec.page.locator("[data-md-component='header-topic']").inner_text().strip() == TITLE
        assert rec.page.title() == f"{TITLE} - Reading list"
        meta = rec.page.locator("meta[property='og:title']").get_attribute("content")
        assert meta == TITLE
        assert rec.page.locator("meta[name='description']").get_attribute("content") == \
            'A first sentence with <script>alert(2)</script> and "quotes".'
        assert rec.page.locator("img[src='x']").count() == 0
    finally:
        rec.close()
        served.stop()
    assert dialogs == []
    rec.assert_clean()
