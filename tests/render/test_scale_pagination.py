"""Listing pages stay small at any size: pagination helpers and the paginated All papers/digest pages."""

from __future__ import annotations

import datetime as dt

import pytest

from generator.config import load_config
from generator.errors import ConfigError
from generator.model import Digest, Library, Paper, SourceRef
from generator.render.indexes import render_all_pages, render_digest_pages
from generator.render.pagination import page_md, page_numbers, page_size, pager, pages, year_links, year_starts
from generator.render.rows import entries


def paper(n: int, year: int) -> Paper:
    return Paper(id=f"title:p{n}", title=f"Paper {n:02d}", authors=(f"Author {n}", "Second Person"),
                 abstract="Text.", origin=SourceRef("seeds/d.txt", n), venue="arXiv", status="preprint",
                 categories=("cs.LG",), date=dt.date(year, 1, 1), key=f"author{year}paper{n}", slug=f"paper-{n:02d}")


def library(count: int) -> Library:
    papers = [paper(n, 2026 if n <= 3 else 2025) for n in range(1, count + 1)]
    digest = Digest("seeds/d.txt", "listing", "Listing d", dt.date(2026, 1, 1), "file name",
                    tuple(p.id for p in papers), "d")
    return Library(papers=papers, digests=[digest])


def test_pages_splits_into_runs_and_keeps_one_empty_page() -> None:
    assert pages([1, 2, 3, 4, 5], 2) == [[1, 2], [3, 4], [5]]
    assert pages([1, 2], 2) == [[1, 2]]
    assert pages([], 2) == [[]]
    with pytest.raises(ValueError, match="at least 1"):
        pages([1], 0)


def test_page_paths_keep_the_first_page_where_it_was() -> None:
    assert page_md("all.md", 1) == "all.md"
    assert page_md("all.md", 2) == "all/2/index.md"
    assert page_md("digests/2025-01-06-tmlr/index.md", 1) == "digests/2025-01-06-tmlr/index.md"
    assert page_md("digests/2025-01-06-tmlr/index.md", 3) == "digests/2025-01-06-tmlr/3/index.md"


def test_page_numbers_elide_far_pages() -> None:
    assert page_numbers(1, 3) == [1, 2, 3]
    assert page_numbers(1, 10) == [1, 2, 3, None, 10]
    assert page_numbers(6, 12) == [1, None, 4, 5, 6, 7, 8, None, 12]
    assert page_numbers(12, 12) == [1, None, 10, 11, 12]


def test_pager_links_are_relative_urls() -> None:
    assert pager("all.md", 1, 1, "all.md") == ""
    assert pager("all.md", 1, 3, "all.md") == (
        '<p class="rl-pager">Pages: <strong>1</strong> <a href="2/">2</a> <a href="3/">3</a> · '
        '<a href="2/">Next →</a></p>')
    assert pager("all.md", 2, 3, "all/2/index.md") == (
        '<p class="rl-pager">Pages: <a href="../">← Previous</a> · <a href="../">1</a> <strong>2</strong> '
        '<a href="../3/">3</a> · <a href="../3/">Next →</a></p>')


def test_year_links_point_at_the_page_where_each_year_starts() -> None:
    chunks = pages(sorted(library(7).papers, key=lambda p: -(p.year or 0)), 2)
    starts = year_starts(chunks)
    assert starts == [(2026, 1), (2025, 2)]
    assert year_links(starts, "all.md", "all/3/index.md") == (
        '<p class="rl-years">Years: <a href="../">2026</a> · <a href="../2/">2025</a></p>')
    # all.md is not an index.md: there the same paragraph is Markdown, links to the files.
    assert year_links(starts, "all.md", "all.md", markdown=True) == (
        "Years: [2026](all.md) · [2025](all/2/index.md)\n{: .rl-years }")
    assert pager("all.md", 1, 2, "all.md", markdown=True) == (
        "Pages: <strong>1</strong> [2](all/2/index.md) · [Next →](all/2/index.md)\n{: .rl-pager }")


def test_all_papers_pages_hold_every_paper_once_in_order() -> None:
    lib = library(5)
    out = render_all_pages(lib, entries(lib.papers), size=2)
    assert list(out) == ["all.md", "all/2/index.md", "all/3/index.md"]
    first = out["all.md"]
    assert first.startswith("---\ntitle: All papers\nhide:\n  - navigation\n  - toc\nsearch:\n  exclude: true\n---\n\n"
                            '<h1 id="all-papers">All papers<a class="headerlink" href="#all-papers" '
                            'title="Permanent link">&para;</a></h1>\n'
                            "<p>5 papers, newest year first. Papers 1–2, page 1 of 3.</p>\n")
    # Newest year first, then by title. The page `all.md` is served at all/, page 2 at all/2/;
    # all.md, not an index.md, has Markdown links (render/links.py).
    assert "| [Paper 01](papers/paper-01/index.md) | Author 1 and Second Person | cs.LG · preprint | 2026 |" in first
    assert "[Paper 02](papers/paper-02/index.md)" in first
    assert "Paper 03" not in first
    second = out["all/2/index.md"]
    assert second.startswith("---\ntitle: All papers (page 2)\nhide:\n  - navigation\n  - toc\nrl_html: true\n")
    assert ('<tr><td><a href="../../papers/paper-03/">Paper 03</a></td><td>Author 3 and Second Person</td>'
            "<td>cs.LG · preprint</td><td>2026</td></tr>") in second
    assert '<a href="../../papers/paper-04/">Paper 04</a>' in second
    assert '<a href="../../papers/paper-05/">Paper 05</a>' in out["all/3/index.md"]
    linked = [line for page in out.values() for line in page.splitlines()
              if line.startswith(("<tr><td><a", "| [Paper"))]
    assert len(linked) == 5


def test_one_page_needs_no_pager() -> None:
    lib = library(3)
    out = render_all_pages(lib, entries(lib.papers), size=200)
    assert list(out) == ["all.md"]
    assert "Pages:" not in out["all.md"] and "<p>3 papers, newest year first.</p>\n" in out["all.md"]


def test_digest_pages_continue_the_numbering() -> None:
    lib = library(3)
    out = render_digest_pages(lib.digests[0], entries(lib.papers), size=2)
    assert list(out) == ["digests/d/index.md", "digests/d/2/index.md"]
    assert '<ol data-search-exclude>\n<li><a href="../../papers/paper-01/">Paper 01</a>' in out["digests/d/index.md"]
    assert '<a href="../d.bib">BibTeX</a>' in out["digests/d/index.md"]
    second = out["digests/d/2/index.md"]
    assert '<ol start="3" data-search-exclude>\n<li><a href="../../../papers/paper-03/">Paper 03</a>' in second
    assert '<a href="../../d.bib">BibTeX</a>' in second
    assert '<a href="../">← Previous</a>' in second


def test_page_size_comes_from_mkdocs_yml(tmp_path) -> None:  # type: ignore[no-untyped-def]
    cfg = tmp_path / "mkdocs.yml"
    cfg.write_text("site_name: x\nextra:\n  readinglist:\n    page_size: 50\n")
    assert page_size(load_config(cfg)) == 50
    cfg.write_text("site_name: x\n")
    assert page_size(load_config(cfg)) == 200
    cfg.write_text("site_name: x\nextra:\n  readinglist:\n    page_size: many\n")
    with pytest.raises(ConfigError, match="page_size: expected a whole number of at least 1, got 'many'"):
        page_size(load_config(cfg))


def test_seed_site_has_one_all_papers_page(seed_build) -> None:  # type: ignore[no-untyped-def]
    assert "all.md" in seed_build.files
    assert not [f for f in seed_build.files if f.startswith("all/")]
    assert "<p>41 papers, newest year first.</p>\n" in seed_build.files["all.md"]
