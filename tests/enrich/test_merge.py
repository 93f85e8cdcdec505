"""The same paper in two digests is one paper listing both sources; the richer, later record wins."""

from __future__ import annotations

from collections.abc import Callable

from generator.build import build
from generator.config import Config

LATER = """Daily TMLR digest for Nov 20, 2025
TMLR
Accepted papers
===============
Title: DeepSeek-R1 Thoughtology: Let’s think about LLM reasoning
Authors: Sara Vera Marjanović, Arkil Patel, Siva Reddy
Abstract: Accepted version of the abstract.
URL: https://openreview.net/forum?id=BZwKsiRnJI
---
"""

LISTED_AGAIN = """Machine Learning
Scaling Categorical Flow Maps
Oscar Davis and Anastasiia Filippova
Shorter abstract seen again in a later listing.
Read the full abstract ▾
"""


def test_submission_later_accepted_is_one_paper(project: Callable[..., Config]) -> None:
    config = project()
    before = build(config)
    old = next(p for p in before.library.papers if p.id == "openreview:BZwKsiRnJI")
    (config.seeds_dir / "002_later.txt").write_text(LATER, encoding="utf-8")
    after = build(config)
    papers = [p for p in after.library.papers if p.id == "openreview:BZwKsiRnJI"]
    assert len(papers) == 1
    paper = papers[0]
    assert paper.status == "accepted"
    assert paper.authors == ("Sara Vera Marjanović", "Arkil Patel", "Siva Reddy")
    assert paper.abstract == "Accepted version of the abstract."
    assert [s.path for s in paper.sources] == ["seeds/000_1b8355006bbdabc6.txt", "seeds/002_later.txt"]
    # Its page and key were published already: they stay.
    assert (paper.key, paper.slug) == (old.key, old.slug)
    assert len(after.library.papers) == 41
    later = next(d for d in after.library.digests if d.name == "002_later.txt")
    assert later.paper_ids == ("openreview:BZwKsiRnJI",)
    assert "DeepSeek-R1 Thoughtology" in after.files[f"digests/{later.slug}/index.md"]


def test_poorer_record_does_not_replace_a_richer_one(project: Callable[..., Config]) -> None:
    config = project()
    (config.seeds_dir / "002_again.txt").write_text(LISTED_AGAIN, encoding="utf-8")
    result = build(config)
    paper = next(p for p in result.library.papers if p.title == "Scaling Categorical Flow Maps")
    assert len(paper.authors) == 7
    assert paper.abstract.startswith("Continuous diffusion and flow matching models")
    assert [s.name for s in paper.sources] == ["001_68714a788c6fb328.txt", "002_again.txt"]
