"""The All papers filter's form (shown by the script) and what the search index holds for it."""

from __future__ import annotations

import dataclasses
import html
import json
import re

from generator.build import BuildResult
from generator.render.indexes import render_all_pages
from generator.render.rows import entries
from generator.render.search_records import EVERY, facets, record


def _options(page: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}">(.*?)</select>', page)
    assert select, name
    return [html.unescape(v) for v in re.findall(r'<option value="([^"]*)">', select.group(1))]


def test_the_form_offers_the_lists_values_and_the_table_stays_for_readers_without_script(
        seed_build: BuildResult) -> None:
    library = seed_build.library
    [page] = render_all_pages(library, entries(library.papers)).values()
    assert '<form class="rl-filter" data-rl-filter hidden>' in page
    assert _options(page, "year") == ["", "2026", "2025"]
    assert _options(page, "venue") == ["", "arXiv", "TMLR"]
    assert _options(page, "status") == ["", "accepted", "under review", "preprint"]
    assert _options(page, "reading") == ["", "to-read", "reading", "read", "skipped"]
    assert _options(page, "sort") == ["", "oldest", "title", "rating", "interest"]
    tags = _options(page, "tag")[1:]
    assert tags == sorted({t for p in library.papers for t in p.tags}, key=lambda t: (t.casefold(), t))
    assert "Knowledge distillation" in tags
    # The paginated table is the page; the filter only hides it while it shows its own results.
    # all.md is not an index.md, so the table is Markdown (render/links.py): a row per paper, after
    # the marker the filter hides the rest of the page from.
    table = page[page.index("<div data-rl-static></div>"):]
    assert table.count("\n| [") == len(library.papers)
    assert table.count("](papers/") == len(library.papers)


def test_values_differing_only_in_case_come_in_one_order_whatever_the_papers_order(
        seed_build: BuildResult) -> None:
    # Sorted by casefold alone, "ArXiv" and "arXiv" came in the order of a set: another order in
    # another process (hash seed), so two builds of the same list differed.
    library = seed_build.library
    papers = list(library.papers)
    papers[0] = dataclasses.replace(papers[0], venue="ArXiv", tags=("gnn", *papers[0].tags))
    papers[1] = dataclasses.replace(papers[1], venue="arXiv", tags=("GNN", *papers[1].tags))
    pages = []
    for order in (papers, papers[::-1]):
        lib = dataclasses.replace(library, papers=order)
        [page] = render_all_pages(lib, entries(lib.papers)).values()
        pages.append(page)
        assert _options(page, "venue") == ["", "ArXiv", "arXiv", "TMLR"]
        tags = _options(page, "tag")
        assert tags.index("GNN") + 1 == tags.index("gnn")
    assert pages[0].split('<div data-rl-static>')[0] == pages[1].split('<div data-rl-static>')[0]


def test_each_papers_record_carries_its_facets(seed_build: BuildResult) -> None:
    papers = json.loads(json.dumps([
        {"title": "A  Title", "authors": ["Ann Lee", "Bo Wu"], "authors_complete": True, "key": "lee2025title",
         "abstract": "Text.", "page": "papers/a-title/", "tags": ["Reasoning", "Language models"], "year": 2025,
         "date": "2025-08-08", "venue": "TMLR", "venue_line": "TMLR · accepted · Aug 2025", "status": "accepted",
         "interest": 0.7}]))
    filters, sort, row = facets(papers[0], ("reading", 4))
    assert filters == {"kind": ["paper"], "tag": ["Reasoning", "Language models"], "status": ["accepted"],
                       "year": ["2025"], "venue": ["TMLR"], "reading": ["reading"]}
    assert sort == {"date": "2025-08-08", "title": "a title", "rating": "4", "interest": "0.70"}
    assert row == {"first": "Ann Lee and Bo Wu", "venue": "TMLR · accepted · Aug 2025", "year": "2025"}
    rec = record(papers[0]).as_dict()
    assert rec["content"].endswith("\n" + EVERY)
    assert rec["filters"]["kind"] == ["paper"] and "reading" not in rec["filters"]
    assert rec["sort"]["rating"] == "0"


def test_one_spaced_is_split_and_join_for_every_white_space() -> None:
    """one_spaced gives back the text that `" ".join(text.split())` gives, for every character
    str.split splits at (the ones isprintable calls printable: the space alone) and a few others."""
    import sys

    from generator.render.search_records import one_spaced

    spaces = [c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace()]
    assert len(spaces) > 20 and "\u3000" in spaces and "\xa0" in spaces
    texts = ["", " ", "a", "a b", " a", "a ", "a  b", "Béthune é", "x\u200by", "a\x01b"]
    texts += [f"a{c}b" for c in spaces] + [f"{c}a" for c in spaces] + [f"a{c}" for c in spaces]
    for text in texts:
        assert one_spaced(text) == " ".join(text.split()), repr(text)
    rec = record({"title": " A\u2028Title ", "authors": ["Zoë Ünï", "Bo Wu"], "abstract": "Long\n\nabstract  here.",
                  "key": "k", "page": "papers/a/"})
    assert rec.title == "A Title"
    assert rec.content == f"A Title\nZoë Ünï, Bo Wu\nLong abstract here.\nCitation key k\n{EVERY}"
    assert rec.folded == "Zoe Uni"
