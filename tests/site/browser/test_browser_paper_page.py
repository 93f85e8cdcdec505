"""A paper page in the browser: header, BibTeX copy button, math, metadata; on the site MkDocs builds
(at / and under /reading-list/) and on the one Zensical builds from the same docs folder without
the readinglist plugin."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_site import EDIT_URL, Served
from browser_ui import goto, h1, path_of, screenshot
from pybtex.database import parse_string

pytestmark = pytest.mark.browser


@pytest.fixture(params=["root", "subpath", "zensical", "zensical-newest"])
def site(request: pytest.FixtureRequest, served_sites: dict[str, Served]) -> Served:
    """This module's pages on all four sites (the suite's other modules use the two MkDocs ones):
    Zensical 0.0.73 and the newest that installs (conftest.ZENSICAL_NEWEST)."""
    if request.param.startswith("zensical"):
        fixture = "zensical_newest_site" if request.param == "zensical-newest" else "zensical_site"
        return request.getfixturevalue(fixture)  # type: ignore[no-any-return]
    return served_sites[request.param]

MATRYOSHKA = "papers/matryoshkalora-learning-accurate-hierarchical-low-rank/"
POETS = "papers/poets-uncertainty-aware-llm-optimization-via-compute/"
ASKDAGGER = "papers/askdagger-active-skill-level-data-aggregation-for/"


def test_copy_button_puts_exactly_the_bibtex_entry_on_the_clipboard(page: Any, site: Served) -> None:
    goto(page, site, ASKDAGGER)
    block = page.locator("div.language-bibtex, div.highlight").filter(has_text="@").first
    block.hover()
    block.locator("button[data-clipboard-target]").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    # "Download luijkx2025askdagger.bib" saves the same entry as a file of that name.
    with page.expect_download() as download:
        page.locator("a.rl-bib-download").click()
    assert download.value.suggested_filename == "luijkx2025askdagger.bib"
    saved = Path(download.value.path()).read_text("utf-8")
    assert saved == copied + "\n"
    assert path_of(page, site) == ASKDAGGER  # the page stays where it was
    entries = parse_string(copied, "bibtex").entries
    assert list(entries) == ["luijkx2025askdagger"]
    entry = entries["luijkx2025askdagger"]
    assert entry.fields["title"] == \
        "{ASkDAgger}: Active Skill-level Data Aggregation for Interactive Imitation Learning"
    assert [str(p) for p in entry.persons["author"]] == \
        ["Luijkx, Jelle", "Ajanović, Zlatan", "Ferranti, Laura", "Kober, Jens"]


@pytest.mark.parametrize("path", [MATRYOSHKA, POETS])
def test_math_in_the_abstract_renders_as_mathml(page: Any, site: Served, path: str) -> None:
    goto(page, site, path)
    abstract = page.locator(".rl-abstract")
    maths = abstract.locator("math")
    assert maths.count() >= 1
    box = maths.first.bounding_box()
    assert box is not None and box["width"] > 0 and box["height"] > 0  # laid out, not ignored
    assert "$" not in abstract.inner_text()


def test_header_has_venue_badge_authors_link_buttons_and_edit_button(page: Any, site: Served) -> None:
    goto(page, site, MATRYOSHKA)
    assert h1(page) == "MatryoshkaLoRA: Learning Accurate Hierarchical Low-Rank Representations for LLM Fine-Tuning"
    assert page.locator(".rl-authors").inner_text() == "Ionut-Vlad Modoranu, Mher Safaryan, Dan Alistarh"
    assert page.locator(".rl-header .rl-badge").inner_text() == "cs.LG · cross-listed from cs.CL"
    buttons = page.locator(".rl-header .rl-links a")
    # No note on this paper yet: the last button starts one on GitHub, named by the citation key.
    assert buttons.all_inner_texts() == ["Search arXiv", "Google Scholar", "Write a note"]
    query = "MatryoshkaLoRA%3A+Learning+Accurate+Hierarchical+Low-Rank+Representations+for+LLM+Fine-Tuning"
    assert buttons.nth(0).get_attribute("href") == f"https://arxiv.org/search/?query={query}&searchtype=title"
    assert buttons.nth(2).get_attribute("href") == (
        EDIT_URL.replace("/edit/", "/new/") + "content/notes?filename=modoranu2026matryoshkalora.md"
        "&value=---%0Astatus%3A%20to-read%0A---%0A")
    # The header sits between the author list and the abstract.
    order = page.evaluate("""() => [...document.querySelectorAll(
        'article.md-content__inner > .rl-paper > *')].map(e => e.className || e.tagName)""")
    assert order.index("rl-authors") < order.index("rl-header") < order.index("H2")


def test_tmlr_paper_links_to_openreview(page: Any, site: Served) -> None:
    goto(page, site, ASKDAGGER)
    assert page.locator(".rl-header .rl-badge").inner_text() == "TMLR · accepted · Aug 2025"
    primary = page.locator(".rl-header a.md-button--primary")
    assert primary.inner_text() == "OpenReview"
    assert primary.get_attribute("href") == "https://openreview.net/forum?id=987Az9f8fT"


def test_sharing_metadata_is_the_title_and_first_sentence(page: Any, site: Served) -> None:
    goto(page, site, MATRYOSHKA)
    first = ("With the rise in scale for deep learning models to billions of parameters, the computational "
             "cost of fine-tuning remains a significant barrier to deployment.")
    meta = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('meta[name], meta[property]')]
        .map(m => [m.getAttribute('name') || m.getAttribute('property'), m.content]))""")
    assert meta["description"] == first
    assert meta["og:description"] == first
    assert meta["og:title"] == \
        "MatryoshkaLoRA: Learning Accurate Hierarchical Low-Rank Representations for LLM Fine-Tuning"
    assert meta["og:type"] == "article"
    assert meta["og:url"] == site.url(MATRYOSHKA)
    assert page.title() == \
        "MatryoshkaLoRA: Learning Accurate Hierarchical Low-Rank Representations for LLM Fine-Tuning - Reading list"


KUJANPAA = "papers/efficient-knowledge-injection-in-llms-via-self-distillation/"
GOLDEN_REFERENCES = Path(__file__).resolve().parents[2] / "golden" / "references"


def test_copy_button_puts_the_apa_reference_on_the_clipboard(page: Any, site: Served, screenshot_dir: Path) -> None:
    goto(page, site, KUJANPAA)
    tabs = page.locator(".tabbed-set.rl-refs")
    assert tabs.locator(".tabbed-labels label").all_inner_texts() == ["BibTeX", "APA", "IEEE"]
    blocks = tabs.locator(".tabbed-block")
    assert blocks.nth(0).is_visible() and not blocks.nth(1).is_visible()  # BibTeX first
    tabs.locator("label", has_text="APA").click()
    apa = blocks.nth(1)
    apa.wait_for(state="visible")
    assert not blocks.nth(0).is_visible()
    tabs.scroll_into_view_if_needed()
    screenshot(page, screenshot_dir, site, "cite-apa", "light", full_page=False)
    apa.hover()
    apa.locator("button[data-clipboard-target]").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    golden = (GOLDEN_REFERENCES / "kujanpaa2025efficient.txt").read_text("utf-8").splitlines()
    assert "APA: " + copied == golden[0]
    assert copied.startswith("Kujanpää, K., Marttinen, P., Valpola, H., & Ilin, A. (2025). Efficient Knowledge")
    # Each tab's block has its own copy button; the reference wraps instead of scrolling.
    assert tabs.locator("button[data-clipboard-target]").count() == 3
    assert apa.locator("code").evaluate("c => c.scrollWidth <= c.clientWidth + 1")
    # "Download <key>.bib" still saves the BibTeX entry while another tab is shown.
    with page.expect_download() as download:
        page.locator("a.rl-bib-download").click()
    assert Path(download.value.path()).read_text("utf-8").startswith("@article{kujanpaa2025efficient,")
