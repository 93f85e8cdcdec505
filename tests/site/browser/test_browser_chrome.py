"""A paper page's shared chrome (generator/chrome.py) in the browser: its icons sit where the
home page's inline ones do, and what its shared scripts write (search, palette switch, drawer,
script config) works, also after instant navigation swapped the page in."""

from __future__ import annotations

from typing import Any

import pytest
from browser_site import Served
from browser_ui import click_and_wait, goto, h1, path_of, search, set_scheme

pytestmark = pytest.mark.browser

PAPER = "papers/one-shot-federated-distillation-using-monoclass-teachers-a/"
RELATED = "papers/prune-opd-efficient-and-reliable-on-policy-distillation-for/"  # PAPER's first related paper
LATENT = "Defending Against Unforeseen Failure Modes with Latent Adversarial Training"
HEADER_ICONS = {  # the header's buttons, each with one icon, on wide and on narrow screens
    1280: ["a.md-header__button.md-logo", "form[data-md-component='palette'] label:visible",
           ".md-search__form label.md-search__icon"],
    390: ["label.md-header__button[for='__drawer']", "form[data-md-component='palette'] label:visible",
          "label.md-header__button[for='__search']"],
}


def _icons(page: Any, width: int) -> list[dict[str, Any]]:
    return [page.locator(sel).first.evaluate("""el => {
        const svg = el.querySelector('svg'), box = svg.getBoundingClientRect(), style = getComputedStyle(svg);
        return {box: [box.x, box.y, box.width, box.height], masked: svg.classList.contains('rl-icon'),
                mask: style.maskImage.startsWith('url("data:image/svg+xml'),
                paint: style.backgroundColor === style.color, inline: svg.querySelector('path') !== null};
    }""") for sel in HEADER_ICONS[width]]


@pytest.mark.parametrize("width", [1280, 390])
def test_paper_page_icons_are_masks_in_the_places_of_the_home_pages_inline_icons(
        page: Any, site: Served, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    goto(page, site)
    home = _icons(page, width)
    goto(page, site, PAPER)
    paper = _icons(page, width)
    assert [i["box"] for i in paper] == [i["box"] for i in home]
    assert all(i["box"][2] > 0 and i["box"][3] > 0 for i in paper)
    assert all(i["inline"] and not i["masked"] for i in home)
    assert all(i["masked"] and i["mask"] and i["paint"] and not i["inline"] for i in paper)


def test_search_and_palette_written_by_the_shared_script_work_on_a_paper_page(page: Any, site: Served) -> None:
    goto(page, site, PAPER)
    set_scheme(page, "dark")
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"
    titles = search(page, "casper2025defending", expect=LATENT)
    assert titles[0] == LATENT
    result = page.locator(".md-search-result__item", has=page.get_by_role("heading", name=LATENT, exact=True))
    click_and_wait(page, result.first.locator("a").first, site,
                   "papers/defending-against-unforeseen-failure-modes-with-latent/")
    assert h1(page) == LATENT
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"
    set_scheme(page, "light")


def test_drawer_of_a_paper_page_is_there_after_instant_navigation(page: Any, site: Served) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    goto(page, site, PAPER)
    click_and_wait(page, page.locator("h2#related-papers ~ ol > li > a").first, site, RELATED)
    page.locator("label.md-header__button[for='__drawer']").click()
    drawer = page.locator(".md-nav--primary > .md-nav__list > .md-nav__item > a.md-nav__link:visible")
    assert drawer.all_inner_texts() == ["Home", "All papers", "For you", "Digests", "Tags", "Map", "About"]
    click_and_wait(page, drawer.filter(has_text="All papers"), site, "all/")
    assert path_of(page, site) == "all/" and h1(page) == "All papers"
    # click_and_wait returned after Material's close of the drawer 125 ms after the navigation.
    assert page.locator("#__drawer").is_checked() is False
