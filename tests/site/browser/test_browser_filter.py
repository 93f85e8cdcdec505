"""The All papers filter: by tag, year and reading status, sorted, with the choices in the address
and the paginated table back when they are cleared."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from browser_site import Served
from browser_ui import goto

pytestmark = pytest.mark.browser

ROWS = "[data-rl-filter-results] tbody tr"
STATIC_TABLE = "[data-rl-static] ~ * table"
STATIC_ROWS = STATIC_TABLE + " tbody tr"


def _papers(site: Served) -> list[dict[str, Any]]:
    return json.loads(site.file("papers.json").read_text("utf-8"))


def _rows(page: Any) -> list[list[str]]:
    return [row.locator("td").all_inner_texts() for row in page.locator(ROWS).all()]


def _query(page: Any) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query)


def _first_author(p: dict[str, Any]) -> str:
    authors = p["authors"]
    if not authors:
        return "Anonymous"
    if len(authors) == 2 and p["authors_complete"]:
        return f"{authors[0]} and {authors[1]}"
    return authors[0] + (" et al." if len(authors) > 2 or not p["authors_complete"] else "")


def test_filter_by_tag_then_year_updates_the_address(page: Any, site: Served) -> None:
    papers = _papers(site)
    tag = "Knowledge distillation"
    tagged = [p for p in papers if tag in p["tags"]]
    assert len(tagged) == 5
    goto(page, site, "all/")
    form = page.locator("form[data-rl-filter]")
    form.wait_for(state="visible")
    # The page's own table: everything after the data-rl-static marker (render/indexes.py).
    assert page.locator(STATIC_ROWS).count() == len(papers)

    form.locator("select[name=tag]").select_option(tag)
    page.locator(ROWS).nth(len(tagged) - 1).wait_for()
    assert _query(page) == {"tag": [tag]}
    assert page.locator(STATIC_TABLE).is_hidden()
    # Newest first (date added), each row the paper's title, first author, venue and year.
    expected = sorted(tagged, key=lambda p: p["date"], reverse=True)
    rows = _rows(page)
    assert sorted(r[0] for r in rows) == sorted(p["title"] for p in tagged)
    by_title = {p["title"]: p for p in tagged}
    dates = [by_title[r[0]]["date"] for r in rows]
    assert dates == [p["date"] for p in expected]
    for title, first, venue, year in rows:
        p = by_title[title]
        assert (first, venue, year) == (_first_author(p), p["venue_line"], str(p["year"]))
    assert page.locator(".rl-filter-count").inner_text() == "5 papers."
    assert page.locator(".rl-filter-more").is_hidden()  # all five shown
    # The title links open the papers' pages.
    hrefs = page.locator(f"{ROWS} a").evaluate_all("els => els.map(a => a.href)")
    assert sorted(hrefs) == sorted(site.url(p["page"]) for p in tagged)

    form.locator("select[name=year]").select_option("2025")
    both = [p for p in tagged if p["year"] == 2025]
    page.wait_for_function(f"document.querySelectorAll('{ROWS}').length === {len(both)}")
    assert _query(page) == {"tag": [tag], "year": ["2025"]}
    assert sorted(r[0] for r in _rows(page)) == sorted(p["title"] for p in both)


def test_a_shared_address_opens_the_same_view_and_clear_restores_the_table(page: Any, site: Served) -> None:
    papers = _papers(site)
    in_2025 = [p for p in papers if p["year"] == 2025]
    goto(page, site, "all/?year=2025&sort=title")
    page.locator(ROWS).nth(len(in_2025) - 1).wait_for()
    assert page.locator("select[name=year]").input_value() == "2025"
    assert page.locator("select[name=sort]").input_value() == "title"
    by_title = sorted((p["title"] for p in in_2025), key=lambda t: " ".join(t.split()).casefold())
    assert [r[0] for r in _rows(page)] == by_title

    page.locator("form[data-rl-filter] button[type=reset]").click()
    page.locator(STATIC_TABLE).wait_for(state="visible")
    assert page.locator("[data-rl-filter-results]").is_hidden()
    assert urlparse(page.url).query == ""


def test_filter_by_reading_status_and_sort_by_rating(page: Any, site: Served) -> None:
    goto(page, site, "all/?reading=reading")
    page.locator(ROWS).first.wait_for()
    # content/notes/maron2025oneshot.md: status reading.
    assert [r[0] for r in _rows(page)] == [
        "One-Shot Federated Distillation Using Monoclass Teachers: A Study of Knowledge Fragmentation and "
        "Out-of-Distribution Supervision"]
    goto(page, site, "all/?sort=rating")
    page.locator(ROWS).nth(1).wait_for()
    # Rated 5 (casper2025defending), then 4 (maron2025oneshot), then the unrated.
    top = [r[0] for r in _rows(page)[:2]]
    assert top == ["Defending Against Unforeseen Failure Modes with Latent Adversarial Training",
                   "One-Shot Federated Distillation Using Monoclass Teachers: A Study of Knowledge Fragmentation "
                   "and Out-of-Distribution Supervision"]
    assert page.locator(".rl-filter-count").inner_text() == f"{len(_papers(site))} papers."
