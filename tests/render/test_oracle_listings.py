"""The listing pages' fast paths (rows.py, map.strong_edges) write what
the plain code they replaced wrote: that code is kept here, applied to small hand-made inputs."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace

import numpy as np
import pytest

from generator.enrich.bibtex import with_entries
from generator.enrich.text import plain_title
from generator.model import Library, Paper, Related, SourceRef
from generator.render import escape, exports, rows
from generator.render.html import table
from generator.render.indexes import render_all_pages, render_digest_pages
from generator.render.links import paper_anchor
from generator.render.map import STRONG, render_map, strong_edges
from generator.render.tagnames import all_tag_slugs
from generator.render.tags import render_tag_page, render_tag_pages
from generator.render.venue import venue_line


def _papers() -> list[Paper]:
    base = Paper("title:a", "A <b> & $x$ \\mathsf{Y}", ("Ann One", "Bo Two"), "Abs <tr> & c.",
                 SourceRef("seeds/d1.txt", 3), venue="TMLR", status="accepted", date=dt.date(2024, 5, 1),
                 tags=("T1", "T2"), key="one2024a", slug="a", sources=(SourceRef("seeds/d1.txt", 3),),
                 labels=("Featured",), url="https://x.org/a")
    return [
        base,
        replace(base, id="title:b", title="-1. Beta", authors=(), key="b", slug="b", date=None,
               url=None, tags=("T2",), related=(Related("title:a", 0.61234567, "shared <terms>"),
                                                Related("title:gone", 0.5, "not in the list"))),
        replace(base, id="title:c", title="Gamma", authors=("Cé Ünï",), authors_complete=False, key="c",
               slug="c", year_override=2031, categories=("cs.LG", "cs.CL"), cross_listed_from="cs.CL",
               venue="arXiv", related=(Related("title:b", 0.1, "weak"), Related("title:a", 0.05, "weaker"))),
        replace(base, id="title:d", title="Gamma", key="d", slug="d", tags=(), date=dt.date(2024, 5, 1),
               abstract="Plain ü ć abstract."),
        replace(base, id="title:e", key="e", slug="e", abstract='A "q" \\ \x01 \t end.'),
    ]


def _library() -> Library:
    return with_entries(Library(papers=_papers(), topics=(("T1", "About T1"),)))


def _old_first_author(paper: Paper) -> str:
    # "A", "A and B", "A et al." from three authors on or for a cut list.
    if len(paper.authors) == 2 and paper.authors_complete:
        return escape.text(f"{paper.authors[0]} and {paper.authors[1]}")
    name = escape.text(paper.first_author)
    return name + (" et al." if len(paper.authors) > 2 or not paper.authors_complete else "")


def _old_key(p: Paper) -> tuple[int, str, str]:
    return (-(p.year or 0), plain_title(p.title).lower(), p.id)


@pytest.mark.parametrize("from_md", ["all.md", "all/2.md", "tags/t1.md", "digests/x/3.md", "index.md",
                                     "papers.md", "papers/a.md", "papers/x/y.md"])
def test_rows_and_anchors_are_the_plain_ones(from_md: str) -> None:
    papers = _papers()
    for venue in (False, True):
        want = [[paper_anchor(p, from_md), _old_first_author(p),
                 *([escape.text(venue_line(p))] if venue else []), str(p.year or "")] for p in papers]
        head = ["Title", "First author", *(["Venue"] if venue else []), "Year"]
        made = rows.paper_rows_table(head, [rows.Entry(p) for p in papers], from_md, venue)
        assert made == table(head, want, rows.NOT_INDEXED)
    for p in papers:
        assert rows.anchor(rows.Entry(p), from_md, rows.prefix(from_md)) == paper_anchor(p, from_md)


def test_orders_and_pages_are_the_plain_ones() -> None:
    lib = _library()
    assert rows.all_order(lib.papers) == sorted(lib.papers, key=_old_key)
    entries = rows.entries(lib.papers)
    pages = render_tag_pages(lib, all_tag_slugs(lib), entries)
    assert pages["tags/t2/index.md"] == render_tag_page("T2", "t2", [entries[p.id] for p in lib.papers
                                                                     if "T2" in p.tags])
    assert "title:c" not in pages["tags/t1/index.md"]
    assert list(render_all_pages(lib, entries, 3)) == ["all.md", "all/2/index.md"]
    from generator.model import Digest

    digest = Digest("seeds/d1.txt", "tmlr", "D1", None, "", tuple(p.id for p in lib.papers), "d1")
    page = render_digest_pages(digest, entries, size=3)["digests/d1/2/index.md"]
    p = lib.papers[3]
    assert (f"<li>{paper_anchor(p, 'digests/d1/2/index.md')} — {_old_first_author(p)} · "
            f"{escape.text(venue_line(p))}</li>") in page


def test_papers_json_is_json_of_the_records() -> None:
    """One record per line, as json.dumps writes it, `<` and `>` escaped for anyone who inlines the file;
    values of odd types (NaN and int scores, numpy floats) as json writes them."""
    lib = _library()
    lib.papers[1] = replace(lib.papers[1], related=(Related("title:a", float("nan"), "x"), Related("title:c", 1, "<y>"),
                                                     Related("title:d", np.float64(0.123456), "z")))
    text = exports.papers_json(exports.paper_records(lib))
    assert "<" not in text and ">" not in text
    records = json.loads(text)
    assert [r["id"] for r in records] == [p.id for p in lib.papers]
    assert records[0]["title_source"] == lib.papers[0].title
    assert [(r["key"], r["why"]) for r in records[1]["related"]] == [("one2024a", "x"), ("c", "<y>"), ("d", "z")]
    assert '"score": NaN' in text and '"score": 1,' in text and '"score": 0.1235,' in text
    assert text.count("\n") == len(lib.papers) + 2  # "[", a line per record, "]"


def _old_strong_edges(papers: list[Paper]) -> dict[tuple[str, str], float]:
    ids = {p.id for p in papers}
    edges: dict[tuple[str, str], float] = {}
    for p in papers:
        for n, r in enumerate(p.related):
            if r.id not in ids or (n > 0 and r.score < STRONG):
                continue
            key = (p.id, r.id) if p.id < r.id else (r.id, p.id)
            edges[key] = max(edges.get(key, 0.0), r.score)
    return edges


def test_strong_edges_are_the_plain_ones() -> None:
    papers = _papers()
    papers[0] = replace(papers[0], related=(Related("title:c", -0.5, "negative best"),
                                           Related("title:b", float("nan"), "nan"),
                                           Related("title:b", 0.7, "again"), Related("title:d", 0.2, "at STRONG")))
    assert strong_edges(papers) == _old_strong_edges(papers)
    assert render_map(Library(papers=papers)).count("<line ") == len(_old_strong_edges(papers))


def test_tag_bibs_are_the_bibliographies_of_the_tags_papers() -> None:
    from generator.enrich import bibtex
    from generator.render.tagnames import papers_by_tag
    from generator.render.tags import render_tag_bibs

    lib = _library()
    slugs = all_tag_slugs(lib)
    assert render_tag_bibs(lib, slugs) == {f"tags/{slugs[name]}.bib": bibtex.bibliography(papers)
                                    for name, papers in papers_by_tag(lib).items()}


def test_rebuilds_with_new_papers_sort_and_list_the_new_papers() -> None:
    """Each rebuild (as under `serve`) makes new Paper objects, and the old ones are freed, so a
    new paper may get an old one's id(): the order and the rows are those of the new papers."""
    import gc

    head = ["Title", "First author", "Year"]
    rows.all_order(_library().papers)
    for n in range(3):
        gc.collect()
        # Titles that reverse the order of the last rebuild's, so a stale entry would show.
        new = Library(papers=[replace(p, title=f"{'z' * (i if n % 2 else 9 - i)} {p.title}")
                              for i, p in enumerate(_papers())])
        order = rows.all_order(new.papers)
        assert order == sorted(new.papers, key=_old_key)
        want = [[paper_anchor(p, "all.md"), _old_first_author(p), str(p.year or "")] for p in order]
        made = rows.paper_rows_table(head, [rows.Entry(p) for p in order], "all.md", False)
        assert made == table(head, want, rows.NOT_INDEXED)


def test_papers_json_is_one_record_a_line() -> None:
    lib = _library()
    # Without the abstract, which references.json holds (exports.IN_REFERENCES_JSON).
    records = [json.dumps({k: v for k, v in exports.paper_record(p, lib.by_id()).items() if k != "abstract"},
                          ensure_ascii=False) for p in lib.papers]
    old = "[\n" + ",\n".join(records) + "\n]\n"
    assert exports.papers_json(exports.paper_records(lib)) == old.replace("<", "\\u003c").replace(">", "\\u003e")
    assert [p["id"] for p in json.loads(exports.papers_json(exports.paper_records(lib)))] == [p.id for p in lib.papers]


def test_papers_json_of_an_empty_list_is_an_empty_json_list() -> None:
    assert json.loads(exports.papers_json(exports.paper_records(Library()))) == []
