"""Search, as a person uses it: type into the box, see the paper, click it, land on its page."""

from __future__ import annotations

import json
from typing import Any

import pytest
from anyascii import anyascii
from browser_site import Served
from browser_ui import Recorder, click_and_wait, goto, h1, path_of, search

MATRYOSHKA = "MatryoshkaLoRA: Learning Accurate Hierarchical Low-Rank Representations for LLM Fine-Tuning"
KL = "KL for a KL: On-Policy Distillation with Control Variate Baseline"
KNOWLEDGE = "Efficient Knowledge Injection in LLMs via Self-Distillation"
ASKDAGGER = "ASkDAgger: Active Skill-level Data Aggregation for Interactive Imitation Learning"
SCALING = "Scaling Categorical Flow Maps"

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("query", "title", "page_path"), [
    # a distinctive title word
    ("MatryoshkaLoRA", MATRYOSHKA, "papers/matryoshkalora-learning-accurate-hierarchical-low-rank/"),
    # an author's family name
    ("Alistarh", MATRYOSHKA, "papers/matryoshkalora-learning-accurate-hierarchical-low-rank/"),
    # a family name with an accent, typed with it
    ("Kujanpää", KNOWLEDGE, "papers/efficient-knowledge-injection-in-llms-via-self-distillation/"),
    # the 7th and last author of a paper, typed without the accent (more spellings: below)
    ("Bethune", SCALING, "papers/scaling-categorical-flow-maps/"),
    # a citation key from citekeys.yml
    ("luijkx2025askdagger", ASKDAGGER, "papers/askdagger-active-skill-level-data-aggregation-for/"),
    # a phrase from an abstract
    ("detached baseline", KL, "papers/kl-for-a-kl-on-policy-distillation-with-control-variate/"),
], ids=["title-word", "author", "accented-author", "last-author-accent-dropped", "citekey",
        "abstract-phrase"])
def test_search_finds_the_paper_and_opens_it(page: Any, site: Served, query: str, title: str,
                                             page_path: str) -> None:
    goto(page, site, "all/")
    titles = search(page, query, expect=title)
    assert title in titles[:3], f"{query!r} gave {titles}"
    result = page.locator(".md-search-result__item", has=page.get_by_role("heading", name=title, exact=True))
    click_and_wait(page, result.first.locator("a").first, site, page_path)
    assert path_of(page, site) == page_path
    assert h1(page) == title


def test_accented_names_typed_either_way(browser: Any, served_sites: dict[str, Served]) -> None:
    """Both spellings of both names, in one tab (the click-through is checked above)."""
    rec = Recorder.open(browser, served_sites["root"])
    try:
        goto(rec.page, rec.site, "")
        for query, title in [("Béthune", SCALING), ("Bethune", SCALING), ("Kujanpää", KNOWLEDGE),
                             ("Kujanpaa", KNOWLEDGE)]:
            titles = search(rec.page, query, expect=title)
            assert title in titles[:3], f"{query!r} gave {titles}"
    finally:
        rec.close()
    rec.assert_clean()


def test_every_accented_author_is_indexed_without_accents_too(served_sites: dict[str, Served]) -> None:
    """What the search serves: for each author name with a letter outside ASCII, its ASCII
    spelling (`Bethune`, `Kujanpaa`, `Hojer`) is in that paper's search record, in the metadata
    field Pagefind searches but cuts no excerpt from, never in the text. Search is Pagefind,
    fed from the build's records (generator/render/search_records.py); Material's own index stays empty."""
    from generator.render import search_records as search

    site = served_sites["root"]
    papers = json.loads(site.file("papers.json").read_text("utf-8"))
    recs = {r.url: r for r in search.records(papers)}
    text = {url: r.title + "\n" + r.content for url, r in recs.items()}
    folded = {url: r.as_dict()["meta"].get(search.FOLDED, "") for url, r in recs.items()}
    accented = [(p["page"], name) for p in papers for name in p["authors"] if not name.isascii()]
    assert len(accented) >= 10 and ("papers/scaling-categorical-flow-maps/", "Louis Béthune") in accented
    missing = [(page, name) for page, name in accented if anyascii(name) not in folded[page]]
    assert missing == []
    assert [name for page, name in accented if anyascii(name) in text[page]] == []
    assert folded["papers/scaling-categorical-flow-maps/"] == "Louis Bethune"
    assert folded["papers/efficient-knowledge-injection-in-llms-via-self-distillation/"] == "Kalle Kujanpaa"
    # Graph labels, BibTeX and page furniture are not in the index: only title, authors, key, abstract.
    assert all("@article{" not in t and "@misc{" not in t and "Cite as" not in t for t in text.values())
    lunr = json.loads(site.file("search/search_index.json").read_text("utf-8"))
    assert lunr["docs"] == []


def first_result(page: Any, site: Served, query: str, title: str) -> Any:
    """Search `query` from the All papers page; the first result must be `title`: its item."""
    goto(page, site, "all/")
    titles = search(page, query, expect=title)
    assert titles[0] == title, f"{query!r} gave {titles}"
    return page.locator(".md-search-result__item", has=page.get_by_role("heading", name=title, exact=True)).first


def test_a_word_only_in_a_note_finds_the_notes_paper(page: Any, site: Served) -> None:
    """"reading group" is only in content/notes/casper2025defending.md: the result is that paper's
    page (at its note), marked as a note."""
    item = first_result(page, site, "reading group",
                        "Defending Against Unforeseen Failure Modes with Latent Adversarial Training")
    assert item.locator(".rl-search-part").inner_text() == "Note"
    href = item.locator("a").first.get_attribute("href")
    assert href is not None and "papers/defending-against-unforeseen-failure-modes-with-latent/" in href
    assert href.split("#")[1] == "my-notes"


def test_a_word_of_a_curators_page_finds_it(page: Any, site: Served) -> None:
    goto(page, site, "all/")
    titles = search(page, "curator", expect="About this list")
    assert "About this list" in titles


def test_a_word_of_a_tag_description_finds_the_tag_page(page: Any, site: Served) -> None:
    """"unusual" is only in the description of the topic "Anomaly detection" (content/topics.yml):
    the result is that tag's page, marked as a tag."""
    item = first_result(page, site, "unusual", "Anomaly detection")
    assert item.locator(".rl-search-part").inner_text() == "Tag"
    click_and_wait(page, item.locator("a").first, site, "tags/anomaly-detection/")
    assert h1(page) == "Anomaly detection"
