"""Tags as a person meets them: the tags index, a tag's page and its `.bib`, the chips on a paper."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_site import Served
from browser_ui import click_and_wait, goto, h1, link_targets, path_of
from pybtex.database import parse_string

pytestmark = pytest.mark.browser

KL = "papers/kl-for-a-kl-on-policy-distillation-with-control-variate/"


def _papers(site: Served) -> list[dict[str, Any]]:
    return list(json.loads(site.file("papers.json").read_text("utf-8")))


def test_tags_index_lists_every_tag_and_each_link_opens_that_tag(page: Any, site: Served) -> None:
    tags = {t for p in _papers(site) for t in p["tags"]}
    assert len(tags) > 30
    goto(page, site, "tags/")
    rows = link_targets(page, "article.md-content__inner table a")
    assert sorted(text for text, _, _ in rows) == sorted(tags)  # every tag, once
    for text, href, heading in rows:
        assert heading == text, href  # the link opens the page of that very tag
        assert href.startswith(site.url("tags/")), href
    # Each row also gives the tag's paper count.
    counts = page.locator("article.md-content__inner table tbody tr td:nth-child(2)").all_inner_texts()
    assert sum(int(c) for c in counts) == sum(len(p["tags"]) for p in _papers(site))


def test_tag_page_lists_its_papers_and_its_bib_holds_their_keys(page: Any, site: Served) -> None:
    tagged = [p for p in _papers(site) if "Knowledge distillation" in p["tags"]]
    assert len(tagged) == 5
    goto(page, site, "tags/knowledge-distillation/")
    assert h1(page) == "Knowledge distillation"
    rows = link_targets(page, "article.md-content__inner table a")
    assert sorted(href for _, href, _ in rows) == sorted(site.url(p["page"]) for p in tagged)
    for text, href, heading in rows:
        assert text == heading, href
    first_authors = page.locator("article.md-content__inner table tbody tr td:nth-child(2)").all_inner_texts()
    assert "Kalle Kujanpää et al." in first_authors
    bib_link = page.locator("article.md-content__inner a", has_text="BibTeX of all 5")
    bib = page.evaluate("async a => { const r = await fetch(a.href); return [r.status, await r.text()] }",
                        bib_link.element_handle())
    assert bib[0] == 200
    entries = parse_string(bib[1], "bibtex").entries
    assert sorted(entries) == sorted(p["key"] for p in tagged)
    assert entries["kujanpaa2025efficient"].fields["title"].startswith("Efficient Knowledge Injection in")


def test_tag_chip_on_a_paper_opens_that_tags_page(page: Any, site: Served) -> None:
    paper = next(p for p in _papers(site) if p["page"] == KL)
    goto(page, site, KL)
    chips = page.locator("article.md-content__inner .md-tags a.md-tag")
    assert sorted(chips.all_inner_texts()) == sorted(paper["tags"])
    click_and_wait(page, chips.filter(has_text="On-policy distillation").first, site,
                   "tags/on-policy-distillation/")
    assert path_of(page, site) == "tags/on-policy-distillation/"
    assert page.url == site.url("tags/on-policy-distillation/")
    assert h1(page) == "On-policy distillation"
    titles = page.locator("article.md-content__inner table a").all_inner_texts()
    assert paper["title"] in titles and len(titles) == 2
