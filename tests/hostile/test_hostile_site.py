"""A site built with `mkdocs build --strict` from the hostile digests (both formats, plus 100,000-
character lines): every payload is visible as text on every page that shows it, and nothing in the
HTML, the search index, papers.json or the BibTeX came from a payload."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hostile_html import (
    ABSTRACT_PAYLOADS,
    AUTHOR_PAYLOADS,
    LONG_ABSTRACT,
    LONG_AUTHOR,
    LONG_AUTHORS,
    LONG_TITLE,
    TITLE_PAYLOADS,
    Site,
    build_hostile_site,
    scan,
)
from pybtex.database import parse_string

from generator.enrich.display import title_text
from generator.render.paper import description

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return build_hostile_site(tmp_path_factory)


def html_pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_build_is_strict_clean_and_keeps_every_paper(built: Site) -> None:
    assert "WARNING" not in built.proc.stderr
    assert "readinglist: 14 papers from 4 digests" in built.proc.stderr
    assert "seeds/002_hostile_long.txt:4: warning: title is 99999 characters long (is a line break missing?)" \
        in built.proc.stderr
    sources = {p["title_source"] for p in built.papers}
    assert set(TITLE_PAYLOADS) <= sources


def test_no_page_has_an_injected_element_attribute_or_comment(built: Site) -> None:
    pages = html_pages(built.site)
    rels = {p.relative_to(built.site).as_posix() for p in pages}
    assert {r["page"] + "index.html" for r in built.papers} <= rels
    assert {"index.html", "all/index.html", "digests/index.html", "tags/index.html",
            "digests/000-hostile-tmlr/index.html", "digests/003-hostile-header/index.html"} <= rels
    bad = {p.relative_to(built.site).as_posix(): scan(p.read_text(encoding="utf-8")).injected() for p in pages}
    assert {k: v for k, v in bad.items() if v} == {}


def test_paper_pages_show_title_authors_and_abstract_as_text(built: Site) -> None:
    for record in built.papers:
        page = built.page(record["page"])
        title = title_text(record["title_source"])  # as every page shows a title
        assert page.title == f"{title} - Reading list"
        assert title in page.text
        for name in record["authors"]:
            assert " ".join(name.split()) in page.text
        for para in record["abstract"].split("\n\n"):
            if "$" not in para and "\\(" not in para:
                assert " ".join(para.split()) in page.text, (record["page"], para[:80])


def test_every_payload_is_visible_text_somewhere_it_belongs(built: Site) -> None:
    everything = " ".join(built.page(p["page"]).text for p in built.papers)
    for payload in TITLE_PAYLOADS + AUTHOR_PAYLOADS + ABSTRACT_PAYLOADS:
        assert payload in everything, payload


def test_meta_description_is_the_abstract_sentence_as_text(built: Site) -> None:
    from generator.model import Paper, SourceRef

    for record in built.papers:
        paper = Paper(id="x", title="t", authors=(), abstract=record["abstract"], origin=SourceRef("x", 1))
        assert built.page(record["page"]).meta("description") == " ".join(description(paper).split())
    page = built.page(built.paper(TITLE_PAYLOADS[0])["page"])
    assert (page.meta("description") or "").startswith(
        "An abstract with <iframe src=\"javascript:alert('xss-iframe')\"></iframe> and [click me]")


def test_lists_show_titles_and_first_authors_as_text(built: Site) -> None:
    all_papers = built.page("all")
    digest_tmlr = built.page("digests/000-hostile-tmlr")
    digest_listing = built.page("digests/001-hostile-listing")
    home = built.page("")
    for title in TITLE_PAYLOADS[:4]:
        assert title in all_papers.text and title in digest_tmlr.text
    for title in TITLE_PAYLOADS[4:]:
        assert title in all_papers.text and title in digest_listing.text
    # Two authors: both named ("et al." starts at three).
    assert 'Mallory <img src=x onerror=alert("xss-author")> and Eve {{ config }}' in all_papers.text
    assert TITLE_PAYLOADS[4] in home.text  # the newest digest's papers are on the home page


def test_crafted_digest_header_and_section_heading_are_text(built: Site) -> None:
    header = 'Daily TMLR digest for <script>alert("xss-header")</script>'
    assert header in built.page("digests").text
    digest = built.page("digests/003-hostile-header")
    assert digest.title == f"{header} - Reading list"
    assert header in digest.text
    record = built.paper("A Paper Under A Crafted Section Heading")
    assert 'TMLR · accepted · Aug 2025 · <img src=x onerror=alert("xss-section")> Certification' in \
        built.page(record["page"]).text


def test_links_from_lists_point_at_the_paper_pages(built: Site) -> None:
    html = (built.site / "all" / "index.html").read_text(encoding="utf-8")
    hrefs = set(re.findall(r'href="\.\./papers/([^"]+)/"', html))
    assert hrefs == {p["page"].removeprefix("papers/").rstrip("/") for p in built.papers}


def test_search_index_holds_payloads_as_plain_text(built: Site) -> None:
    """Search is Pagefind, fed from papers.json as plain text; the search worker escapes what it
    shows (the browser test proves nothing runs). Material's own index stays empty."""
    from generator.render import search_records as search

    records = search.records(built.papers)
    seen = " ".join(r.title + "\n" + r.content for r in records)
    for payload in TITLE_PAYLOADS[:5] + AUTHOR_PAYLOADS[:2]:
        assert payload in seen, payload
    lunr = json.loads((built.site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert lunr["docs"] == []
    assert (built.site / "pagefind" / "pagefind.js").is_file()


def test_papers_json_holds_the_exact_payloads_and_no_raw_angle_brackets(built: Site) -> None:
    raw = (built.site / "papers.json").read_text(encoding="utf-8")
    assert "<" not in raw and ">" not in raw
    record = built.paper(TITLE_PAYLOADS[0])
    assert record["authors"] == AUTHOR_PAYLOADS[:2]
    assert record["abstract"].split("\n\n")[0] == ABSTRACT_PAYLOADS[0]
    assert built.paper(TITLE_PAYLOADS[1])["url"] is None  # it was `javascript:alert(...)`


def test_references_bib_has_one_entry_per_paper_and_no_breakout(built: Site) -> None:
    data = parse_string((built.site / "references.bib").read_text(encoding="utf-8"), "bibtex")
    assert sorted(data.entries) == sorted(p["key"] for p in built.papers)
    assert "evil" not in data.entries
    for entry in data.entries.values():
        assert not [f for f in entry.fields if "xss" in f.lower() or "evil" in f.lower()]
    breakout = data.entries[built.paper(TITLE_PAYLOADS[2])["key"]]
    assert set(breakout.fields) == {"title", "journal", "issn", "year", "month", "url"}
    assert "xss-bib-breakout" in breakout.fields["title"] and "@misc" in breakout.fields["title"]
    assert [str(p) for p in breakout.persons["author"]] == ["Breaker, Brace"]


def test_hundred_thousand_character_lines_are_kept_whole(built: Site) -> None:
    (record,) = [p for p in built.papers if p["title_source"] == LONG_TITLE]
    assert record["authors"] == LONG_AUTHORS
    assert len(LONG_AUTHOR) > 99_900
    assert record["abstract"] == LONG_ABSTRACT
    page = built.page(record["page"])
    assert LONG_TITLE in page.text and LONG_ABSTRACT in page.text and LONG_AUTHOR in page.text
    assert len(record["page"]) <= len("papers/") + 64 + 1
    assert len(record["key"]) <= 60


def test_output_paths_are_safe_bounded_and_inside_the_site(built: Site) -> None:
    pages = {p["title_source"]: p["page"] for p in built.papers}
    assert pages["../../etc/passwd"] == "papers/etc-passwd/"
    assert pages["CON"] == "papers/con-paper/"
    assert pages["a/b\\c"] == "papers/a-b-c/"
    assert pages["!!! ??? *** ###"] == "papers/paper/"
    assert pages[" ".join(["Overlong"] * 37)] == "papers/overlong-overlong-overlong-overlong-overlong-overlong/"
    for page in pages.values():
        assert re.fullmatch(r"papers/[a-z0-9]+(-[a-z0-9]+)*/", page) and len(page) <= 72, page
    build = built.root / "project" / "build"
    for folder in (build, built.site):
        for path in folder.rglob("*"):
            assert path.resolve().is_relative_to(folder.resolve())
            assert re.fullmatch(r"[A-Za-z0-9._-]{1,80}", path.name), path
    # Nothing was written next to the project (no `etc/passwd` climbed out).
    assert sorted(p.name for p in built.root.iterdir()) == ["project"]
