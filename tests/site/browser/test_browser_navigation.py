"""Home page, "All papers" table and digest pages lead to the right pages."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_site import Served
from browser_ui import click_and_wait, goto, h1, link_targets, path_of

pytestmark = pytest.mark.browser

KL = "KL for a KL: On-Policy Distillation with Control Variate Baseline"
KNOWLEDGE = "Efficient Knowledge Injection in LLMs via Self-Distillation"
TMLR_DIGEST = "Daily TMLR digest for Aug 08, 2025"


def _papers(site: Served) -> list[dict[str, Any]]:
    return json.loads(site.file("papers.json").read_text("utf-8"))


def test_home_page_buttons_and_newest_papers(page: Any, site: Served) -> None:
    goto(page, site)
    assert page.locator(".rl-counts").inner_text() == "41 papers from 2 digests · 8 accepted"
    newest = page.locator("article.md-content__inner ul li a")
    assert newest.first.inner_text() == KL
    for text, href, title in link_targets(page, "article.md-content__inner ul li a"):
        assert title == text, f"{href} opens {title!r}, linked as {text!r}"
        assert href.startswith(site.url("papers/"))
    click_and_wait(page, newest.first, site, "papers/kl-for-a-kl-on-policy-distillation-with-control-variate/")
    assert h1(page) == KL
    page.go_back()
    page.wait_for_url(site.url(""))
    # Instant navigation swaps the home page back in after the URL changed: wait for it, or the
    # click below can land on the paper page's links still on screen.
    page.wait_for_function("() => [...document.querySelectorAll('article.md-content__inner h1')]"
                           ".some(h => h.textContent.startsWith('Reading list'))")
    click_and_wait(page, page.get_by_role("link", name="All papers").last, site, "all/")
    assert h1(page) == "All papers"


SEEN = "() => Object.keys(localStorage).filter(k => k.startsWith('readinglist.seen:'))"


def test_home_page_marks_the_papers_added_since_the_last_visit(page: Any, site: Served) -> None:
    goto(page, site)
    page.wait_for_function(f"({SEEN})().length === 1")
    assert page.locator(".rl-new").count() == 0  # a first visit has nothing to compare with
    newest = page.locator("article.md-content__inner ul li > a:first-child").all_inner_texts()
    # As if the last visit came before the newest two papers were added: it saw the rest.
    page.evaluate(f"""() => {{ const key = ({SEEN})()[0];
        localStorage.setItem(key, JSON.stringify(JSON.parse(localStorage.getItem(key)).slice(2))) }}""")
    page.reload(wait_until="load")
    marked = page.locator("article.md-content__inner ul li", has=page.locator(".rl-new"))
    marked.first.wait_for()
    assert [m.locator("a").first.inner_text() for m in marked.all()] == newest[:2]
    assert marked.first.locator(".rl-new").inner_text() == "New"
    assert marked.first.locator(".rl-new").get_attribute("title") == "Added since your last visit"
    # Now seen: the next visit marks nothing. The script marks, then stores the list with this
    # visit's links first; turned around beforehand, the stored list shows when that visit's run is over.
    turned = page.evaluate(f"""() => {{ const key = ({SEEN})()[0];
        localStorage.setItem(key, JSON.stringify(JSON.parse(localStorage.getItem(key)).reverse()));
        return localStorage.getItem(key) }}""")
    page.reload(wait_until="load")
    page.wait_for_function(f"localStorage.getItem(({SEEN})()[0]) !== {json.dumps(turned)}")
    assert page.locator(".rl-new").count() == 0


def test_all_papers_table_links_every_paper_to_its_page(page: Any, site: Served) -> None:
    goto(page, site, "all/")
    rows = link_targets(page, "article.md-content__inner table tbody tr td:first-child a")
    expected = {site.url(p["page"]): p["title"] for p in _papers(site)}
    assert {href: text for text, href, _ in rows} == expected
    assert all(title == text for text, _, title in rows), [r for r in rows if r[0] != r[2]]
    link = page.locator("article.md-content__inner table a", has_text=KNOWLEDGE)
    click_and_wait(page, link, site, "papers/efficient-knowledge-injection-in-llms-via-self-distillation/")
    assert h1(page) == KNOWLEDGE


def test_digest_pages_list_their_papers_in_order_and_link_back(page: Any, site: Served) -> None:
    goto(page, site, "digests/")
    click_and_wait(page, page.get_by_role("link", name=TMLR_DIGEST), site, "digests/000-1b8355006bbdabc6/")
    assert h1(page) == TMLR_DIGEST
    items = link_targets(page, "article.md-content__inner ol li a")
    tmlr = [p for p in _papers(site) if "000_1b8355006bbdabc6.txt" in p["sources"]]
    assert [text for text, _, _ in items] == [p["title"] for p in tmlr][:len(items)]
    assert len(items) == 11
    assert all(title == text for text, _, title in items)
    click_and_wait(page, page.locator("article.md-content__inner ol li a").nth(4), site,
                   "papers/efficient-knowledge-injection-in-llms-via-self-distillation/")
    assert h1(page) == KNOWLEDGE
    # The paper's Sources section leads back to the digest.
    click_and_wait(page, page.get_by_role("link", name=TMLR_DIGEST), site, "digests/000-1b8355006bbdabc6/")
    assert path_of(page, site) == "digests/000-1b8355006bbdabc6/"
