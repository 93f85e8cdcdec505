"""WCAG 2.1 A and AA as axe-core checks them (axe-playwright-python bundles axe-core), on the nine
kinds of page, in both palettes, on the site MkDocs builds with the plugin and on Zensical's; and
the keyboard: every control of a paper page and of the All papers filter is reached with Tab,
shows a focus ring and has a name."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser_site import Served
from browser_ui import SCHEMES, Recorder, goto

pytestmark = pytest.mark.browser

PAGES = {
    "home": "",
    "paper": "papers/scaling-categorical-flow-maps/",
    "all": "all/",
    "tags": "tags/",
    "tag": "tags/knowledge-distillation/",
    "digests": "digests/",
    "map": "map/",
    "queue": "status/queue/",
    "about": "about/",
}
WCAG_21_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}


@pytest.fixture(scope="module")
def axe() -> Axe:
    return Axe()


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("build", ["mkdocs", "zensical", "zensical_newest"])
def test_every_kind_of_page_passes_wcag_21_aa(browser: Any, served_sites: dict[str, Served], axe: Axe,
                                              request: pytest.FixtureRequest, build: str, scheme: str) -> None:
    site = served_sites["root"] if build == "mkdocs" else request.getfixturevalue(f"{build}_site")
    rec = Recorder.open(browser, site, color_scheme=scheme)
    try:
        found = {}
        for name, path in PAGES.items():
            goto(rec.page, site, path)
            want = "slate" if scheme == "dark" else "default"
            assert rec.page.locator("body").get_attribute("data-md-color-scheme") == want
            violations = axe.run(rec.page, options=WCAG_21_AA).response["violations"]
            found[name] = [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations]
        assert found == {name: [] for name in PAGES}
    finally:
        rec.close()
    rec.assert_clean()


# What the focused element is, its accessible name as a person hears it (aria-label, a label, an
# SVG <title>, its text, its title), and whether a ring is drawn: on the element, or for a hidden
# radio button (the dark-mode toggle, the BibTeX | APA | IEEE tabs) on what stands for it.
FOCUSED = """() => {
  const e = document.activeElement
  const labelled = e.id ? document.querySelector(`label[for="${e.id}"]`) : null
  const shown = e.classList.contains('md-option')
    ? e.closest('.md-header__option').querySelector('label:not([hidden])')
    : (e.tagName === 'INPUT' && e.type === 'radio' ? labelled : e)
  const svgTitle = e.querySelector && e.querySelector(':scope > title')
  const name = (e.getAttribute('aria-label')
    || (shown !== e && shown && (shown.getAttribute('title') || shown.textContent))
    || (e.labels && e.labels[0] && e.labels[0].textContent) || (svgTitle && svgTitle.textContent)
    || e.textContent || e.getAttribute('title') || '').trim()
  const style = getComputedStyle(shown || e)
  const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
  return {tag: e.tagName.toLowerCase(), cls: String(e.getAttribute('class') || ''), name, ring,
          control: e.matches('a[href], a[*|href], button, input, select, textarea, summary')}
}"""


def _tab_through(page: Any, stop: int = 120) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    for _ in range(stop):
        page.keyboard.press("Tab")
        now = page.evaluate(FOCUSED)
        if now["tag"] == "body" or (seen and now == seen[0]):
            break
        seen.append(now)
    return seen


def _controls_have_names_and_rings(seen: list[dict[str, Any]]) -> None:
    controls = [s for s in seen if s["control"]]
    assert [s for s in controls if not s["name"]] == []
    assert [s for s in controls if not s["ring"]] == []


@pytest.fixture
def root_page(browser: Any, served_sites: dict[str, Served]) -> Iterator[tuple[Any, Served]]:
    """A tab on the plugin's site at `/` (the keyboard is the same under /reading-list/)."""
    rec = Recorder.open(browser, served_sites["root"])
    yield rec.page, served_sites["root"]
    rec.close()
    rec.assert_clean()


def test_a_paper_page_is_worked_with_the_keyboard(root_page: tuple[Any, Served]) -> None:
    page, site = root_page
    goto(page, site, PAGES["paper"])
    seen = _tab_through(page)
    names = [s["name"] for s in seen if s["control"]]
    _controls_have_names_and_rings(seen)
    assert "Switch to dark mode" in names and "Search" in names
    assert {"Home", "All papers", "About"} <= set(names)
    assert {"Diffusion and flow matching", "Knowledge distillation"} <= set(names)  # tag chips
    assert {"BibTeX", "Copy to clipboard", "Download davis2026scaling.bib"} <= set(names)
    graph = [s["name"] for s in seen if "rl-node" in s["cls"]]
    assert len(graph) == 6 and graph[0].startswith("Efficient Knowledge Injection in LLMs via Self-Distillation")
    # The dark-mode toggle works from the keyboard too.
    goto(page, site, PAGES["paper"])
    page.keyboard.press("Tab")
    while page.evaluate(FOCUSED)["name"] != "Switch to dark mode":
        page.keyboard.press("Tab")
    page.keyboard.press("ArrowDown")  # a radio group: the arrow keys choose the other palette
    page.wait_for_function("document.body.getAttribute('data-md-color-scheme') === 'slate'")
    # The other references are one arrow key away from the BibTeX tab.
    while page.evaluate(FOCUSED)["name"] != "BibTeX":
        page.keyboard.press("Tab")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED)["name"] == "APA"
    assert page.locator(".rl-refs .tabbed-block").nth(1).is_visible()


def test_the_all_papers_filter_is_worked_with_the_keyboard(root_page: tuple[Any, Served]) -> None:
    page, site = root_page
    goto(page, site, PAGES["all"])
    page.locator("form[data-rl-filter]").wait_for(state="visible")
    seen = _tab_through(page, 200)
    _controls_have_names_and_rings(seen)
    fields = [s["name"].split()[0] for s in seen if s["tag"] == "select"]
    assert fields == ["Tag", "Year", "Venue", "Status", "Reading", "Sort"]
    assert "Clear" in [s["name"] for s in seen if s["tag"] == "button"]
    # Choosing with the keyboard filters the list.
    page.locator("select[name=tag]").focus()
    page.keyboard.press("ArrowDown")  # the first tag
    page.locator("[data-rl-filter-results] tbody tr").first.wait_for()
    assert "tag=" in page.url
