"""Text from a digest or the taxonomy stays text in the theme's templates and the pictures: header,
<title>, sharing metadata, tag chips, tag listings and their table of contents, related-paper links
and the neighbourhood graph's labels. One hostile site, built once; no script may run."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_site import Served, build_site, serve
from browser_ui import Recorder, click_and_wait, goto

from tests.conftest import ROOT, copy_project

pytestmark = pytest.mark.browser

TITLE = 'Evil <img src=x onerror=alert(1)> & "quoted" title'
TITLE2 = "Second <svg onload=alert(4)> paper & more"
AUTHOR2 = "Bob <b>Bold</b> Author"
# A topic name can hold no `<`, `>` or `"` (the taxonomy reader drops such a topic), but `&` and
# `'` it can: printed raw, `&lt;b&gt;` would show as `<b>`; escaped, it shows as typed.
TAG = "Tom & Jerry's &lt;b&gt;bold&lt;/b&gt; topic"
DIGEST = f"""Daily TMLR digest for Aug 08, 2025
TMLR
Accepted papers
===============
Title: {TITLE}
Authors: Ann Author
Abstract: A first sentence with <script>alert(2)</script> and "quotes". Zebra quokka marmots climb tall zebra trees.
URL: https://openreview.net/forum?id=EVIL123
---
Title: {TITLE2}
Authors: {AUTHOR2}
Abstract: Zebra quokka marmots climb tall zebra trees, again. Nothing else here.
URL: https://openreview.net/forum?id=EVIL456
---
"""
TOPIC = f"""
  - name: "{TAG}"
    description: A <b>hostile</b> topic.
    phrases: [zebra quokka]
"""


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = tmp_path_factory.mktemp("hostile")
    copy_project(root, seeds=False)
    (root / "generator").symlink_to(ROOT / "generator", target_is_directory=True)
    (root / "seeds" / "000_hostile.txt").write_text(DIGEST, encoding="utf-8")
    (root / "citekeys.yml").unlink(missing_ok=True)
    topics = root / "content" / "topics.yml"
    topics.write_text(topics.read_text("utf-8") + TOPIC, encoding="utf-8")
    build_site(root, root / "site")
    served = serve("hostile", root / "site", "/")
    yield served
    served.stop()


@pytest.fixture
def rec(browser: Any, hostile: Served) -> Iterator[Recorder]:
    rec = Recorder.open(browser, hostile)
    dialogs: list[str] = []
    rec.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    yield rec
    rec.close()
    assert dialogs == []  # no alert() ran
    rec.assert_clean()


def _papers(site: Served) -> dict[str, str]:
    """Title -> page path of the two hostile papers."""
    pages = sorted(p.name for p in site.file("papers").iterdir() if p.is_dir())
    assert len(pages) == 2
    return {TITLE: f"papers/{pages[0]}/", TITLE2: f"papers/{pages[1]}/"}


def _no_injected_elements(page: Any) -> None:
    """None of the payloads became an element (the tag `<b>` appears nowhere in our pages)."""
    assert page.locator("img[src='x'], svg[onload], article b").count() == 0
    assert page.evaluate("() => [...document.scripts].filter(s => s.textContent.includes('alert(')).length") == 0


def test_hostile_title_is_shown_as_text_and_never_runs(hostile: Served, rec: Recorder) -> None:
    papers = _papers(hostile)
    html = hostile.file(papers[TITLE] + "index.html").read_text("utf-8")
    assert "<img src=x" not in html and "<script>alert" not in html
    page = rec.page
    goto(page, hostile, papers[TITLE])
    assert page.locator("[data-md-component='header-topic']").inner_text().strip() == TITLE
    assert page.title() == f"{TITLE} - Reading list"
    assert page.locator("meta[property='og:title']").get_attribute("content") == TITLE
    assert page.locator("meta[name='description']").get_attribute("content") == \
        'A first sentence with <script>alert(2)</script> and "quotes".'
    _no_injected_elements(page)


def test_hostile_tag_name_is_text_in_chips_listings_and_contents(hostile: Served, rec: Recorder) -> None:
    papers = _papers(hostile)
    page = rec.page
    goto(page, hostile, papers[TITLE])
    assert page.locator(".md-tags .md-tag").all_inner_texts() == [TAG]
    goto(page, hostile, "tags/")
    # The index table of tags: the name, its paper count and its description, all as text.
    assert page.locator("article.md-content__inner table a").all_inner_texts() == [TAG]
    assert page.locator("article.md-content__inner table td").all_inner_texts() == [TAG, "2",
                                                                                  "A <b>hostile</b> topic."]
    _no_injected_elements(page)
    click_and_wait(page, page.locator("article.md-content__inner table a"), hostile,
                   "tags/tom-jerry-s-lt-b-gt-bold-lt-b-gt-topic/")
    assert page.locator("article.md-content__inner h1").inner_text().replace("¶", "").strip() == TAG
    assert page.locator("article.md-content__inner p").first.inner_text() == "A <b>hostile</b> topic."
    assert sorted(page.locator("article.md-content__inner table a").all_inner_texts()) == sorted([TITLE, TITLE2])
    _no_injected_elements(page)


def test_hostile_titles_are_text_in_related_links_and_graph_labels(hostile: Served, rec: Recorder) -> None:
    papers = _papers(hostile)
    page = rec.page
    goto(page, hostile, papers[TITLE])
    related = page.locator("h2#related-papers ~ ol > li")
    assert related.locator("a").all_inner_texts() == [TITLE2]
    assert related.first.inner_text().startswith(f"{TITLE2} — {AUTHOR2}, 2025")
    assert f"shared topics: {TAG}" in related.locator(".rl-why").inner_text()
    node = page.locator(".rl-graph-svg a.rl-node:not(.rl-node--self)")
    assert node.locator("title").text_content() == f"{TITLE2} (score " + \
        node.locator("title").text_content().split("(score ", 1)[1]
    label = node.locator("text").text_content()
    assert label.endswith("…") and TITLE2.startswith(label[:-1])  # cut short, still the raw characters
    assert page.locator(".rl-graph-svg a.rl-node--self title").text_content() == TITLE
    _no_injected_elements(page)
    click_and_wait(page, node.locator("circle"), hostile, papers[TITLE2])
    assert page.locator(".rl-authors").inner_text() == AUTHOR2
    _no_injected_elements(page)
