"""Pictures of the main pages in light and dark, for a person to look at
(tests/artifacts/screenshots/, git-ignored), and the layout checks that can be automated:
nothing wider than the window, at desktop and at phone width."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_site import Served
from browser_ui import SCHEMES, Recorder, goto, screenshot, search

pytestmark = pytest.mark.browser

# (name, page path). The paper has a note, tags, related papers and a neighbourhood graph.
PAGES = [
    ("home", ""),
    ("paper", "papers/one-shot-federated-distillation-using-monoclass-teachers-a/"),
    ("all-papers", "all/"),
    ("digest", "digests/000-1b8355006bbdabc6/"),
    ("tags", "tags/"),
    ("tag", "tags/knowledge-distillation/"),
    ("map", "map/"),
]
WIDTHS = {"desktop": 1280, "phone": 390}
PHONE_PAGES = {"home", "paper", "all-papers", "tag", "map"}  # the page kinds; their layout at phone width


def _overflow(page: Any) -> list[str]:
    """Elements sticking out past the right edge of the window (the page scrolls sideways)."""
    return list(page.evaluate("""() => {
        const w = document.documentElement.clientWidth
        if (document.documentElement.scrollWidth <= w) return []
        return [...document.querySelectorAll('article *')]
            .filter(e => e.getBoundingClientRect().right > w + 1 && !e.closest('.md-typeset__scrollwrap, pre'))
            .slice(0, 5).map(e => e.tagName + '.' + e.className + ': ' + e.textContent.slice(0, 60))
    }"""))


def _smallest_label_px(page: Any) -> float | None:
    """Rendered size in CSS pixels of the smallest label in the page's graphs (they scale with
    their SVG's width), or None without a graph."""
    return page.evaluate("""() => {
        const sizes = [...document.querySelectorAll('.rl-graph-svg text')].map(t =>
            t.ownerSVGElement.getScreenCTM().a * parseFloat(getComputedStyle(t).fontSize))
        return sizes.length ? Math.min(...sizes) : null
    }""")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_screenshots_of_the_main_pages(browser: Any, served_sites: dict[str, Served], screenshot_dir: Path,
                                       scheme: str) -> None:
    # Layout does not depend on where the site is served: pictures of the root copy only.
    site = served_sites["root"]
    rec = Recorder.open(browser, site, color_scheme=scheme)
    page = rec.page
    want = "slate" if scheme == "dark" else "default"
    try:
        for width_name, width in WIDTHS.items():
            page.set_viewport_size({"width": width, "height": 900})
            for name, path in PAGES if width_name == "desktop" else [p for p in PAGES if p[0] in PHONE_PAGES]:
                goto(page, site, path)
                assert page.locator("body").get_attribute("data-md-color-scheme") == want
                assert _overflow(page) == [], f"{path} at {width}px"
                label = _smallest_label_px(page)
                assert label is None or label >= 9.5, f"graph labels of {path} at {width}px are {label:.1f} px"
                screenshot(page, screenshot_dir, site, name + ("" if width_name == "desktop" else "-phone"), scheme)
        page.set_viewport_size({"width": WIDTHS["desktop"], "height": 900})
        rec.allow_error(r"^console: Failed to load resource: the server responded with a status of 404")
        goto(page, site, "no-such-page/")
        screenshot(page, screenshot_dir, site, "404", scheme, full_page=False)
        goto(page, site)
        assert "Scaling Categorical Flow Maps" in search(page, "flow maps", expect="Scaling Categorical Flow Maps")
        results = page.locator(".md-search-result__item > a > .md-search-result__article")
        heights = [results.nth(i).bounding_box()["height"] for i in range(results.count())]
        assert max(heights) < 150, heights  # a few lines each, however long the page that matched
        screenshot(page, screenshot_dir, site, "search", scheme, full_page=False)
    finally:
        rec.close()
    rec.assert_clean()
