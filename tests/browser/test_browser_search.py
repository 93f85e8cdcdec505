"""Search, as a person uses it: type into the box, see the paper, click it, land on its page."""

from __future__ import annotations

from typing import Any

import pytest
from browser_site import Served
from browser_ui import click_and_wait, goto, h1, path_of, search

MATRYOSHKA = "MatryoshkaLoRA: Learning Accurate Hierarchical Low-Rank Representations for LLM Fine-Tuning"
KL = "KL for a KL: On-Policy Distillation with Control Variate Baseline"
KNOWLEDGE = "Efficient Knowledge Injection in LLMs via Self-Distillation"
ASKDAGGER = "ASkDAgger: Active Skill-level Data Aggregation for Interactive Imitation Learning"

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("query", "title", "page_path"), [
    # a distinctive title word
    ("MatryoshkaLoRA", MATRYOSHKA, "papers/matryoshkalora-learning-accurate-hierarchical-low-rank/"),
    # an author's family name
    ("Alistarh", MATRYOSHKA, "papers/matryoshkalora-learning-accurate-hierarchical-low-rank/"),
    # a family name with an accent, typed with it
    ("Kujanpää", KNOWLEDGE, "papers/efficient-knowledge-injection-in-llms-via-self-distillation/"),
    # a citation key from citekeys.yml
    ("luijkx2025askdagger", ASKDAGGER, "papers/askdagger-active-skill-level-data-aggregation-for/"),
    # a phrase from an abstract
    ("detached baseline", KL, "papers/kl-for-a-kl-on-policy-distillation-with-control-variate/"),
], ids=["title-word", "author", "accented-author", "citekey", "abstract-phrase"])
def test_search_finds_the_paper_and_opens_it(page: Any, site: Served, query: str, title: str,
                                             page_path: str) -> None:
    goto(page, site, "all/")
    titles = search(page, query, expect=title)
    assert title in titles[:3], f"{query!r} gave {titles}"
    result = page.locator(".md-search-result__item", has=page.get_by_role("heading", name=title, exact=True))
    click_and_wait(page, result.first.locator("a").first, site, page_path)
    assert path_of(page, site) == page_path
    assert h1(page) == title
