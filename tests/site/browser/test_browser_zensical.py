"""The Zensical build of the seeds (`readinglist build`, then `zensical build`, no plugin) as a
reader sees it: one search box in the header, nothing stacked above the tabs, and Zensical's own
search finds a paper and opens its page. (The paper-page checks run on this site too:
test_browser_paper_page.py; every link: test_links_three_builds.py.)"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_site import Served
from browser_ui import goto, h1, path_of, screenshot

pytestmark = pytest.mark.browser

MATRYOSHKA = "MatryoshkaLoRA: Learning Accurate Hierarchical Low-Rank Representations for LLM Fine-Tuning"
MATRYOSHKA_PAGE = "papers/matryoshkalora-learning-accurate-hierarchical-low-rank/"


@pytest.fixture
def site(zensical_site: Served) -> Served:
    return zensical_site


def test_the_header_shows_one_search_box_and_nothing_above_the_tabs(page: Any, site: Served,
                                                                    screenshot_dir: Path) -> None:
    goto(page, site, MATRYOSHKA_PAGE)
    header = page.locator("header.md-header")
    shot = screenshot(page, screenshot_dir, site, "header", "light", full_page=False)
    assert shot.is_file()
    assert page.locator(".md-search").count() == 1
    # Material's markup under Zensical drew "Search", three icons and "Initializing search" in a
    # column above the tabs; Zensical's own box is one button in the header's single row.
    assert not page.get_by_text("Initializing search").is_visible()
    assert header.inner_text().split("\n") == ["Reading list", MATRYOSHKA, "Search"]
    box = page.locator(".md-search__button").bounding_box()
    bar = header.bounding_box()
    tabs = page.locator("nav.md-tabs").bounding_box()
    assert box is not None and bar is not None and tabs is not None
    assert bar["height"] <= 64 and box["y"] >= bar["y"] and box["y"] + box["height"] <= bar["y"] + bar["height"]
    assert tabs["y"] >= bar["y"] + bar["height"] - 1  # the tabs right under the header row, nothing between


def test_zensical_search_finds_a_paper_by_author_and_opens_it(page: Any, site: Served) -> None:
    goto(page, site, "all/")
    page.locator(".md-search__button").click()
    box = page.get_by_role("combobox", name="Search")
    box.wait_for()
    box.press_sequentially("Alistarh", delay=10)
    results = page.get_by_role("listbox", name="Search results")
    hit = results.get_by_role("option").filter(has=page.get_by_role("heading", name=MATRYOSHKA, exact=True))
    hit.first.wait_for(timeout=20_000)
    hit.first.click()
    page.wait_for_url(re.compile(re.escape(site.url(MATRYOSHKA_PAGE))))
    # Instant navigation changes the address first and swaps the article in a moment later.
    page.locator("article.md-content__inner h1", has_text="MatryoshkaLoRA").wait_for()
    assert path_of(page, site) == MATRYOSHKA_PAGE
    assert h1(page) == MATRYOSHKA
