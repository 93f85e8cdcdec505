"""The 404 page, as a GitHub Pages visitor meets it at any depth: styled, searchable, with ways home."""

from __future__ import annotations

from typing import Any

import pytest
from browser_site import Served
from browser_ui import Recorder, click_and_wait, h1

pytestmark = pytest.mark.browser


def test_missing_page_gets_a_useful_404(recorder: Recorder, page: Any, site: Served) -> None:
    recorder.allow_error(r"^console: Failed to load resource: the server responded with a status of 404")
    response = page.goto(site.url("papers/no-such-paper/deeper/"), wait_until="load")
    assert response.status == 404
    assert h1(page) == "Page not found"
    # Assets load from the site root even at this depth (the header is styled, not bare).
    assert page.evaluate("getComputedStyle(document.querySelector('.md-header')).position") == "sticky"
    article = page.locator("article.md-content__inner")
    assert article.get_by_role("link", name="Home", exact=True).get_attribute("href") == site.base
    assert article.get_by_role("link", name="All papers", exact=True).get_attribute("href") == site.url("all/")
    page.locator("#rl-404-query").fill("Alistarh")
    page.locator("#rl-404-search button").click()
    page.locator(".md-search-result__item h1", has_text="MatryoshkaLoRA").first.wait_for()
    page.keyboard.press("Escape")
    click_and_wait(page, article.get_by_role("link", name="All papers", exact=True), site, "all/")
    assert h1(page) == "All papers"
