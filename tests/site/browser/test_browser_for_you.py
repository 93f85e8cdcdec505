"""For you and the digest pages' order by interest, as a reader uses them in Chromium."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_site import Served
from browser_ui import click_and_wait, goto, h1, path_of

pytestmark = pytest.mark.browser

DIGEST = "digests/000-1b8355006bbdabc6/"


def test_for_you_is_in_the_navigation_and_lists_papers_by_interest_with_why(page: Any, site: Served) -> None:
    goto(page, site, "all/")
    click_and_wait(page, page.locator(".md-tabs__link", has_text="For you"), site, "for-you/")
    assert path_of(page, site) == "for-you/" and h1(page) == "For you"
    items = page.locator("ol.rl-for-you > li")
    # The seeds' newest digest (the listing of 2026-12-01) has 30 papers; the two of the seed
    # notes with a signal are in the TMLR digest, which is older than a week before it.
    assert items.count() == 30
    scores = [float(s) for s in page.locator("ol.rl-for-you .rl-interest").all_inner_texts()]
    assert scores == sorted(scores, reverse=True) and scores[0] > scores[-1]
    assert all(why for why in page.locator("ol.rl-for-you small").all_inner_texts())


def test_a_digest_page_orders_its_papers_by_interest_and_back(page: Any, site: Served) -> None:
    goto(page, site, DIGEST)
    titles = page.locator("ol > li > a")
    listed = titles.all_inner_texts()
    scores = [float(s) for s in page.locator("[data-rl-order]").get_attribute("data-interest").split()]
    page.get_by_role("button", name="most interesting first").click()
    by_interest = [t for _, _, t in sorted(zip([-s for s in scores], range(len(listed)), listed, strict=True))]
    assert titles.all_inner_texts() == by_interest != listed
    # The two papers the seed notes rate 4 and 5 come first.
    assert by_interest[:2] == ["One-Shot Federated Distillation Using Monoclass Teachers: A Study of Knowledge "
                               "Fragmentation and Out-of-Distribution Supervision",
                               "Defending Against Unforeseen Failure Modes with Latent Adversarial Training"]
    page.get_by_role("button", name="as listed").click()
    assert titles.all_inner_texts() == listed


def test_all_papers_sorts_by_interest(page: Any, site: Served) -> None:
    goto(page, site, "all/?sort=interest")
    rows = page.locator("[data-rl-filter-results] tbody tr")
    rows.nth(9).wait_for()
    assert page.locator("select[name=sort]").input_value() == "interest"
    papers = json.loads(site.file("papers.json").read_text("utf-8"))
    interest = {p["title"]: p["interest"] for p in papers}
    shown = [row.locator("td").first.inner_text() for row in rows.all()[:10]]
    assert [interest[t] for t in shown] == sorted((interest[t] for t in shown), reverse=True)
    assert shown[0] == max(interest, key=lambda t: interest[t])
