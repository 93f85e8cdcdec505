"""Material's search shortcuts as a reader uses them: on the home page, All papers and a paper page,
`/` or `s` opens the search box, and what is typed next is searched. On the site MkDocs builds with
the plugin (its own box, answered by Pagefind), on a stock MkDocs one (Material's search) and on
Zensical's (its own search dialog)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_site import Served
from browser_ui import Recorder, goto, screenshot

pytestmark = pytest.mark.browser

MATRYOSHKA = "MatryoshkaLoRA: Learning Accurate Hierarchical Low-Rank Representations for LLM Fine-Tuning"
PAGES = {"home": "", "all": "all/", "paper": "papers/matryoshkalora-learning-accurate-hierarchical-low-rank/"}


@pytest.fixture(params=["mkdocs", "stock", "zensical"])
def site(request: pytest.FixtureRequest, served_sites: dict[str, Served]) -> Served:
    """The plugin's site, a stock MkDocs one (Material's own search, which has the shortcuts: the
    theme's handler must leave it alone) and Zensical's."""
    if request.param in ("stock", "zensical"):
        return request.getfixturevalue(f"{request.param}_site")  # type: ignore[no-any-return]
    return served_sites["root"]


@pytest.mark.parametrize("key", ["/", "s"])
@pytest.mark.parametrize("where", list(PAGES))
def test_the_key_opens_search_and_typing_searches(page: Any, site: Served, where: str, key: str,
                                                  screenshot_dir: Path) -> None:
    goto(page, site, PAGES[where])
    page.locator("body").click(position={"x": 5, "y": 300})  # the reader's focus is on the page
    page.keyboard.press(key)
    if site.name == "zensical":
        # Zensical's dialog: its combobox takes what is typed while the dialog is open.
        box = page.get_by_role("combobox", name="Search")
        box.wait_for(state="visible", timeout=5_000)
        page.keyboard.type("Alistarh", delay=20)
        assert box.input_value() == "Alistarh"  # the key itself was not typed into the box
        hit = page.get_by_role("listbox", name="Search results").get_by_role("option").filter(
            has=page.get_by_role("heading", name=MATRYOSHKA, exact=True))
    else:
        box = page.locator(".md-search__input")
        page.wait_for_function("document.activeElement && document.activeElement.matches('.md-search__input')",
                               timeout=5_000)
        # (Material may focus the box a moment before its toggle's state follows.)
        page.wait_for_function("document.getElementById('__search').checked", timeout=5_000)
        page.keyboard.type("Alistarh", delay=20)
        assert box.input_value() == "Alistarh"
        hit = page.locator(".md-search-result__item h1", has_text=MATRYOSHKA)
    hit.first.wait_for(timeout=20_000)
    if where == "all" and key == "/":
        assert screenshot(page, screenshot_dir, site, "search-key", "light", full_page=False).is_file()


def test_in_the_search_box_the_keys_are_letters(browser: Any, served_sites: dict[str, Served]) -> None:
    """Once the box has the focus, `s` and `/` are what the reader types, every one of them."""
    rec = Recorder.open(browser, served_sites["root"])
    try:
        goto(rec.page, rec.site, "all/")
        rec.page.keyboard.press("/")
        rec.page.wait_for_function("document.activeElement && document.activeElement.matches('.md-search__input')")
        rec.page.keyboard.type("scaling s/", delay=20)
        assert rec.page.locator("[data-rl-search] .md-search__input").input_value() == "scaling s/"
    finally:
        rec.close()
    rec.assert_clean()
