"""What a search result shows, as a reader sees it: the words of the page, never the Markdown of a
note, never a name twice (its accents folded for matching only); on Zensical, titles as typed,
a name found without its accents, and no citation tabs run together."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_site import Served
from browser_ui import Recorder, goto, screenshot, search

pytestmark = pytest.mark.browser

MARON = ("One-Shot Federated Distillation Using Monoclass Teachers: A Study of Knowledge Fragmentation and "
         "Out-of-Distribution Supervision")
KNOWLEDGE = "Efficient Knowledge Injection in LLMs via Self-Distillation"
GRUNEFELD = ('Untitled paper by Nils Grünefeld et al.: Language model (LM) "reasoning", commonly described as '
             "Chain-of-Thought…")
GRUNEFELD_PAGE = "papers/untitled-paper-by-nils-grunefeld-et-al-language-model-lm/"
SCALING_PAGE = "papers/scaling-categorical-flow-maps/"
KNOWLEDGE_PAGE = "papers/efficient-knowledge-injection-in-llms-via-self-distillation/"


def excerpt(page: Any, title: str) -> str:
    item = page.locator(".md-search-result__item", has=page.get_by_role("heading", name=title, exact=True)).first
    return str(item.locator("article > p").last.inner_text())


def test_a_note_s_excerpt_is_its_words_not_its_markdown(page: Any, site: Served, screenshot_dir: Path) -> None:
    goto(page, site, "all/")
    search(page, "one-class", expect=MARON)
    text = excerpt(page, MARON)
    assert "one-class teacher" in text
    assert "*" not in text
    shot = screenshot(page, screenshot_dir, site, "search-note-excerpt", "light", full_page=False)
    assert shot.is_file()
    search(page, "monoclass teachers paper", expect="Defending Against Unforeseen Failure Modes with Latent "
           "Adversarial Training")
    text = excerpt(page, "Defending Against Unforeseen Failure Modes with Latent Adversarial Training")
    assert "Related in spirit to the monoclass teachers paper (both are about" in text
    assert "[[" not in text and "maron2025oneshot" not in text


@pytest.mark.parametrize(("query", "title", "accented", "folded"), [
    ("Kujanpää", KNOWLEDGE, "Kalle Kujanpää", "Kujanpaa"),
    ("Kujanpaa", KNOWLEDGE, "Kalle Kujanpää", "Kujanpaa"),
    ("Hojer", GRUNEFELD, "Bertram Højer", "Hojer"),
    ("Grunefeld", GRUNEFELD, "Nils Grünefeld", "Grunefeld"),
])
def test_an_excerpt_shows_each_name_once_as_written(page: Any, site: Served, query: str, title: str,
                                                     accented: str, folded: str, screenshot_dir: Path) -> None:
    goto(page, site, "all/")
    titles = search(page, query, expect=title)
    assert titles[0] == title
    text = excerpt(page, title)
    assert accented in text
    assert folded not in text  # "… Alexander Ilin Kalle Kujanpaa" was the folded copy, shown
    if query == "Grunefeld":
        assert screenshot(page, screenshot_dir, site, "search-folded-name", "light", full_page=False).is_file()


@pytest.fixture
def zensical_page(browser: Any, zensical_site: Served) -> Iterator[Any]:
    """A tab on Zensical's site, checked at teardown as `page` is (no request leaves it, no console error)."""
    rec = Recorder.open(browser, zensical_site)
    yield rec.page
    rec.close()
    rec.assert_clean()


def zensical_search(page: Any, query: str) -> Any:
    """Open Zensical's search dialog, type `query`, return the list of results once it is shown."""
    page.locator(".md-search__button").click()
    box = page.get_by_role("combobox", name="Search")
    box.wait_for()
    box.fill("")
    box.press_sequentially(query, delay=10)
    results = page.get_by_role("listbox", name="Search results")
    results.get_by_role("option").first.wait_for(timeout=20_000)
    page.wait_for_timeout(300)  # the list for the whole query, not a prefix's
    return results


def test_zensical_shows_a_title_with_quotes_as_typed(zensical_page: Any, zensical_site: Served,
                                                     screenshot_dir: Path) -> None:
    page = zensical_page
    goto(page, zensical_site, "all/")
    results = zensical_search(page, "Grünefeld")
    text = results.inner_text()
    assert GRUNEFELD in text
    assert "&quot;" not in text and "&#" not in text and "&amp;" not in text
    assert "BibTeXAPAIEEE" not in text and "@misc{" not in text
    assert screenshot(page, screenshot_dir, zensical_site, "search-title", "light", full_page=False).is_file()


@pytest.mark.parametrize(("query", "path"), [("Grunefeld", GRUNEFELD_PAGE), ("Hojer", GRUNEFELD_PAGE),
                                             ("Bethune", SCALING_PAGE), ("Kujanpaa", KNOWLEDGE_PAGE)])
def test_zensical_finds_a_name_typed_without_its_accents(zensical_page: Any, zensical_site: Served,
                                                         query: str, path: str) -> None:
    """The paper's page is a result, and what is shown of it is the paper's words: the "Cite as" line
    with the names spelled without accents, not the BibTeX entry run into its tab names."""
    page = zensical_page
    goto(page, zensical_site, "all/")
    results = zensical_search(page, query)
    hits = results.locator(f'a[href*="{path}"]')
    assert hits.count() >= 1, results.inner_text()
    text = results.inner_text()
    assert query in text
    assert "BibTeXAPAIEEE" not in text and "@misc{" not in text and "@article{" not in text


def test_zensical_excerpts_hold_words_not_button_labels(zensical_page: Any, zensical_site: Served) -> None:
    """The paper header's buttons are controls: their labels ran together in the excerpt of the
    paper's result ("Search arXivGoogle ScholarWrite a note")."""
    page = zensical_page
    goto(page, zensical_site, "all/")
    text = zensical_search(page, "Alistarh").inner_text()
    assert "Ionut-Vlad Modoranu, Mher Safaryan, Dan Alistarh" in text
    assert "Google Scholar" not in text and "Write a note" not in text and "Search arXiv" not in text
